// Issue 15 through the real adb: a failed step has the failure shape of a host error, and
// --timeout bounds a click on a device that never answers.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "farm_fixture.hpp"
#include "test_locations.hpp"

using clawperator::testing::Farm;
using clawperator::testing::read_file;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

TEST_CASE("a failed step has a top-level code, failedStep, message and hint",
          "[integration][first-hour]") {
  Farm farm({"default"});
  const std::string device = farm.serials().front();
  REQUIRE(farm.clawperator({"open", "com.android.settings", "--device", device}).exit_code == 0);
  const RunResult result =
      farm.clawperator({"click", "--text", "Definitely not on screen", "--device", device});
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 1);
  CHECK(document["ok"] == false);
  const json& failed = document["envelope"]["stepResults"][0];
  REQUIRE(failed["success"] == false);
  const std::string code = failed["data"]["error"];
  CHECK(document["code"] == code);
  CHECK(document["failedStep"] ==
        json{{"id", failed["id"]}, {"actionType", "click"}, {"index", 0}});
  CHECK_FALSE(document["message"].get<std::string>().empty());
  CHECK_FALSE(document["hint"].get<std::string>().empty());
  // Additive: the envelope and the disposition are where they were.
  CHECK(document["envelope"]["status"] == "failed");
  CHECK(document.contains("disposition"));
  // On stderr, one line for a person.
  CHECK(result.err.find("clawperator: " + code + ": ") != std::string::npos);
  // The log line of the failed execution names the code and the step.
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(farm.log_dir())) {
    log += read_file(entry.path());
  }
  CHECK(log.find("\"code\":\"" + code + "\"") != std::string::npos);
  CHECK(log.find("\"failedStepId\":\"" + failed["id"].get<std::string>() + "\"") !=
        std::string::npos);
}

TEST_CASE("click --timeout 1000 on a device that never answers ends within the budget",
          "[integration][first-hour][timeout]") {
  Farm farm({"never-answer"});
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = farm.clawperator(
      {"click", "--text", "OK", "--timeout", "1000", "--device", farm.serials().front()});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(document["code"] == "RESULT_ENVELOPE_TIMEOUT");
  CHECK(result.exit_code == 4);
  CHECK_FALSE(document["hint"].get<std::string>().empty());
  // The budget plus the documented 5 s grace, with room for a loaded machine.
  CHECK(elapsed < std::chrono::milliseconds(6000 + 1500));
  CHECK(document["details"]["timeoutMs"] == 6000);
}

TEST_CASE("the README's Use script runs as written against clawperator-vdevice with",
          "[integration][first-hour][readme]") {
  const std::string readme = read_file(CLAWPERATOR_README);
  const std::string begin = "<!-- readme-use-script -->\n```sh\n";
  const std::string end = "```\n<!-- /readme-use-script -->";
  const auto from = readme.find(begin);
  REQUIRE(from != std::string::npos);
  const auto to = readme.find(end, from);
  REQUIRE(to != std::string::npos);
  const std::string script = readme.substr(from + begin.size(), to - from - begin.size());

  char pattern[] = "/tmp/clawperator-readme-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const std::filesystem::path dir = pattern;
  std::ofstream(dir / "settings.sh") << script;
  clawperator::testing::RunOptions options;
  const std::string bin = std::filesystem::path(CLAWPERATOR_BINARY).parent_path().string();
  const std::string vdevice = std::filesystem::path(CLAWPERATOR_VDEVICE_BINARY).parent_path();
  options.extra_env = {{"PATH", bin + ":" + vdevice + ":" + std::getenv("PATH")},
                       {"CLAWPERATOR_STATE_DIR", (dir / "state").string()},
                       {"CLAWPERATOR_LOG_DIR", (dir / "logs").string()},
                       {"ANDROID_SERIAL", ""}};
  const RunResult result = clawperator::testing::run_binary(
      CLAWPERATOR_VDEVICE_BINARY,
      {"with", "--", "sh", "-c", "cd '" + dir.string() + "' && exec sh settings.sh"}, options);
  INFO("stdout: " << result.out.substr(0, 3000) << "\nstderr: " << result.err.substr(0, 3000));
  CHECK(result.exit_code == 0);
  // The last line fails on purpose: its code on stderr, its exit in the echo.
  CHECK(result.out.find("failed: exit 1") != std::string::npos);
  CHECK(result.err.find("clawperator: NODE_NOT_FOUND: ") != std::string::npos);
  CHECK(json::parse(read_file((dir / "screen.json").string()))["ok"] == true);
  CHECK(read_file((dir / "settings.png").string()).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cmake --install: man page, docs, examples, completions that offer values",
          "[integration][first-hour][install]") {
  char pattern[] = "/tmp/clawperator-install-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const std::filesystem::path prefix = pattern;
  const RunResult installed = clawperator::testing::run_binary(
      CLAWPERATOR_CMAKE_COMMAND, {"--install", CLAWPERATOR_BUILD_DIR, "--prefix", prefix.string()});
  INFO("stdout: " << installed.out.substr(0, 2000) << "\nstderr: " << installed.err);
  REQUIRE(installed.exit_code == 0);
  const std::filesystem::path doc = prefix / "share/doc/clawperator";
  CHECK(std::filesystem::exists(doc / "examples/snapshot.json"));
  CHECK(std::filesystem::exists(doc / "commands.md"));
  CHECK(std::filesystem::exists(doc / "README.md"));
  // zsh looks in site-functions for any prefix but /usr.
  CHECK(std::filesystem::exists(prefix / "share/zsh/site-functions/_clawperator"));
  CHECK(std::filesystem::exists(prefix / "share/zsh/site-functions/_clawperator-vdevice"));
  // Both man pages render, with the sections a user looks for.
  for (const std::string program : {"clawperator", "clawperator-vdevice"}) {
    CAPTURE(program);
    const RunResult man = clawperator::testing::run_binary(
        "/bin/sh", {"-c", "MANWIDTH=100 man -l \"$0\" 2>&1 | col -b",
                    (prefix / "share/man/man1" / (program + ".1.gz")).string()});
    CHECK(man.exit_code == 0);
    CHECK(man.out.find(program + " - ") != std::string::npos);
    for (const std::string section :
         {"DESCRIPTION", "EXAMPLES", "ENVIRONMENT", "FILES", "EXIT STATUS"}) {
      CAPTURE(section);
      CHECK(man.out.find("\n" + section + "\n") != std::string::npos);
    }
    if (program == "clawperator") {
      // One entry per variable, not a list.
      CHECK(man.out.find("CLAWPERATOR_STATE_DIR\n") != std::string::npos);
      CHECK(man.out.find("CLAWPERATOR_RESULT_TRANSPORT\n") != std::string::npos);
    } else {
      CHECK(man.out.find("ANDROID_ADB_SERVER_PORT\n") != std::string::npos);
      CHECK(man.out.find("make-apk") != std::string::npos);
    }
  }

  // bash completion, against a running virtual device: its serial for --device, and press keys.
  Farm farm({"default"});
  const std::string completion =
      (prefix / "share/bash-completion/completions/clawperator").string();
  auto complete = [&](const std::string& words) {
    const std::string script = "source '" + completion + "'; COMP_WORDS=(" + words +
                               "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _clawperator; "
                               "printf '%s\\n' \"${COMPREPLY[@]}\"";
    return clawperator::testing::run_binary("/bin/bash", {"-c", script}, farm.environment()).out;
  };
  CHECK(complete("clawperator --device ''").find(farm.serials().front() + "\n") !=
        std::string::npos);
  CHECK(complete("clawperator press ''") == "back\nhome\nrecents\n");
  CHECK(complete("clawperator scroll ''") == "down\nup\nleft\nright\n");
  CHECK(complete("clawperator --output ''") == "json\npretty\n");
  CHECK(complete("clawperator errors NODE_NOT_F").find("NODE_NOT_FOUND\n") != std::string::npos);
  const std::string vdevice_completion =
      (prefix / "share/bash-completion/completions/clawperator-vdevice").string();
  const std::string vdevice_script =
      "source '" + vdevice_completion +
      "'; COMP_WORDS=(clawperator-vdevice ''); COMP_CWORD=1; _clawperator_vdevice; "
      "printf '%s\\n' \"${COMPREPLY[@]}\"";
  CHECK(clawperator::testing::run_binary("/bin/bash", {"-c", vdevice_script}).out ==
        "serve\nwith\nup\nscenario\nmake-apk\nemulator\n");
  std::filesystem::remove_all(prefix);
}
