// run_script and choose_script with real child processes (/bin/sh scripts in a temp directory):
// the outcome codes, the deadline's TERM-then-KILL, the capture bound, the result line.
#include "clawperator/skills/skill_run.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "clawperator/process/cancel.hpp"
#include "test_files.hpp"
#include "wait_until.hpp"

namespace {

namespace fs = std::filesystem;
using namespace clawperator;
using namespace clawperator::skills;
using namespace std::chrono_literals;

using clawperator::testing::TemporaryDirectory;

fs::path write_script(const fs::path& path, const std::string& body) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ::chmod(path.c_str(), 0755);
  return path;
}

SkillRunReport run(const fs::path& script, SkillRunRequest request = {},
                   process::Runner* runner = nullptr) {
  ScriptRun launch;
  launch.skill_id = "com.test.skill";
  launch.argv = {script.string()};
  launch.device_id = "emulator-5554";
  launch.environment = {"CLAWPERATOR_SKILL_ID=com.test.skill"};
  const auto system = process::make_system_runner();
  return run_script(launch, request, runner != nullptr ? *runner : *system);
}

bool process_gone(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

}  // namespace

TEST_CASE("skill run: a script that succeeds, its arguments and result line", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  const fs::path script =
      write_script(dir.path() / "ok.sh",
                   "echo \"args:$*\"\necho \"id:$CLAWPERATOR_SKILL_ID\"\necho oops >&2\n"
                   "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
                   "\"com.test.skill\",\"status\":\"success\",\"checkpoints\":[]}'\n");
  SkillRunRequest request;
  request.script_args = {"--timeout", "5", "--help"};
  request.expect_contains = "id:com.test.skill";
  std::string streamed;
  request.on_output = [&](OutputStream stream, std::string_view bytes) {
    if (stream == OutputStream::Stdout) streamed.append(bytes);
  };
  const SkillRunReport report = run(script, request);
  INFO(report.document.dump());
  CHECK(report.exit_code == 0);
  CHECK(report.document["ok"] == true);
  CHECK(report.document["output"].get<std::string>().find("args:--timeout 5 --help\n") == 0);
  CHECK(report.document["stderr"] == "oops\n");
  CHECK(report.document["exitCode"] == 0);
  CHECK(report.document["deviceId"] == "emulator-5554");
  CHECK(report.document["skillResult"]["status"] == "success");
  CHECK(report.document["skillResult"]["source"]["kind"] == "script");
  CHECK(report.document["stdoutTruncated"] == false);
  CHECK(report.document["expectedSubstring"] == "id:com.test.skill");
  CHECK(streamed == report.document["output"]);
}

TEST_CASE("skill run: no result line is a null skillResult", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  const SkillRunReport report = run(write_script(dir.path() / "plain.sh", "echo done\n"));
  CHECK(report.exit_code == 0);
  CHECK(report.document["skillResult"].is_null());
}

TEST_CASE("skill run: a non-zero exit is SKILL_EXECUTION_FAILED, delivered", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  const SkillRunReport report =
      run(write_script(dir.path() / "fail.sh", "echo partial\necho why >&2\nexit 3\n"));
  INFO(report.document.dump());
  CHECK(report.exit_code == 1);
  CHECK(report.document["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(report.document["exitCode"] == 3);
  CHECK(report.document["stdout"] == "partial\n");
  // The shell may say first that its sleep was terminated.
  const std::string err = report.document["stderr"];
  CHECK(err.size() >= 4);
  CHECK(err.substr(err.size() - 4) == "why\n");
  CHECK(report.document["details"]["phase"] == "post_processing");
  CHECK(report.document["disposition"]["delivery"] == "delivered_verified");
  CHECK(report.document["disposition"]["retry"] == "unsafe");
}

TEST_CASE("skill run: a script that cannot start is SKILL_EXECUTION_FAILED, not delivered",
          "[skills]") {
  const TemporaryDirectory dir("skill-run");
  const fs::path script = write_script(dir.path() / "noexec.sh", "echo never\n");
  ::chmod(script.c_str(), 0644);
  const SkillRunReport report = run(script);
  INFO(report.document.dump());
  CHECK(report.exit_code == 1);
  CHECK(report.document["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(report.document["details"]["phase"] == "readiness");
  CHECK(report.document["details"]["errno"] == EACCES);
  CHECK(report.document["disposition"]["delivery"] == "not_delivered");
}

TEST_CASE("skill run: a bad result line is SKILL_RESULT_PARSE_FAILED with the run reported",
          "[skills]") {
  const TemporaryDirectory dir("skill-run");
  const SkillRunReport report = run(write_script(
      dir.path() / "bad.sh", "echo before\necho '[Clawperator-Skill-Result]{\"status\":'\n"));
  INFO(report.document.dump());
  CHECK(report.exit_code == 4);
  CHECK(report.document["code"] == "SKILL_RESULT_PARSE_FAILED");
  CHECK(report.document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(report.document["details"]["phase"] == "result_wait");
  CHECK(report.document["details"]["dispatchState"] == "dispatched");
  CHECK(report.document["details"]["line"] == 2);
  CHECK(report.document["skillId"] == "com.test.skill");
  CHECK(report.document["exitCode"] == 0);
  CHECK(report.document["output"].get<std::string>().rfind("before\n", 0) == 0);
  CHECK(report.document["skillResult"].is_null());
}

TEST_CASE("skill run: --expect-contains that is not in stdout fails the run", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  SkillRunRequest request;
  request.expect_contains = "Wi-Fi on";
  const SkillRunReport report =
      run(write_script(dir.path() / "says.sh", "echo Wi-Fi off\necho 'Wi-Fi on' >&2\n"), request);
  CHECK(report.exit_code == 1);
  CHECK(report.document["code"] == "SKILL_OUTPUT_ASSERTION_FAILED");
  CHECK(report.document["output"] == "Wi-Fi off\n");
  CHECK(report.document["expectedSubstring"] == "Wi-Fi on");
  CHECK(report.document["disposition"]["delivery"] == "delivered_verified");
}

TEST_CASE("skill run: the deadline sends TERM, then KILL to the whole group", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  // Ignores TERM, and so does the child it leaves behind (an ignored signal survives exec).
  const fs::path script =
      write_script(dir.path() / "hang.sh",
                   "trap '' TERM\nsleep 300 &\necho $! > \"$1\"\necho started\nwait\nwait\n");
  SkillRunRequest request;
  request.timeout = 400ms;
  request.terminate_grace = 300ms;
  request.script_args = {(dir.path() / "child.pid").string()};
  const auto started = std::chrono::steady_clock::now();
  const SkillRunReport report = run(script, request);
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(report.document.dump());
  CHECK(report.exit_code == 4);
  CHECK(report.document["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(report.document["message"] == "Skill com.test.skill timed out after 400ms");
  CHECK(report.document["signal"] == SIGKILL);
  CHECK(report.document["stdout"] == "started\n");
  CHECK(report.document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(took >= 700ms);
  CHECK(took < 5s);
  std::ifstream pid_file(dir.path() / "child.pid");
  pid_t child = 0;
  REQUIRE(pid_file >> child);
  CHECK(process_gone(child));
}

TEST_CASE("skill run: a script that obeys TERM ends at the deadline without the grace",
          "[skills]") {
  const TemporaryDirectory dir("skill-run");
  SkillRunRequest request;
  request.timeout = 300ms;
  request.terminate_grace = 3s;
  const auto started = std::chrono::steady_clock::now();
  // A script that would run 300 s, far past its deadline.
  const SkillRunReport report =
      run(write_script(dir.path() / "sleep.sh", "exec sleep 300\n"), request);
  CHECK(report.document["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(report.document["signal"] == SIGTERM);
  CHECK(std::chrono::steady_clock::now() - started < 2s);
}

TEST_CASE(
    "skill run: the output a script writes after the deadline's TERM is kept, its child killed",
    "[skills]") {
  const TemporaryDirectory dir("skill-run");
  SkillRunRequest request;
  request.timeout = 300ms;
  request.terminate_grace = 3s;
  // The trap writes slowly, to both streams, in several chunks; the child it leaves behind
  // ignores TERM and must still not outlive the run.
  const fs::path pid_file = dir.path() / "child.pid";
  const auto started = std::chrono::steady_clock::now();
  const SkillRunReport report = run(
      write_script(dir.path() / "cleanup.sh",
                   "trap 'echo cleaning; sleep 0.2; echo why >&2; sleep 0.2; echo done; exit 4' "
                   "TERM\n(trap \"\" TERM; exec sleep 300) >/dev/null 2>&1 &\necho $! > \"" +
                       pid_file.string() + "\"\necho started\nwhile :; do sleep 0.05; done\n"),
      request);
  CHECK(report.document["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(report.document["stdout"] == "started\ncleaning\ndone\n");
  // The shell may say first that its sleep was terminated.
  const std::string err = report.document["stderr"];
  CHECK(err.size() >= 4);
  CHECK(err.substr(err.size() - 4) == "why\n");
  CHECK(report.document["exitCode"] == 4);
  // It exited on its own within the grace: no waiting for the rest of it.
  CHECK(std::chrono::steady_clock::now() - started < 2500ms);
  std::ifstream pid_in(pid_file);
  pid_t child = 0;
  pid_in >> child;
  REQUIRE(child > 0);
  CHECK(process_gone(child));
}

TEST_CASE("skill run: stdout beyond the bound is cut, counted and still searched", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  SkillRunRequest request;
  request.expect_contains = "THE-END";
  // 24 MiB of zeros, then the text only the tail and the search see.
  const SkillRunReport report =
      run(write_script(dir.path() / "flood.sh", "head -c 25165824 /dev/zero\nprintf THE-END\n"),
          request);
  CHECK(report.exit_code == 0);
  CHECK(report.document["stdoutTruncated"] == true);
  CHECK(report.document["stdoutBytes"] == 25165824 + 7);
  const std::string output = report.document["output"];
  CHECK(output.size() == kCaptureHeadBytes + kCaptureTailBytes);
  CHECK(output.substr(output.size() - 7) == "THE-END");
}

TEST_CASE("skill run: a cancelled run stops the script", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  process::CancelSource cancel;
  const auto runner = process::make_system_runner(cancel.token());
  SkillRunRequest request;
  // The script would run 300 s; it is cancelled once at work (its line has been read).
  std::atomic<bool> working{false};
  request.on_output = [&](OutputStream stream, std::string_view bytes) {
    if (stream == OutputStream::Stdout && bytes.find("working") != std::string_view::npos) {
      working = true;
    }
  };
  std::atomic<bool> seen{false};
  std::thread canceller([&] {
    seen = clawperator::testing::wait_until([&] { return working.load(); }, 10s);
    cancel.cancel();
  });
  request.terminate_grace = 200ms;
  const auto started = std::chrono::steady_clock::now();
  const SkillRunReport report =
      run(write_script(dir.path() / "long.sh", "echo working\nexec sleep 300\n"), request,
          runner.get());
  canceller.join();
  REQUIRE(seen);
  CHECK(report.document["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(report.document["stdout"] == "working\n");
  CHECK(std::chrono::steady_clock::now() - started < 3s);
}

TEST_CASE("skill run: --timeout for a script is a whole number of ms up to a day", "[skills]") {
  CHECK(*parse_skill_timeout(std::nullopt) == kDefaultSkillTimeout);
  CHECK(*parse_skill_timeout(std::string("250")) == 250ms);
  CHECK(*parse_skill_timeout(std::string("86400000")) == 86400000ms);
  const auto bad = parse_skill_timeout(std::string("abc"));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "EXECUTION_VALIDATION_FAILED");
  CHECK(bad.error().message == "timeoutMs must be a finite number");
  CHECK(contract::exit_code_of(bad.error()) == 2);
  for (const char* text : {"0", "-5", "1.5", "86400001"}) {
    INFO(text);
    const auto refused = parse_skill_timeout(std::string(text));
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "EXECUTION_VALIDATION_FAILED");
    CHECK(refused.error().details["path"] == "timeoutMs");
  }
}

TEST_CASE("skill run: the script chosen, and missing ones refused", "[skills]") {
  const TemporaryDirectory dir("skill-run");
  Registry registry;
  registry.root = dir.path();
  SkillEntry skill;
  skill.id = "com.test.pick";
  skill.scripts = {"skills/pick/run.py", "skills/pick/run.sh", "skills/pick/run.js"};
  write_script(dir.path() / "skills/pick/run.sh", "echo sh\n");
  write_script(dir.path() / "skills/pick/run.js", "console.log('js')\n");

  SECTION("the first .js wants node on PATH") {
    const char* saved = std::getenv("PATH");
    const std::string old_path = saved != nullptr ? saved : "";
    ::setenv("PATH", dir.path().c_str(), 1);
    const auto launch = choose_script(registry, skill);
    ::setenv("PATH", old_path.c_str(), 1);
    REQUIRE_FALSE(launch);
    CHECK(launch.error().code == "HOST_DEPENDENCY_MISSING");
    CHECK(launch.error().details["dependencies"] == Json::array({"node"}));
    CHECK(contract::exit_code_of(launch.error()) == 3);
  }
  SECTION("the first .js runs with node from PATH") {
    const fs::path node = write_script(dir.path() / "bin/node", "exit 0\n");
    const char* saved = std::getenv("PATH");
    const std::string old_path = saved != nullptr ? saved : "";
    ::setenv("PATH", (dir.path() / "empty").string().append(":").append(node.parent_path()).c_str(),
             1);
    const auto launch = choose_script(registry, skill);
    ::setenv("PATH", old_path.c_str(), 1);
    REQUIRE(launch);
    REQUIRE(launch->argv.size() == 2);
    CHECK(launch->argv[0] == node.string());
    CHECK(launch->argv[1] == (dir.path() / "skills/pick/run.js").string());
  }
  SECTION("without a .js, the first .sh, run directly") {
    skill.scripts = {"skills/pick/run.py", "skills/pick/run.sh"};
    const auto launch = choose_script(registry, skill);
    REQUIRE(launch);
    CHECK(launch->argv == std::vector<std::string>{(dir.path() / "skills/pick/run.sh").string()});
  }
  SECTION("a script that is not there") {
    skill.scripts = {"skills/pick/gone.sh"};
    const auto launch = choose_script(registry, skill);
    REQUIRE_FALSE(launch);
    CHECK(launch.error().code == "SKILL_SCRIPT_NOT_FOUND");
    CHECK(contract::exit_code_of(launch.error()) == 2);
  }
  SECTION("no scripts at all") {
    skill.scripts.clear();
    const auto launch = choose_script(registry, skill);
    REQUIRE_FALSE(launch);
    CHECK(launch.error().message == "Skill com.test.pick has no scripts defined");
  }
  SECTION("a script outside the repository") {
    skill.scripts = {"../elsewhere.sh"};
    const auto launch = choose_script(registry, skill);
    REQUIRE_FALSE(launch);
    CHECK(launch.error().code == "SKILL_VALIDATION_FAILED");
  }
}
