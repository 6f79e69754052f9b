// `skills run` through the real binary, the real adb and a virtual device: the script's own
// exec under the lock held for it, a foreign exec refused, readiness before the spawn, the
// deadline, the capture bound, the result line, and the arguments after `--`.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "farm_fixture.hpp"
#include "skills_repo.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::kSnapshot;
using clawperator::testing::read_file;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::SkillsRepo;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

RunResult run_skill(const Farm& farm, const SkillsRepo& repo, std::vector<std::string> args) {
  // --registry first: after a `--` in `args` it would be the script's.
  std::vector<std::string> argv = {"skills", "--registry", repo.registry(), "run"};
  argv.insert(argv.end(), args.begin(), args.end());
  return farm.clawperator(argv);
}

bool wait_for_file(const std::string& path, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (fs::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

TEST_CASE("skills run: the script's own exec passes the lock held for it, a foreign exec does not",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  const std::string payload = repo.path("snapshot.json");
  std::ofstream(payload) << json{{"commandId", "skill-snap"},
                                 {"taskId", "skill"},
                                 {"source", "skill"},
                                 {"expectedFormat", "android-ui-automator"},
                                 {"timeoutMs", 20000},
                                 {"actions", json::array({kSnapshot})}}
                                .dump();
  repo.add("com.test.locked-exec",
           "printf '%s\\n' \"$@\" > \"" + repo.path("args.txt") + "\"\n" +
               "\"$CLAWPERATOR_BIN\" exec \"" + payload + "\" > \"" + repo.path("exec.json") +
               "\"\necho $? > \"" + repo.path("exec.rc") + "\"\n" + "touch \"" +
               repo.path("ready") + "\"\n" + "i=0; while [ ! -e \"" + repo.path("go") +
               "\" ] && [ $i -lt 600 ]; do sleep 0.05;"
               " i=$((i+1)); done\n"
               "echo \"device=$CLAWPERATOR_DEVICE_ID package=$CLAWPERATOR_OPERATOR_PACKAGE\"\n"
               "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
               "\"com.test.locked-exec\",\"status\":\"success\",\"checkpoints\":[]}'\n");
  const std::string serial = farm.serials().front();
  RunResult skill;
  std::thread runner([&] {
    skill = run_skill(farm, repo,
                      {"com.test.locked-exec", "--device", serial, "--", "--timeout", "5", "--help",
                       "--version", "--device", "x"});
  });
  const bool ready = wait_for_file(repo.path("ready"), std::chrono::seconds(60));
  // While the skill holds the device, an exec that does not carry its token is refused.
  const RunResult foreign = farm.exec(json::array({kSnapshot}));
  std::ofstream(repo.path("go")) << "go";
  runner.join();
  INFO("skill: " << skill.out.substr(0, 3000) << skill.err.substr(0, 3000));
  REQUIRE(ready);
  const json refused = expect_error(foreign, "EXECUTION_CONFLICT_IN_FLIGHT", 3);
  CHECK(refused["details"]["holder"]["commandId"].get<std::string>().rfind("skill-run-", 0) == 0);
  CHECK_FALSE(refused["details"]["holder"].contains("token"));

  CHECK(read_file(repo.path("exec.rc")) == "0\n");
  const json inner = json::parse(read_file(repo.path("exec.json")), nullptr, false);
  REQUIRE(inner.is_object());
  CHECK(inner["ok"] == true);
  CHECK(inner["deviceId"] == serial);
  // The global --device first, then every word after `--`, flags included, verbatim.
  CHECK(read_file(repo.path("args.txt")) ==
        serial + "\n--timeout\n5\n--help\n--version\n--device\nx\n");

  const json document = single_document(skill);
  INFO(skill.out << skill.err);
  CHECK(skill.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["skillId"] == "com.test.locked-exec");
  CHECK(document["deviceId"] == serial);
  CHECK(document["exitCode"] == 0);
  CHECK(document["output"].get<std::string>().find(
            "device=" + serial + " package=com.clawperator.operator") != std::string::npos);
  CHECK(document["skillResult"]["status"] == "success");
  CHECK(document["skillResult"]["source"] == json{{"kind", "script"}});
  CHECK(document["registryPath"] == repo.registry());
  CHECK(document["timeoutMs"] == 120000);
  // The lock is released with the run: the next exec goes through.
  CHECK(farm.exec(json::array({kSnapshot})).exit_code == 0);
}

TEST_CASE("skills run: a locked device is DEVICE_NOT_INTERACTIVE and the script never starts",
          "[integration][skills]") {
  Farm farm({"locked"});
  SkillsRepo repo;
  repo.add("com.test.never", "touch \"" + repo.path("spawned") + "\"\n");
  const RunResult result = run_skill(farm, repo, {"com.test.never"});
  const json document = expect_error(result, "DEVICE_NOT_INTERACTIVE", 3);
  CHECK(document["details"]["phase"] == "readiness");
  CHECK(document["details"]["skillId"] == "com.test.never");
  CHECK(document["details"]["wakeAttempts"].size() >= 1);
  CHECK_FALSE(fs::exists(repo.path("spawned")));
}

TEST_CASE(
    "skills run: a skill that fails validation never reaches the device, unless --skip-validate",
    "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  repo.add("com.test.broken", "touch \"" + repo.path("spawned") + "\"\n");
  fs::remove(repo.path("skills/com.test.broken/SKILL.md"));
  const json document =
      expect_error(run_skill(farm, repo, {"com.test.broken"}), "SKILL_VALIDATION_FAILED", 2);
  CHECK(document["details"]["missingFiles"].size() == 1);
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK_FALSE(fs::exists(repo.path("spawned")));
  // The gate is the only thing --skip-validate skips: the script then runs on the device.
  const RunResult skipped = run_skill(farm, repo, {"com.test.broken", "--skip-validate"});
  CHECK(skipped.exit_code == 0);
  CHECK(fs::exists(repo.path("spawned")));
}

TEST_CASE("skills run: the Operator missing is OPERATOR_NOT_INSTALLED before the script",
          "[integration][skills]") {
  Farm farm({"operator-missing"});
  SkillsRepo repo;
  repo.add("com.test.never", "touch \"" + repo.path("spawned") + "\"\n");
  expect_error(run_skill(farm, repo, {"com.test.never"}), "OPERATOR_NOT_INSTALLED", 3);
  CHECK_FALSE(fs::exists(repo.path("spawned")));
}

TEST_CASE("skills run: a script that ignores TERM is killed after the grace, nothing left",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  repo.add("com.test.hang", "trap '' TERM\nsleep 300 &\necho $! > \"" + repo.path("child.pid") +
                                "\"\necho waiting\nwait\nwait\n");
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = run_skill(farm, repo, {"com.test.hang", "--timeout", "1500"});
  const auto took = std::chrono::steady_clock::now() - started;
  const json document = single_document(result);
  INFO(result.out);
  CHECK(result.exit_code == 4);
  CHECK(document["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(document["signal"] == SIGKILL);
  CHECK(document["stdout"] == "waiting\n");
  CHECK(document["timeoutMs"] == 1500);
  CHECK(document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(document["disposition"]["retry"] == "unsafe");
  // The deadline, then the 2 s grace for TERM, then KILL.
  CHECK(took >= std::chrono::milliseconds(3400));
  CHECK(took < std::chrono::seconds(20));
  const pid_t child = std::stoi(read_file(repo.path("child.pid")));
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ::kill(child, 0) != 0 && errno == ESRCH;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(gone);
}

TEST_CASE("skills run: what a script writes while it cleans up after the deadline's TERM is kept",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  // Its trap writes to both streams and exits; the child it waits for gets the TERM too.
  repo.add("com.test.cleanup",
           "trap 'echo cleaning up; echo \"why: still waiting\" >&2; exit 3' TERM\n"
           "echo started\nsleep 300 &\nwait\n");
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = run_skill(farm, repo, {"com.test.cleanup", "--timeout", "1500"});
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(result.out << result.err);
  const json document = single_document(result);
  CHECK(result.exit_code == 4);
  CHECK(document["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(document["stdout"] == "started\ncleaning up\n");
  CHECK(document["stderr"] == "why: still waiting\n");
  CHECK(document["exitCode"] == 3);
  CHECK_FALSE(document.contains("signal"));
  CHECK(document["stdoutBytes"] == 20);
  // It exited within the grace: the answer does not wait the whole 2 s for the KILL.
  CHECK(took < std::chrono::milliseconds(1500 + 2000 + 1000));
}

TEST_CASE("skills run: 200 MB on stdout, captured within the bound, searched to the end",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  repo.add("com.test.flood", "head -c 209715200 /dev/zero\nprintf 'THE-END\\n'\n");
  repo.add("com.test.quiet", "printf 'THE-END\\n'\n");
  // Under AddressSanitizer every freed read buffer waits in its quarantine (256 MiB by
  // default), which would measure ASan rather than us: a small one keeps the bound below
  // meaningful in the sanitizer run too (the Release run ignores the variable).
  clawperator::testing::RunOptions options = farm.environment();
  const char* inherited = std::getenv("ASAN_OPTIONS");
  options.extra_env["ASAN_OPTIONS"] =
      std::string(inherited != nullptr ? inherited : "") + ":quarantine_size_mb=8";
  auto run = [&options, &repo](const std::string& skill) {
    std::vector<std::string> argv = {"skills",  "--registry", repo.registry(),
                                     "run",     skill,        "--expect-contains",
                                     "THE-END", "--timeout",  "60000"};
    return clawperator::testing::run_binary(clawperator::testing::kBinary, argv, options);
  };
  // The peak of the same binary printing one line is the yardstick, not a constant: an
  // instrumented clawperator peaks near 105 MB doing that, a Release one near 12 (measured on
  // 2026-12-05; the flood then added 26 and 14 MB).
  CHECK(run("com.test.quiet").exit_code == 0);
  struct rusage before {};
  REQUIRE(::getrusage(RUSAGE_CHILDREN, &before) == 0);

  const RunResult result = run("com.test.flood");
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["stdoutTruncated"] == true);
  CHECK(document["stdoutBytes"] == 209715200 + 8);
  CHECK(document["output"].get<std::string>().size() == std::size_t{4} << 20);
  CHECK(document["expectedSubstring"] == "THE-END");
  // 200 MB went through clawperator; its peak rose by far less (4 MiB kept, a read buffer).
  struct rusage after {};
  REQUIRE(::getrusage(RUSAGE_CHILDREN, &after) == 0);
  CHECK(after.ru_maxrss < before.ru_maxrss + 64 * 1024);  // KiB
}

TEST_CASE("skills run: result lines, --expect-contains, exit codes, live output",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  repo.add("com.test.result",
           "echo step one\necho '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\","
           "\"skillId\":\"com.test.result\",\"status\":\"indeterminate\",\"checkpoints\":"
           "[{\"id\":\"a\",\"status\":\"ok\"}]}'\n");
  repo.add("com.test.badline", "echo '[Clawperator-Skill-Result]{\"status\": success}'\n");
  repo.add("com.test.notaresult",
           "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
           "\"com.test.notaresult\",\"status\":\"done\",\"checkpoints\":[]}'\n");
  repo.add("com.test.fails", "echo partial\necho broken >&2\nexit 7\n");
  repo.add("com.test.json",
           "printf '{\"ok\":true,\"items\":[1,2]}\\n'\n"
           "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
           "\"com.test.json\",\"status\":\"success\",\"checkpoints\":[]}'\n"
           "exit \"${1:-0}\"\n");

  const json framed = single_document(run_skill(farm, repo, {"com.test.result"}));
  CHECK(framed["ok"] == true);
  CHECK(framed["skillResult"]["status"] == "indeterminate");
  CHECK(framed["skillResult"]["checkpoints"][0]["id"] == "a");
  // The output under stdout on every outcome; `output`, the original's name, beside it here.
  CHECK(framed["stdout"].get<std::string>().rfind("step one\n[Clawperator-Skill-Result]", 0) == 0);
  CHECK(framed["output"] == framed["stdout"]);
  CHECK(framed["stderr"] == "");
  CHECK(framed["outputJson"].is_null());  // "step one" is no JSON document

  // A script that prints JSON: parsed under outputJson, the result line apart, on success and on
  // failure alike.
  const json parsed = single_document(run_skill(farm, repo, {"com.test.json"}));
  CHECK(parsed["ok"] == true);
  CHECK(parsed["outputJson"] == json{{"ok", true}, {"items", {1, 2}}});
  CHECK(parsed["skillResult"]["skillId"] == "com.test.json");
  const RunResult json_failed = run_skill(farm, repo, {"com.test.json", "--", "2"});
  const json parsed_failure = single_document(json_failed);
  CHECK(json_failed.exit_code == 1);
  CHECK(parsed_failure["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(parsed_failure["outputJson"] == json{{"ok", true}, {"items", {1, 2}}});
  CHECK(parsed_failure["stdout"] == parsed["stdout"]);
  CHECK_FALSE(parsed_failure.contains("output"));

  const RunResult bad = run_skill(farm, repo, {"com.test.badline"});
  const json unreadable = single_document(bad);
  CHECK(bad.exit_code == 4);
  CHECK(unreadable["code"] == "SKILL_RESULT_PARSE_FAILED");
  CHECK(unreadable["skillId"] == "com.test.badline");
  CHECK(unreadable["exitCode"] == 0);
  CHECK(unreadable["skillResult"].is_null());
  CHECK(unreadable["disposition"]["delivery"] == "delivered_unverified");

  const RunResult wrong = run_skill(farm, repo, {"com.test.notaresult"});
  const json not_a_result = single_document(wrong);
  CHECK(wrong.exit_code == 4);
  CHECK(not_a_result["code"] == "SKILL_RESULT_PARSE_FAILED");
  CHECK(not_a_result["details"]["reason"] ==
        "the object is not a SkillResult: status must be one of success, failed, indeterminate");
  CHECK(not_a_result["details"]["line"] == 1);
  CHECK(not_a_result["skillResult"].is_null());
  CHECK(not_a_result["disposition"]["delivery"] == "delivered_unverified");

  const RunResult passed =
      run_skill(farm, repo, {"com.test.result", "--expect-contains", "step one"});
  CHECK(passed.exit_code == 0);
  const RunResult missed =
      run_skill(farm, repo, {"com.test.result", "--expect-contains", "step two"});
  const json assertion = single_document(missed);
  CHECK(missed.exit_code == 1);
  CHECK(assertion["code"] == "SKILL_OUTPUT_ASSERTION_FAILED");
  CHECK(assertion["expectedSubstring"] == "step two");
  CHECK(assertion["stdout"] == framed["stdout"]);
  CHECK(assertion["output"] == framed["stdout"]);

  const RunResult failed = run_skill(farm, repo, {"com.test.fails"});
  const json failure = single_document(failed);
  CHECK(failed.exit_code == 1);
  CHECK(failure["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(failure["exitCode"] == 7);
  CHECK(failure["stdout"] == "partial\n");
  CHECK(failure["stderr"] == "broken\n");
  CHECK(failure["outputJson"].is_null());
  CHECK(failure["details"]["phase"] == "post_processing");

  // Pretty: the script's output first, as it came, then the result, which does not repeat it.
  for (const char* id : {"com.test.fails", "com.test.json"}) {
    CAPTURE(id);
    const RunResult pretty = run_skill(farm, repo, {id, "--output", "pretty"});
    const std::string first_line =
        id == std::string("com.test.fails") ? "partial\n" : "{\"ok\":true,\"items\":[1,2]}\n";
    CHECK(pretty.out.rfind(first_line, 0) == 0);
    const std::size_t document_start = pretty.out.find("\n{\n", first_line.size() - 1);
    REQUIRE(document_start != std::string::npos);
    const json shown = json::parse(pretty.out.substr(document_start + 1), nullptr, false);
    REQUIRE(shown.is_object());
    CHECK(shown["skillId"] == id);
    for (const char* key : {"stdout", "output", "stderr", "outputJson"})
      CHECK_FALSE(shown.contains(key));
    CHECK(shown["stdoutBytes"] > 0);
    CHECK(pretty.out.find(first_line, 1) == std::string::npos);  // once
  }
  const RunResult pretty = run_skill(farm, repo, {"com.test.fails", "--output", "pretty"});
  CHECK(pretty.exit_code == 1);
  CHECK(pretty.err.find("broken\n") != std::string::npos);
  CHECK(pretty.err.find("broken\n") == pretty.err.rfind("broken\n"));

  // Refused before any adb call: no such skill, no such script, a bad timeout.
  expect_error(run_skill(farm, repo, {"com.test.nothing"}), "SKILL_NOT_FOUND", 2);
  fs::remove(repo.path("skills/com.test.fails/scripts/run.sh"));
  expect_error(run_skill(farm, repo, {"com.test.fails"}), "SKILL_SCRIPT_NOT_FOUND", 2);
  const json timeout = expect_error(run_skill(farm, repo, {"com.test.result", "--timeout", "soon"}),
                                    "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(timeout["message"] == "timeoutMs must be a finite number");
  expect_error(
      farm.clawperator({"skills", "list", "--timeout", "5000", "--registry", repo.registry()}),
      "USAGE", 2);
}

TEST_CASE("skills run: SIGTERM to clawperator stops the script's group, exit 143",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  // started.flag: the script has printed its line, so the signal finds it running; its child
  // would run 300 s.
  repo.add("com.test.long", "sleep 300 &\necho $! > \"" + repo.path("child.pid") +
                                "\"\necho started\n: > \"" + repo.path("started.flag") +
                                "\"\nwait\n");
  clawperator::testing::RunOptions options = farm.environment();
  options.signal = SIGTERM;
  options.signal_when_exists = repo.path("started.flag");
  options.signal_after_ms = 60000;
  const RunResult result = clawperator::testing::run_binary(
      clawperator::testing::kBinary,
      {"skills", "--registry", repo.registry(), "run", "com.test.long"}, options);
  const json document = single_document(result);
  CHECK(result.exit_code == 143);
  CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(document["stdout"] == "started\n");
  const pid_t child = std::stoi(read_file(repo.path("child.pid")));
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = ::kill(child, 0) != 0 && errno == ESRCH;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(gone);
}

TEST_CASE("skills new, validate and run of the scaffold, and the shipped skills, on a device",
          "[integration][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;  // an empty registry to scaffold into
  std::ofstream(repo.registry()) << R"({"schemaVersion":"1","skills":[]})";
  const std::vector<std::string> in_repo = {"skills", "--registry", repo.registry()};
  const auto with = [&](std::vector<std::string> words) {
    std::vector<std::string> argv = in_repo;
    argv.insert(argv.end(), words.begin(), words.end());
    return farm.clawperator(argv);
  };
  const json created = single_document(with({"new", "com.example.app.check"}));
  REQUIRE(created["ok"] == true);
  CHECK(single_document(with({"validate", "com.example.app.check", "--dry-run"}))["valid"] == true);
  // The scaffold's POSIX sh script drives the device through "$CLAWPERATOR_BIN" exec.
  const RunResult ran = with({"run", "com.example.app.check"});
  INFO(ran.out << ran.err);
  const json run = single_document(ran);
  CHECK(ran.exit_code == 0);
  CHECK(run["exitCode"] == 0);
  CHECK(run["deviceId"] == farm.serials().front());
  CHECK(run["output"].get<std::string>().find("\"ok\":true") != std::string::npos);
  // The scaffold's script prints a SkillResult line: a fresh skill can be compared.
  CHECK(run["skillResult"]["skillId"] == "com.example.app.check");
  CHECK(run["skillResult"]["status"] == "success");
  CHECK(run["skillResult"]["checkpoints"][0]["status"] == "ok");
  // Its exec's envelope, parsed.
  CHECK(run["outputJson"]["ok"] == true);
  CHECK(run["outputJson"]["deviceId"] == farm.serials().front());

  // The repository's own skills, for the virtual device's Settings.
  const std::string shipped = std::string(CLAWPERATOR_SOURCE_DIR) + "/skills/skills-registry.json";
  for (const char* id : {"com.android.settings.snapshot", "com.android.settings.open-entry"}) {
    CAPTURE(id);
    const RunResult result = farm.clawperator(
        {"skills", "--registry", shipped, "run", id, "--expect-contains", "\"ok\":true"});
    INFO(result.out << result.err);
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["exitCode"] == 0);
  }
}
