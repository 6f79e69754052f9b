// What `cmake --install` lays out: the man pages (rendered with their sections), the docs and
// examples, and shell completions that offer values, tried against a running virtual device.
#include <filesystem>

#include "farm_fixture.hpp"
#include "test_locations.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;

TEST_CASE("cmake --install: man page, docs, examples, completions that offer values",
          "[integration][cmake-install]") {
  const TemporaryDirectory installed_to("install");
  const std::filesystem::path& prefix = installed_to.path();
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
}
