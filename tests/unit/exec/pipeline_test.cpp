// The exec path against scripted adb processes: every outcome asserts code, exit
// code, disposition and the key details, without forking anything.
#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <random>
#include <thread>

#include "clawperator/exec/execution.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/scripted_runner.hpp"
#include "exec/device_lock.hpp"
#include "exec/readiness.hpp"
#include "scripted_device.hpp"
#include "wait_until.hpp"

using namespace clawperator;
using namespace std::chrono_literals;
using process::ScriptedRunner;
using Argv = ScriptedRunner::Argv;
using test::acknowledged;
using test::adb_argv;
using test::is_broadcast;
using test::kSerial;
using test::probe_answer;
using test::result_line;

namespace {

const std::string kPackage = "com.clawperator.operator";
const std::string kCommandId = "cmd-1";
const std::string kTaskId = "task-1";

contract::Execution execution_of(const std::string& actions_json) {
  Json payload = Json::parse(R"({"commandId":")" + kCommandId + R"(","taskId":")" + kTaskId +
                             R"(","source":"test","expectedFormat":"android-ui-automator",)"
                             R"("timeoutMs":5000,"actions":)" +
                             actions_json + "}");
  auto outcome = contract::validate_execution(payload);
  REQUIRE(outcome.valid);
  return *outcome.valid;
}

// A directory for files an execution writes (screenshots).
const std::filesystem::path& harness_dir() {
  static const testing::TemporaryDirectory dir{"exec-files"};
  return dir.path();
}

const char* kClickActions =
    R"([{"id":"a1","type":"click","params":{"matcher":{"textEquals":"OK"}}}])";
const char* kSnapshotActions = R"([{"id":"snap","type":"snapshot"}])";

Argv device_shell(const std::string& command) {
  return adb_argv({"-s", kSerial, "shell", command});
}

const Argv kPmList =
    device_shell("pm list packages -U 'com.clawperator.operator'; echo clawperator-exit:$?");
const Argv kLogcat = adb_argv({"-s", kSerial, "logcat", "-v", "time", "-v", "uid", "-T", "1"});

std::string click_success() {
  return R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[{"id":"a1",)"
         R"("actionType":"click","success":true,"data":{}}],"error":null})";
}

struct Harness {
  ScriptedRunner runner;
  testing::TemporaryDirectory state{"exec-state"};
  exec::ExecutionRequest request;

  explicit Harness(const std::string& actions = kClickActions, process::CancelToken token = {})
      : runner(std::move(token)) {
    request.execution = execution_of(actions);
    request.device = kSerial;
    request.operator_package = kPackage;
    request.adb.executable = "adb";
    request.state = test::private_state(state.path());
    request.result_timeout = 1500ms;
    request.probe_command_id = "probe-1";
    // Interactive readiness is covered by its own tests.
    readiness().store();
    // The line a reader silent past the attach fallback is proven by (exec::attach_reader).
    runner
        .on_run(test::marked_shell("log -t Clawperator attach"),
                ScriptedRunner::exited(0, "clawperator-exit:0\n"))
        .repeatedly();
  }

  const io::StateDirectory* state_dir() const { return request.state.directory.get(); }
  exec::ReadinessCache readiness() const {
    return exec::ReadinessCache(state_dir(), "device-tcp%3Aloopback%3A5037+emulator-5554.lock");
  }

  // A healthy device up to dispatch; the logcat reader says `script`.
  void healthy(std::vector<process::ScriptedEvent> script) {
    runner.on_run(kPmList, ScriptedRunner::exited(0,
                                                  "package:com.clawperator.operator\n"
                                                  "clawperator-exit:0\n"));
    runner.on_start(kLogcat, std::move(script));
  }

  // A healthy device that answers the readiness probe (awake, unlocked), then the click.
  void probed_then_clicked() {
    healthy({ScriptedRunner::out_chunk("x\n"),
             ScriptedRunner::out_chunk(probe_answer("probe-1", "true", "false"), 30ms),
             ScriptedRunner::out_chunk(result_line(click_success()), 60ms)});
    runner.on_run(is_broadcast(), "broadcast", acknowledged()).times(2);
  }

  exec::ExecutionReport run() { return exec::run_execution(request, runner); }
};

// Whether a run that `matches` accepts has begun (it is in flight when scripted to take a
// while), or has answered (the execution went past it).
bool run_began(const ScriptedRunner& runner, const ScriptedRunner::Matcher& matches) {
  for (const ScriptedRunner::Call& call : runner.calls()) {
    if (call.kind == ScriptedRunner::CallKind::Run && matches(call.argv)) return true;
  }
  return false;
}
bool run_answered(const ScriptedRunner& runner, const ScriptedRunner::Matcher& matches) {
  for (const ScriptedRunner::Call& call : runner.calls()) {
    if (call.kind == ScriptedRunner::CallKind::Run && call.returned && matches(call.argv)) {
      return true;
    }
  }
  return false;
}

// Whether the broadcast has answered: the execution is waiting for its result.
bool waiting_for_result(const ScriptedRunner& runner) {
  return run_answered(runner, is_broadcast());
}

void expect_error(const exec::ExecutionReport& report, const std::string& code, int exit_code,
                  const std::string& delivery, const std::string& retry) {
  INFO(report.document.dump(2));
  CHECK(report.document["ok"] == false);
  CHECK(report.document["code"] == code);
  CHECK(report.exit_code == exit_code);
  CHECK(report.document["disposition"]["delivery"] == delivery);
  CHECK(report.document["disposition"]["retry"] == retry);
}

}  // namespace

TEST_CASE("a single-line result makes a successful exec", "[exec][pipeline]") {
  Harness harness;
  harness.healthy({ScriptedRunner::out_chunk("--------- beginning of main\n"),
                   ScriptedRunner::out_chunk(result_line(click_success()), 50ms)});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 0);
  const Json& doc = report.document;
  CHECK(doc["ok"] == true);
  CHECK(doc["envelope"]["status"] == "success");
  CHECK(doc["deviceId"] == kSerial);
  CHECK(doc["terminalSource"] == "clawperator_result");
  CHECK(doc["isCanonicalTerminal"] == true);
  CHECK(doc["disposition"]["delivery"] == "delivered_verified");
  CHECK(doc["disposition"]["retry"] == "unsafe");
  CHECK(doc["timing"]["totalMs"].is_number());
  // An explicit serial needs no `adb devices`: pm list, logcat, broadcast.
  CHECK(harness.runner.calls().size() == 3);
  CHECK(harness.runner.unexpected_calls().empty());
}

TEST_CASE("the broadcast carries the payload as one quoted device-shell word", "[exec][pipeline]") {
  Harness harness(R"([{"id":"t","type":"enter_text","params":{"matcher":{"resourceId":"f"},)"
                  R"("text":"it's $HOME `x` \"q\""}}])");
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  harness.request.result_timeout = 200ms;
  harness.run();
  const auto calls = harness.runner.calls();
  const auto broadcast = std::find_if(calls.begin(), calls.end(), [](const auto& call) {
    return call.argv.size() == 5 && call.argv[4].rfind("am broadcast", 0) == 0;
  });
  REQUIRE(broadcast != calls.end());
  const std::string& command = broadcast->argv[4];
  CHECK(command.rfind("am broadcast -a 'app.clawperator.operator.ACTION_AGENT_COMMAND' -p "
                      "'com.clawperator.operator' --es 'payload' '{",
                      0) == 0);
  CHECK(command.find(R"(it'"'"'s $HOME `x` \"q\")") != std::string::npos);
  CHECK(command.size() > 20);
  CHECK(command.substr(command.size() - 23) == "' --receiver-foreground");
}

TEST_CASE("a chunked result in random pieces among other logs", "[exec][pipeline][chunks]") {
  const std::string envelope = transport::test::big_envelope_json(kCommandId, kTaskId, 20000);
  const std::string canonical = "[Clawperator-Result] " + envelope;
  std::string stream;
  std::size_t i = 0;
  for (const std::string& message :
       transport::test::chunk_messages(canonical, kCommandId, kTaskId)) {
    stream += transport::test::time_line("Clawperator", message) + "\n";
    if (i++ % 3 == 0)
      stream += transport::test::time_line("OtherApp", "noise " + message.substr(0, 40)) + "\n";
    // Another command's valid chunk interleaved.
    if (i == 4) {
      stream += transport::test::time_line(
                    "Clawperator",
                    transport::test::chunk_messages("[Clawperator-Result] {}", "other", "t")[0]) +
                "\n";
    }
  }
  for (const unsigned seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    Harness harness(kSnapshotActions);
    std::vector<process::ScriptedEvent> script = {ScriptedRunner::out_chunk("attached\n")};
    bool first = true;
    for (const std::string_view piece : transport::test::random_pieces(stream, seed, 700)) {
      script.push_back(ScriptedRunner::out_chunk(std::string(piece), first ? 30ms : 0ms));
      first = false;
    }
    harness.healthy(std::move(script));
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump().substr(0, 2000));
    REQUIRE(report.exit_code == 0);
    CHECK(report.document["envelope"]["stepResults"].size() ==
          Json::parse(envelope)["stepResults"].size());
    CHECK(report.document["disposition"]["retry"] == "safe");
  }
}

TEST_CASE("device resolution outcomes", "[exec][pipeline][devices]") {
  SECTION("no device given and none connected") {
    Harness harness;
    harness.request.device.reset();
    harness.runner.on_run(adb_argv({"devices", "-l"}),
                          ScriptedRunner::exited(0, "List of devices attached\n\n"));
    const auto report = harness.run();
    expect_error(report, "NO_DEVICES", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["phase"] == "readiness");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
    CHECK(report.document["recovery"]["strategy"] == "select_device_then_retry_original");
  }
  SECTION("two devices and none chosen") {
    Harness harness;
    harness.request.device.reset();
    harness.runner.on_run(adb_argv({"devices", "-l"}),
                          ScriptedRunner::exited(0,
                                                 "List of devices attached\n"
                                                 "a device model:A\nb device model:B\n"));
    const auto report = harness.run();
    expect_error(report, "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["candidates"].size() == 2);
  }
  SECTION("the single device is picked") {
    Harness harness;
    harness.request.device.reset();
    harness.runner.on_run(
        adb_argv({"devices", "-l"}),
        ScriptedRunner::exited(0, "List of devices attached\n" + kSerial + " device model:X\n"));
    harness.healthy({ScriptedRunner::out_chunk("--------- beginning of main\n"),
                     ScriptedRunner::out_chunk(result_line(click_success()), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    REQUIRE(report.exit_code == 0);
    CHECK(report.document["deviceId"] == kSerial);
  }
  struct AdbFailure {
    const char* stderr_text;
    const char* code;
  };
  for (const AdbFailure& failure :
       {AdbFailure{"error: device 'emulator-5554' not found", "DEVICE_NOT_FOUND"},
        AdbFailure{"error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set",
                   "DEVICE_UNAUTHORIZED"},
        AdbFailure{"error: device offline", "DEVICE_OFFLINE"},
        AdbFailure{"* failed to start daemon\nerror: cannot connect to daemon",
                   "ADB_SERVER_FAILED"}}) {
    DYNAMIC_SECTION("an explicit device that adb refuses: " << failure.code) {
      Harness harness;
      harness.runner.on_run(kPmList, ScriptedRunner::exited(1, "", failure.stderr_text));
      harness.runner.on_start(kLogcat, {ScriptedRunner::err_chunk("- waiting for device -\n")});
      const auto report = harness.run();
      expect_error(report, failure.code, 3, "not_delivered", "safe");
      CHECK(report.document["details"]["deviceId"] == kSerial);
      CHECK(report.document["details"]["commandId"] == kCommandId);
    }
  }
  SECTION("adb is missing") {
    Harness harness;
    harness.request.adb.executable = "/nonexistent/adb";
    harness.runner.on_spawn_failure({"/nonexistent/adb"}, ENOENT);
    const auto report = harness.run();
    expect_error(report, "ADB_NOT_FOUND", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["adbPath"] == "/nonexistent/adb");
    CHECK(report.document["recovery"]["strategy"] == "repair_environment_then_retry_original");
  }
}

TEST_CASE("preflight outcomes", "[exec][pipeline][preflight]") {
  SECTION("the Operator is not installed") {
    Harness harness;
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, "clawperator-exit:0\n"));
    harness.runner.on_start(kLogcat, {});
    const auto report = harness.run();
    expect_error(report, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["installCommand"] ==
          "clawperator operator install --device " + kSerial);
  }
  SECTION("the other variant is installed") {
    Harness harness;
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0,
                                                          "package:com.clawperator.operator.dev"
                                                          "\nclawperator-exit:0\n"));
    harness.runner.on_start(kLogcat, {});
    const auto report = harness.run();
    expect_error(report, "OPERATOR_VARIANT_MISMATCH", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["installedPackage"] == "com.clawperator.operator.dev");
    CHECK(report.document["details"].contains("fix"));
  }
  SECTION("the package query fails: never 'not installed'") {
    Harness harness;
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0,
                                                          "Error: could not access the Package "
                                                          "Manager\nclawperator-exit:255\n"));
    harness.runner.on_start(kLogcat, {});
    expect_error(harness.run(), "DEVICE_SHELL_UNAVAILABLE", 3, "not_delivered", "safe");
  }
  SECTION("the shell stream is cut (exit 0, no output)") {
    Harness harness;
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, ""));
    harness.runner.on_start(kLogcat, {});
    expect_error(harness.run(), "DEVICE_SHELL_UNAVAILABLE", 3, "not_delivered", "safe");
  }
  SECTION("a close_app force-stop, then a failed one, keeps earlier effects") {
    Harness harness(R"([{"id":"c1","type":"close_app","params":{"applicationId":"com.a"}},)"
                    R"({"id":"c2","type":"close_app","params":{"applicationId":"com.b"}}])");
    harness.healthy({});
    harness.runner.on_run(device_shell("am force-stop 'com.a'; echo clawperator-exit:$?"),
                          ScriptedRunner::exited(0, "clawperator-exit:0\n"));
    harness.runner.on_run(device_shell("am force-stop 'com.b'; echo clawperator-exit:$?"),
                          ScriptedRunner::exited(0, "clawperator-exit:1\n"));
    const auto report = harness.run();
    expect_error(report, "DEVICE_SHELL_UNAVAILABLE", 3, "not_delivered", "safe");
    CHECK(report.document["message"] ==
          "close_app pre-flight force-stop for com.b failed on the device (exit 1)");
    REQUIRE(report.document["details"]["earlierEffects"].size() == 1);
    CHECK(report.document["details"]["earlierEffects"][0]["actionId"] == "c1");
    CHECK(report.document["details"]["earlierEffects"][0]["effect"] == "force_stop");
  }
  SECTION("another process holds the device") {
    Harness harness;
    exec::DeviceLock holder;
    REQUIRE(holder.acquire(harness.request.state.directory, "tcp%3Aloopback%3A5037+" + kSerial,
                           0ms) == exec::DeviceLock::Outcome::Acquired);
    const auto report = harness.run();
    expect_error(report, "EXECUTION_CONFLICT_IN_FLIGHT", 3, "not_delivered", "safe");
    CHECK(report.document["recovery"]["strategy"] == "wait_then_retry_original");
    CHECK(report.document["recovery"]["retryAfterMs"] == 1000);
    CHECK(harness.runner.calls().empty());
  }
}

TEST_CASE("broadcast outcomes", "[exec][pipeline][dispatch]") {
  SECTION("refused: the package does not exist") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast",
                          ScriptedRunner::exited(255, "", "Error: Target package not found"));
    const auto report = harness.run();
    expect_error(report, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["phase"] == "dispatch");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
  }
  SECTION("uncertain: adb exits 0 without the acknowledgement") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", ScriptedRunner::exited(0, ""));
    const auto report = harness.run();
    expect_error(report, "BROADCAST_FAILED", 4, "delivery_uncertain", "unsafe");
    CHECK(report.document["details"]["dispatchState"] == "unknown");
    CHECK_FALSE(report.document.contains("recovery"));
  }
  SECTION("uncertain but read-only: safe to repeat") {
    Harness harness(kSnapshotActions);
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", ScriptedRunner::exited(1, "", "boom"));
    expect_error(harness.run(), "BROADCAST_FAILED", 4, "delivery_uncertain", "safe");
  }
  SECTION("the device went offline before the broadcast was sent") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast",
                          ScriptedRunner::exited(1, "", "error: device offline"));
    expect_error(harness.run(), "DEVICE_OFFLINE", 3, "not_delivered", "safe");
  }
}

TEST_CASE("result-wait outcomes", "[exec][pipeline][wait]") {
  SECTION("timeout after an acknowledged broadcast") {
    Harness harness;
    harness.request.result_timeout = 300ms;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    expect_error(report, "RESULT_ENVELOPE_TIMEOUT", 4, "delivered_unverified", "unsafe");
    const Json& details = report.document["details"];
    CHECK(details["phase"] == "result_wait");
    CHECK(details["dispatchState"] == "dispatched");
    CHECK(details["lastActionId"] == "a1");
    CHECK(details["executionPosition"] == "unknown");
    CHECK(details["reader"]["events"].size() <= 32);
    CHECK(report.document.contains("hint"));
  }
  SECTION("a malformed envelope for our command") {
    Harness harness;
    harness.healthy(
        {ScriptedRunner::out_chunk("attached\n"),
         ScriptedRunner::out_chunk(
             result_line(R"({"commandId":"cmd-1","taskId":"task-1","status":"ok"})"), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    expect_error(harness.run(), "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "unsafe");
  }
  SECTION("a chunk sequence with a gap") {
    const std::string canonical =
        "[Clawperator-Result] " + transport::test::big_envelope_json(kCommandId, kTaskId, 5000);
    auto messages = transport::test::chunk_messages(canonical, kCommandId, kTaskId);
    std::string stream;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (i != 1) stream += transport::test::time_line("C", messages[i]) + "\n";
    }
    Harness harness;
    harness.healthy(
        {ScriptedRunner::out_chunk("attached\n"), ScriptedRunner::out_chunk(stream, 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    // Raised in post-processing: the catalog's exit for that phase, delivered (docs/contract.md).
    CHECK(report.document["code"] == "RESULT_ENVELOPE_MALFORMED");
    CHECK(report.exit_code != 0);
    CHECK(report.document["disposition"]["delivery"] != "not_delivered");
    const Json& transport = report.document["details"]["transport"];
    CHECK(transport["receivedChunks"] == 1);
    CHECK(transport["failure"].get<std::string>().rfind("index out of order", 0) == 0);
  }
  SECTION("the reader exits before dispatch") {
    Harness harness;
    harness.healthy(
        {ScriptedRunner::err_chunk("error: device offline\n"), ScriptedRunner::exit_event(1)});
    const auto report = harness.run();
    expect_error(report, "DEVICE_OFFLINE", 3, "not_delivered", "safe");
    for (const auto& call : harness.runner.calls()) {
      CHECK(call.argv.back().rfind("am broadcast", 0) != 0);
    }
  }
  SECTION("the reader exits after dispatch") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n"), ScriptedRunner::exit_event(0, 60ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    expect_error(report, "RESULT_TRANSPORT_EXITED", 4, "delivered_unverified", "unsafe");
    CHECK(report.document["details"]["exitCode"] == 0);
  }
  SECTION("the reader exits right after a complete result: the result wins") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(click_success()), 40ms),
                     ScriptedRunner::exit_event(0)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    CHECK(harness.run().exit_code == 0);
  }
  SECTION("an unterminated result line written just before exit still counts") {
    std::string line = result_line(click_success());
    line.pop_back();
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n"), ScriptedRunner::out_chunk(line, 40ms),
                     ScriptedRunner::exit_event(0)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    CHECK(harness.run().exit_code == 0);
  }
}

TEST_CASE("a failed step is exit 1 with its disposition", "[exec][pipeline]") {
  Harness harness;
  harness.healthy(
      {ScriptedRunner::out_chunk("attached\n"),
       ScriptedRunner::out_chunk(
           result_line(R"({"commandId":"cmd-1","taskId":"task-1","status":"failed","stepResults":)"
                       R"([{"id":"a1","actionType":"click","success":false,"data":{"error":)"
                       R"("NODE_NOT_FOUND","message":"No matching node"}}],"error":"x"})"),
           30ms)});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 1);
  CHECK(report.document["ok"] == false);
  CHECK(report.document["envelope"]["error"] == "Step a1 (click) failed: NODE_NOT_FOUND");
  CHECK(report.document["disposition"]["delivery"] == "not_delivered");
  CHECK(report.document["disposition"]["retry"] == "safe");
}

TEST_CASE("interactive readiness probe", "[exec][pipeline][readiness]") {
  SECTION("an awake, unlocked device passes and is cached") {
    Harness harness;
    harness.readiness().invalidate();
    harness.probed_then_clicked();
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 0);
    CHECK(harness.readiness().fresh());
  }
  SECTION("a locked device is not interactive") {
    Harness harness;
    harness.readiness().invalidate();
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(probe_answer("probe-1", "true", "true"), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    expect_error(report, "DEVICE_NOT_INTERACTIVE", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["probeCommandId"] == "probe-1");
    CHECK(report.document["details"]["probeDispatchState"] == "dispatched");
    CHECK(report.document["details"]["commandId"] == kCommandId);
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
  }
  SECTION("a probe without an answer keeps its timeout code, before dispatch") {
    Harness harness;
    harness.readiness().invalidate();
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    // The probe waits 7 s by design; this test accepts that cost once.
    const auto report = harness.run();
    expect_error(report, "RESULT_ENVELOPE_TIMEOUT", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["phase"] == "readiness");
  }
}

TEST_CASE("the state directory of a run", "[exec][pipeline][state-dir]") {
  SECTION("a named directory that is unsafe stops the run before any adb call") {
    Harness harness;
    harness.request.state = {};
    harness.request.state.refused = io::DirectoryError{"/srv/state", "owner uid 65534"};
    const auto report = harness.run();
    expect_error(report, "STATE_DIRECTORY_UNSAFE", 3, "not_delivered", "safe");
    CHECK(report.document["recovery"]["strategy"] == "repair_environment_then_retry_original");
    CHECK(report.document["details"]["stateDir"] == "/srv/state");
    CHECK(report.document["details"]["problem"] == "owner uid 65534");
    CHECK(report.document["details"]["phase"] == "readiness");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
    CHECK(report.document["details"]["commandId"] == kCommandId);
    CHECK(harness.runner.calls().empty());
  }
  SECTION("none: no lock, no cache, so the probe runs; the execution succeeds") {
    Harness harness;
    harness.request.state = {};
    harness.probed_then_clicked();
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 0);
    CHECK(harness.runner.unexpected_calls().empty());
  }
}

TEST_CASE("a reader whose output was held open after its exit", "[exec][pipeline]") {
  Harness harness;
  process::ScriptedEvent held = ScriptedRunner::exit_event(0, 100ms);
  held.event.drain_incomplete = true;
  harness.healthy({ScriptedRunner::out_chunk("x\n"), held});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  const auto report = harness.run();
  expect_error(report, "RESULT_TRANSPORT_EXITED", 4, "delivered_unverified", "unsafe");
  CHECK(report.document["details"]["outputDrainIncomplete"] == true);
  CHECK(report.document["details"]["exitCode"] == 0);
}

TEST_CASE("cancellation", "[exec][pipeline][signals]") {
  process::install_interrupt_handlers();
  SECTION("during the result wait: exit 130 after dispatch") {
    process::reset_interrupt_for_tests();
    Harness harness;
    harness.request.result_timeout = 5000ms;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    std::atomic<bool> dispatched{false};
    std::thread interrupter([&] {
      dispatched = testing::wait_until([&] { return waiting_for_result(harness.runner); }, 10s);
      std::raise(SIGINT);
    });
    const auto report = harness.run();
    interrupter.join();
    REQUIRE(dispatched);
    expect_error(report, "RESULT_TRANSPORT_CANCELLED", 130, "delivered_unverified", "unsafe");
    CHECK(report.document["details"]["dispatchState"] == "dispatched");
  }
  SECTION("before dispatch: exit 143 and nothing sent") {
    process::reset_interrupt_for_tests();
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, "")).after(2000ms);
    std::raise(SIGTERM);
    const auto report = harness.run();
    CHECK(report.exit_code == 143);
    CHECK(report.document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(report.document["disposition"]["delivery"] == "not_delivered");
  }
  SECTION("during post-processing: the received envelope is kept, exit 130") {
    process::reset_interrupt_for_tests();
    Harness harness(R"([{"id":"shot","type":"take_screenshot","params":{"path":")" +
                    (harness_dir() / "shot.png").string() + R"("}}])");
    const std::string result =
        R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[)"
        R"({"id":"shot","actionType":"take_screenshot","success":true,"data":{}}],"error":null})";
    harness.healthy(
        {ScriptedRunner::out_chunk("x\n"), ScriptedRunner::out_chunk(result_line(result), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const Argv screencap = adb_argv({"-s", kSerial, "exec-out", "screencap", "-p"});
    harness.runner.on_run(screencap, ScriptedRunner::exited(0, "\x89PNG\r\n\x1a\nimage"))
        .after(3000ms);
    std::atomic<bool> capturing{false};
    std::thread interrupter([&] {
      capturing = testing::wait_until(
          [&] {
            return run_began(harness.runner, [&](const Argv& argv) { return argv == screencap; });
          },
          10s);
      std::raise(SIGINT);
    });
    const auto report = harness.run();
    interrupter.join();
    REQUIRE(capturing);
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 130);
    CHECK(report.document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(report.document["details"]["phase"] == "post_processing");
    CHECK(report.document["details"]["dispatchState"] == "dispatched");
    CHECK(report.document["details"]["envelope"]["stepResults"][0]["id"] == "shot");
    CHECK(report.document["disposition"]["delivery"] == "delivered_verified");
    // No screenshot file, not even a partial one.
    CHECK_FALSE(std::filesystem::exists(harness_dir() / "shot.png"));
    CHECK(std::filesystem::is_empty(harness_dir()));
  }
  process::reset_interrupt_for_tests();
}

TEST_CASE("one execution cancelled through its runner's token", "[exec][pipeline][cancel]") {
  process::reset_interrupt_for_tests();
  SECTION("during the result wait: cancelled after dispatch, no signal exit") {
    process::CancelSource source;
    Harness harness(kClickActions, source.token());
    harness.request.result_timeout = 5000ms;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    std::atomic<bool> dispatched{false};
    std::thread canceller([&] {
      dispatched = testing::wait_until([&] { return waiting_for_result(harness.runner); }, 10s);
      source.cancel();
    });
    const auto started = std::chrono::steady_clock::now();
    const auto report = harness.run();
    canceller.join();
    REQUIRE(dispatched);
    CHECK(std::chrono::steady_clock::now() - started < 3000ms);
    // Exit 4 like other unverified outcomes: no signal was involved.
    expect_error(report, "RESULT_TRANSPORT_CANCELLED", 4, "delivered_unverified", "unsafe");
    CHECK(report.document["details"]["dispatchState"] == "dispatched");
    CHECK(process::interrupted_signal() == 0);
  }
  SECTION("before dispatch: not delivered, nothing sent") {
    process::CancelSource source;
    Harness harness(kClickActions, source.token());
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    source.cancel();
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(report.document["disposition"]["delivery"] == "not_delivered");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
    for (const auto& call : harness.runner.calls()) {
      CHECK(call.result != ScriptedRunner::CallResult::Matched);
    }
  }
}

namespace {

// About `length` bytes of payload: sleep actions with long ids.
std::string long_text_actions(std::size_t length) {
  std::string actions = "[";
  for (std::size_t i = 0; actions.size() < length; ++i) {
    if (i > 0) actions += ",";
    actions += R"({"id":"s)" + std::to_string(i) + std::string(100, 'x') +
               R"(","type":"sleep","params":{"durationMs":1}})";
  }
  return actions + "]";
}

bool is_push(const Argv& argv) {
  return argv.size() == 6 && argv[3] == "push";
}

}  // namespace

TEST_CASE("a payload too long for a 4 KiB packet is pushed, then read by the broadcast",
          "[exec][pipeline][push]") {
  Harness harness(long_text_actions(5000));
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  std::string pushed_text;
  std::string local_path;
  bool private_file = false;
  harness.runner.on_run(
      [&](const Argv& argv) {
        if (!is_push(argv)) return false;
        local_path = argv[4];
        pushed_text = test::file_text(local_path);
        private_file =
            (std::filesystem::status(local_path).permissions() & std::filesystem::perms::all) ==
            (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        return true;
      },
      "push", ScriptedRunner::exited(0, "1 file pushed, 0 skipped.\n"));
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  harness.request.result_timeout = 200ms;
  const auto report = harness.run();
  // The Operator does not answer here: the point is what was sent (sleep only reads).
  expect_error(report, "RESULT_ENVELOPE_TIMEOUT", 4, "delivered_unverified", "safe");
  CHECK(harness.runner.unexpected_calls().empty());
  CHECK(pushed_text == dump_json(contract::to_device_json(harness.request.execution)));
  CHECK(private_file);
  CHECK(local_path.rfind(harness.state.path().string(), 0) == 0);
  CHECK_FALSE(std::filesystem::exists(local_path));  // removed once pushed
  const auto calls = harness.runner.calls();
  const auto push =
      std::find_if(calls.begin(), calls.end(), [](const auto& call) { return is_push(call.argv); });
  REQUIRE(push != calls.end());
  const std::string device_path = push->argv[5];
  CHECK(device_path.rfind("/data/local/tmp/clawperator-payload-", 0) == 0);
  const auto broadcast = std::find_if(calls.begin(), calls.end(), [](const auto& call) {
    return call.argv.size() == 5 && call.argv[4].rfind("am broadcast", 0) == 0;
  });
  REQUIRE(broadcast != calls.end());
  CHECK(broadcast->argv[4] ==
        "am broadcast -a 'app.clawperator.operator.ACTION_AGENT_COMMAND' -p "
        "'com.clawperator.operator' --es 'payload' \"$(cat '" +
            device_path + "')\" --receiver-foreground; s=$?; rm -f '" + device_path + "'; exit $s");
  CHECK(broadcast->argv[4].size() < 400);
}

TEST_CASE("a pushed payload's local file lives in the state directory; a killed run's goes",
          "[exec][pipeline][push]") {
  Harness harness(long_text_actions(5000));
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  const std::filesystem::path left =
      harness.state_dir()->path() / "clawperator-payload-killed.json";
  std::ofstream(left) << "{}";
  std::filesystem::last_write_time(
      left, std::filesystem::file_time_type::clock::now() - std::chrono::minutes(30));
  const std::filesystem::path running =
      harness.state_dir()->path() / "clawperator-payload-running.json";
  std::ofstream(running) << "{}";
  harness.runner.on_run([](const Argv& argv) { return is_push(argv); }, "push",
                        ScriptedRunner::exited(0));
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  harness.request.result_timeout = 200ms;
  harness.run();
  CHECK_FALSE(std::filesystem::exists(left));
  CHECK(std::filesystem::exists(running));  // a run's file of minutes ago is not touched
}

TEST_CASE("a short payload still goes inline, with no push", "[exec][pipeline][push]") {
  Harness harness(long_text_actions(2500));
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  harness.request.result_timeout = 200ms;
  harness.run();
  CHECK(harness.runner.unexpected_calls().empty());
  for (const auto& call : harness.runner.calls()) CHECK_FALSE(is_push(call.argv));
}

TEST_CASE("a failed push is not a delivery: nothing is broadcast", "[exec][pipeline][push]") {
  Harness harness(long_text_actions(5000));
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  std::string local_path;
  harness.runner.on_run(
      [&](const Argv& argv) {
        if (!is_push(argv)) return false;
        local_path = argv[4];
        return true;
      },
      "push",
      ScriptedRunner::exited(1, "",
                             "adb: error: failed to copy 'x' to "
                             "'/data/local/tmp/clawperator-payload-y.json': remote couldn't "
                             "create file: No space left on device\n"));
  harness.runner.on_run(
      [](const Argv& argv) {
        return argv.size() == 5 &&
               argv[4].rfind("rm -f '/data/local/tmp/clawperator-payload-", 0) == 0;
      },
      "rm", ScriptedRunner::exited(0));
  const auto report = harness.run();
  expect_error(report, "BROADCAST_FAILED", 3, "not_delivered", "safe");
  const Json& details = report.document["details"];
  CHECK(details["dispatchState"] == "not_dispatched");
  CHECK(details["phase"] == "dispatch");
  CHECK(details["payloadRoute"] == "push");
  CHECK(details["stderr"].get<std::string>().find("No space left on device") != std::string::npos);
  CHECK(report.document["message"].get<std::string>().rfind("adb push of the payload failed", 0) ==
        0);
  CHECK(harness.runner.unexpected_calls().empty());
  for (const auto& call : harness.runner.calls()) {
    CHECK_FALSE((call.argv.size() == 5 && call.argv[4].rfind("am broadcast", 0) == 0));
  }
  CHECK_FALSE(std::filesystem::exists(local_path));
}
TEST_CASE("query_ui: data.query is returned parsed, or the result is malformed",
          "[exec][pipeline][query]") {
  const char* kQueryActions = R"([{"id":"q","type":"query_ui","params":{"limit":5}}])";
  auto result_with = [](const std::string& query) {
    return R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[)"
           R"({"id":"q","actionType":"query_ui","success":true,"data":{"query":)" +
           Json(query).dump() + R"(}}],"error":null})";
  };
  const std::string good =
      R"({"schemaVersion":1,"snapshotId":"s","capturedAt":"2026-01-01T00:00:00Z",)"
      R"("totalMatches":3,"returnedCount":1,"truncated":true,"nodes":[{"nodePath":"0"}]})";
  SECTION("a consistent result") {
    Harness harness(kQueryActions);
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(result_with(good)), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    REQUIRE(report.exit_code == 0);
    CHECK(report.document["query"] == Json::parse(good));
    CHECK(report.document["envelope"]["stepResults"][0]["data"]["query"] == good);
    CHECK(report.document["disposition"]["retry"] == "safe");
  }
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"not json", "data.query is not valid JSON"},
      {R"({"schemaVersion":2,"totalMatches":0,"returnedCount":0,"truncated":false,"nodes":[]})",
       "data.query.schemaVersion is not 1"},
      {R"({"schemaVersion":1,"totalMatches":1,"returnedCount":2,"truncated":false,)"
       R"("nodes":[{},{}]})",
       "data.query.returnedCount exceeds totalMatches"},
      {R"({"schemaVersion":1,"totalMatches":2,"returnedCount":2,"truncated":false,"nodes":[{}]})",
       "data.query.returnedCount differs from its nodes"},
      {R"({"schemaVersion":1,"totalMatches":3,"returnedCount":1,"truncated":false,)"
       R"("nodes":[{}]})",
       "data.query.truncated disagrees with its counts"},
      {R"({"schemaVersion":1,"totalMatches":-1,"returnedCount":0,"truncated":false,)"
       R"("nodes":[]})",
       "data.query counts are not non-negative integers"},
  };
  for (const auto& [query, reason] : bad) {
    CAPTURE(query);
    Harness harness(kQueryActions);
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(result_with(query)), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    // A result that cannot be read back: outcome unknown (exit 4), and a query only reads.
    expect_error(report, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "safe");
    CHECK(report.document["details"]["reason"] == reason);
    CHECK(report.document["details"]["phase"] == "result_wait");
    CHECK(report.document["details"]["dispatchState"] == "dispatched");
    CHECK(report.document["details"]["envelope"]["stepResults"][0]["data"]["query"] == query);
  }
}

TEST_CASE("a mutation whose data.payload does not decode is not reported as verified",
          "[exec][pipeline][payload]") {
  const char* kDismiss =
      R"([{"id":"d","type":"dismiss_notification","params":{"notificationKey":"k1"}}])";
  auto result_with = [](const std::string& payload) {
    return R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[)"
           R"({"id":"d","actionType":"dismiss_notification","success":true,"data":{"payload":)" +
           Json(payload).dump() + R"(}}],"error":null})";
  };
  for (const auto& [payload, path] : std::vector<std::pair<std::string, std::string>>{
           {"{not json", ""},
           {"[1]", ""},
           {R"({"schemaVersion":2})", "observedElapsedMs"},
       }) {
    CAPTURE(payload);
    Harness harness(kDismiss);
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(result_with(payload)), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    // The Operator says it dismissed; the evidence that would show it cannot be read: the
    // dismissal may or may not have happened, and sending it again is not known to be safe.
    expect_error(report, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "unsafe");
    const Json& details = report.document["details"];
    CHECK(details["phase"] == "result_wait");
    CHECK(details["stepId"] == "d");
    CHECK(details["actionType"] == "dismiss_notification");
    CHECK(details["payloadPath"] == path);
    CHECK(details["envelope"]["stepResults"][0]["data"]["payload"] == payload);
    CHECK(details["envelope"]["status"] == "success");
    CHECK_FALSE(report.document.contains("recovery"));
    CHECK(harness.runner.unexpected_calls().empty());
  }
}

TEST_CASE("drag below API 26 is refused in preflight, before the broadcast",
          "[exec][pipeline][gesture]") {
  const char* kDrag =
      R"([{"id":"d","type":"drag","params":{"start":{"x":1,"y":2},"end":{"x":3,"y":4},)"
      R"("holdDurationMs":5,"moveDurationMs":5}}])";
  const Argv kGetprop = device_shell("getprop ro.build.version.sdk; echo clawperator-exit:$?");
  SECTION("API 25: GESTURE_UNSUPPORTED, nothing sent") {
    Harness harness(kDrag);
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(kGetprop, ScriptedRunner::exited(0, "25\nclawperator-exit:0\n"));
    const auto report = harness.run();
    expect_error(report, "GESTURE_UNSUPPORTED", 1, "not_delivered", "safe");
    CHECK(report.document["details"]["phase"] == "readiness");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
    CHECK(report.document["details"]["sdkInt"] == 25);
    CHECK(report.document["details"]["minSdk"] == 26);
    CHECK(report.document["details"]["actionId"] == "d");
    for (const auto& call : harness.runner.calls()) {
      CHECK(call.argv.back().find("am broadcast") == std::string::npos);
    }
    CHECK(harness.runner.unexpected_calls().empty());
  }
  SECTION("API 26: sent") {
    Harness harness(kDrag);
    const std::string result =
        R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[)"
        R"({"id":"d","actionType":"drag","success":true,"data":{}}],"error":null})";
    harness.healthy(
        {ScriptedRunner::out_chunk("x\n"), ScriptedRunner::out_chunk(result_line(result), 30ms)});
    harness.runner.on_run(kGetprop, ScriptedRunner::exited(0, "26\nclawperator-exit:0\n"));
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 0);
  }
  SECTION("no drag, no getprop") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(click_success()), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    CHECK(harness.run().exit_code == 0);
    CHECK(harness.runner.calls().size() == 3);
  }
}

namespace {

std::string click_success_of(const std::string& command_id) {
  std::string result = click_success();
  result.replace(result.find(kCommandId), kCommandId.size(), command_id);
  return result;
}

const process::Completion kOperatorListed =
    ScriptedRunner::exited(0, "package:com.clawperator.operator\nclawperator-exit:0\n");

// A harness whose executions share one pool of warm readers, as an MCP session's do.
struct WarmHarness : Harness {
  exec::WarmFollowers warm;
  WarmHarness() { request.warm_followers = &warm; }
};

// One reader for two executions: the second result comes well after the first execution
// ended, so the idle drain (between them) must hand it over rather than eat it.
std::vector<process::ScriptedEvent> answers_both_clicks() {
  return {ScriptedRunner::out_chunk("x\n"),
          ScriptedRunner::out_chunk(result_line(click_success()), 30ms),
          ScriptedRunner::out_chunk(result_line(click_success_of("cmd-2")), 400ms)};
}

// The same click under another commandId: the next call of a session.
contract::Execution second_click() {
  contract::Execution execution = execution_of(kClickActions);
  execution.command_id = "cmd-2";
  return execution;
}

std::shared_ptr<const ScriptedRunner::StreamLog> first_reader(const ScriptedRunner& runner) {
  for (const auto& call : runner.calls()) {
    if (call.kind == ScriptedRunner::CallKind::Start) return call.stream;
  }
  return nullptr;
}

std::size_t logcat_starts(const ScriptedRunner& runner) {
  std::size_t starts = 0;
  for (const auto& call : runner.calls()) {
    if (call.kind == ScriptedRunner::CallKind::Start) ++starts;
  }
  return starts;
}

}  // namespace

TEST_CASE("a warm reader serves the device's next execution without a new logcat",
          "[exec][pipeline][warm]") {
  WarmHarness harness;
  exec::WarmFollowers& warm = harness.warm;
  harness.healthy(answers_both_clicks());
  harness.runner.on_run(kPmList, kOperatorListed);
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged()).times(2);
  const auto first = harness.run();
  INFO(first.document.dump(2));
  REQUIRE(first.exit_code == 0);
  CHECK(warm.reader_pids().size() == 1);
  const std::shared_ptr<const ScriptedRunner::StreamLog> stream = first_reader(harness.runner);
  REQUIRE(stream != nullptr);
  CHECK_FALSE(stream->terminated);

  harness.request.execution = second_click();
  const auto second = harness.run();
  INFO(second.document.dump(2));
  CHECK(second.exit_code == 0);
  CHECK(second.document["envelope"]["commandId"] == "cmd-2");
  // pm list at every execution (a removed Operator is never taken for installed), one reader.
  CHECK(harness.runner.call_count(kPmList) == 2);
  CHECK(logcat_starts(harness.runner) == 1);
  CHECK(harness.runner.unexpected_calls().empty());
  CHECK(warm.reader_pids().size() == 1);
}

TEST_CASE("a warm reader that exited while idle is replaced by a new one",
          "[exec][pipeline][warm]") {
  WarmHarness harness;
  // The first reader ends soon after its result (the device went away and came back).
  harness.healthy({ScriptedRunner::out_chunk("x\n"),
                   ScriptedRunner::out_chunk(result_line(click_success()), 30ms),
                   ScriptedRunner::exit_event(255, 20ms)});
  harness.runner.on_start(
      kLogcat, {ScriptedRunner::out_chunk("x\n"),
                ScriptedRunner::out_chunk(result_line(click_success_of("cmd-2")), 50ms)});
  harness.runner.on_run(kPmList, kOperatorListed);
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged()).times(2);
  REQUIRE(harness.run().exit_code == 0);
  // The idle drain sees the exit (20 ms after the result) before the next execution.
  const std::shared_ptr<const ScriptedRunner::StreamLog> first = first_reader(harness.runner);
  REQUIRE(first != nullptr);
  REQUIRE(testing::wait_until([&] { return first->exit_delivered.load(); }, 10s));
  harness.request.execution = second_click();
  const auto second = harness.run();
  INFO(second.document.dump(2));
  CHECK(second.exit_code == 0);
  CHECK(logcat_starts(harness.runner) == 2);
  CHECK(harness.runner.unexpected_calls().empty());
}

TEST_CASE("the pool stops every reader it keeps when it ends", "[exec][pipeline][warm]") {
  Harness harness;
  std::shared_ptr<const ScriptedRunner::StreamLog> stream;
  {
    exec::WarmFollowers warm;
    harness.request.warm_followers = &warm;
    harness.healthy({ScriptedRunner::out_chunk("x\n"),
                     ScriptedRunner::out_chunk(result_line(click_success()), 30ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    REQUIRE(harness.run().exit_code == 0);
    stream = first_reader(harness.runner);
    REQUIRE(stream != nullptr);
    CHECK_FALSE(stream->destroyed);
  }
  CHECK(stream->destroyed);
}

TEST_CASE("a cancelled execution does not keep its reader", "[exec][pipeline][warm]") {
  process::CancelSource cancel;
  Harness harness(kClickActions, cancel.token());
  exec::WarmFollowers warm;
  harness.request.warm_followers = &warm;
  harness.healthy({ScriptedRunner::out_chunk("x\n")});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  std::atomic<bool> dispatched{false};
  std::thread canceller([&] {
    dispatched = testing::wait_until([&] { return waiting_for_result(harness.runner); }, 10s);
    cancel.cancel();
  });
  const auto report = harness.run();
  canceller.join();
  REQUIRE(dispatched);
  CHECK(report.document["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(warm.reader_pids().empty());
}

TEST_CASE("after a warm reader's result, a removed Operator is reported at once, not timed out",
          "[exec][pipeline][warm]") {
  WarmHarness harness;
  // The second execution gets no result: the Operator is gone.
  harness.healthy({ScriptedRunner::out_chunk("x\n"),
                   ScriptedRunner::out_chunk(result_line(click_success()), 30ms)});
  harness.runner.on_run(kPmList, ScriptedRunner::exited(0, "clawperator-exit:0\n"));
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged()).times(2);
  REQUIRE(harness.run().exit_code == 0);

  harness.request.execution = second_click();
  harness.request.result_timeout = 5000ms;
  const auto started = std::chrono::steady_clock::now();
  const auto report = harness.run();
  const auto took = std::chrono::steady_clock::now() - started;
  expect_error(report, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe");
  CHECK(report.document["details"]["phase"] == "readiness");
  CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
  CHECK(report.document["details"]["presenceCheck"] == "beside_dispatch");
  // Well within the result timeout: the check's answer ended the wait.
  CHECK(took < 2000ms);
  CHECK(harness.runner.call_count(kPmList) == 2);
}

TEST_CASE("a presence check beside the dispatch that proves nothing lets the result decide",
          "[exec][pipeline][warm]") {
  WarmHarness harness;
  harness.healthy(answers_both_clicks());
  // The second listing fails (adb's shell went away), the Operator answers all the same.
  harness.runner.on_run(kPmList, kOperatorListed);
  harness.runner.on_run(kPmList, ScriptedRunner::exited(1, "", "error: closed\n"));
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged()).times(2);
  REQUIRE(harness.run().exit_code == 0);
  harness.request.execution = second_click();
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 0);
  CHECK(report.document["envelope"]["commandId"] == "cmd-2");
  CHECK(harness.runner.unexpected_calls().empty());
}

namespace {

using Clock = std::chrono::steady_clock;

// When the broadcast went out, measured from `start` (the matcher runs as the call is made).
struct BroadcastClock {
  Clock::time_point start = Clock::now();
  std::shared_ptr<std::optional<Clock::duration>> sent =
      std::make_shared<std::optional<Clock::duration>>();
  ScriptedRunner::Matcher matcher() const {
    return [start = start, sent = sent](const Argv& argv) {
      if (!is_broadcast()(argv)) return false;
      if (!*sent) *sent = Clock::now() - start;
      return true;
    };
  }
};

constexpr auto kSlowListing = 400ms;

// A device whose `pm list` takes kSlowListing and whose reader attaches at once, then brings
// the click's result: where the broadcast falls tells whether it waited for the listing.
void slow_listing_then_clicked(Harness& harness, const BroadcastClock& clock,
                               process::Completion listing = kOperatorListed) {
  harness.runner.on_run(kPmList, std::move(listing)).after(kSlowListing);
  harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk("x\n"),
                                    ScriptedRunner::out_chunk(result_line(click_success()), 60ms)});
  harness.runner.on_run(clock.matcher(), "broadcast", acknowledged());
}

}  // namespace

TEST_CASE(
    "a fresh readiness record naming this Operator puts the presence check beside the "
    "dispatch",
    "[exec][pipeline][warm][readiness]") {
  Harness harness;
  harness.readiness().store(kPackage);
  const BroadcastClock clock;
  slow_listing_then_clicked(harness, clock);
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 0);
  REQUIRE(clock.sent->has_value());
  // The broadcast went out while the listing was still running.
  CHECK(**clock.sent < kSlowListing / 2);
  CHECK(harness.runner.call_count(kPmList) == 1);
  CHECK(harness.runner.unexpected_calls().empty());
  // The record is not renewed by an execution: only a probe's answer writes it.
  CHECK(harness.readiness().fresh_answer() == std::optional<std::string>(kPackage));
}

TEST_CASE("without a fresh record naming this Operator the presence check comes first",
          "[exec][pipeline][warm][readiness]") {
  SECTION("a record naming none (as an older version writes it)") {
    Harness harness;
    harness.readiness().store("");
    const BroadcastClock clock;
    slow_listing_then_clicked(harness, clock);
    CHECK(harness.run().exit_code == 0);
    REQUIRE(clock.sent->has_value());
    CHECK(**clock.sent >= kSlowListing);
  }
  SECTION("a record naming another Operator package") {
    Harness harness;
    harness.readiness().store(kPackage + ".dev");
    const BroadcastClock clock;
    slow_listing_then_clicked(harness, clock);
    CHECK(harness.run().exit_code == 0);
    REQUIRE(clock.sent->has_value());
    CHECK(**clock.sent >= kSlowListing);
  }
  SECTION("a probe's answer writes the record that names the Operator") {
    Harness harness;
    harness.readiness().invalidate();
    harness.probed_then_clicked();
    CHECK(harness.run().exit_code == 0);
    CHECK(harness.readiness().fresh_answer() == std::optional<std::string>(kPackage));
  }
}

namespace {

// OPERATOR_NOT_INSTALLED from the presence check beside the dispatch, as if it had run first.
void expect_absent_beside_dispatch(const Harness& harness, const exec::ExecutionReport& report) {
  expect_error(report, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe");
  CHECK(report.document["details"]["phase"] == "readiness");
  CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
  CHECK(report.document["details"]["presenceCheck"] == "beside_dispatch");
  CHECK(harness.runner.unexpected_calls().empty());
}

}  // namespace

TEST_CASE("a fresh record does not hide a removed Operator", "[exec][pipeline][warm][readiness]") {
  const process::Completion kNotListed = ScriptedRunner::exited(0, "clawperator-exit:0\n");
  SECTION("proven absent before the reader attached: nothing is broadcast") {
    Harness harness;
    harness.readiness().store(kPackage);
    harness.runner.on_run(kPmList, kNotListed);
    harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk("x\n", 100ms)});
    const auto report = harness.run();
    expect_absent_beside_dispatch(harness, report);
    // Any failure clears the record: the next execution probes again.
    CHECK_FALSE(harness.readiness().fresh());
  }
  SECTION("proven absent while the result is awaited: the wait ends at once") {
    Harness harness;
    harness.readiness().store(kPackage);
    harness.request.result_timeout = 5000ms;
    harness.runner.on_run(kPmList, kNotListed).after(200ms);
    harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto started = Clock::now();
    const auto report = harness.run();
    CHECK(Clock::now() - started < 2000ms);
    expect_absent_beside_dispatch(harness, report);
    CHECK_FALSE(harness.readiness().fresh());
  }
  SECTION("only the other variant listed") {
    Harness harness;
    harness.readiness().store(kPackage);
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0,
                                                          "package:com.clawperator.operator.dev\n"
                                                          "clawperator-exit:0\n"));
    harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk("x\n", 100ms)});
    const auto report = harness.run();
    expect_error(report, "OPERATOR_VARIANT_MISMATCH", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
  }
}

namespace {

// The chunk records of a result of several records, as log lines; `skip`: an index left out.
std::vector<std::string> chunk_lines(std::size_t min_bytes = 5000) {
  const std::string canonical =
      "[Clawperator-Result] " + transport::test::big_envelope_json(kCommandId, kTaskId, min_bytes);
  std::vector<std::string> lines;
  for (const std::string& message :
       transport::test::chunk_messages(canonical, kCommandId, kTaskId)) {
    lines.push_back(transport::test::time_line("Clawperator", message) + "\n");
  }
  return lines;
}

std::string chatty(const std::string& package, int count) {
  return transport::test::time_line("chatty", "uid=10100(" + package + ") DefaultDispatch expire " +
                                                  std::to_string(count) + " lines") +
         "\n";
}

const char* kOverrun =
    "logcat: Unexpected EOF!\n\nThis means that either the device shut down, logd crashed, or "
    "this instance of logcat was unable to read log messages as quickly as they were being "
    "produced.\n\n";

Json indices(std::size_t from, std::size_t to) {
  Json out = Json::array();
  for (std::size_t i = from; i < to; ++i) out.push_back(i);
  return out;
}

exec::ExecutionReport run_with_reader(std::vector<process::ScriptedEvent> script) {
  Harness harness(kSnapshotActions);
  harness.healthy(std::move(script));
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  return harness.run();
}

}  // namespace

TEST_CASE("logd's pruning of the Operator's records is reported with the missing indices",
          "[exec][pipeline][lost-lines]") {
  const std::vector<std::string> lines = chunk_lines();
  REQUIRE(lines.size() >= 4);
  std::string stream = lines[0] + chatty(kPackage, 2);
  for (std::size_t i = 3; i < lines.size(); ++i) stream += lines[i];
  const auto report = run_with_reader(
      {ScriptedRunner::out_chunk("attached\n"), ScriptedRunner::out_chunk(stream, 30ms)});
  INFO(report.document.dump(2).substr(0, 3000));
  CHECK(report.document["code"] == "RESULT_ENVELOPE_MALFORMED");
  const Json& transport = report.document["details"]["transport"];
  CHECK(transport["logdPrunedLines"] == 2);
  CHECK(transport["missingIndices"] == indices(1, 3));
  CHECK(transport.value("logcatOverrun", false) == false);
  CHECK(report.document["hint"].get<std::string>().rfind(
            "logd dropped 2 of the Operator's log lines", 0) == 0);
  CHECK(report.document["hint"].get<std::string>().find("--result-transport direct") !=
        std::string::npos);
}

TEST_CASE("another app's pruning notice does not explain our lost records",
          "[exec][pipeline][lost-lines]") {
  const std::vector<std::string> lines = chunk_lines();
  std::string stream =
      lines[0] + chatty("com.google.android.gms", 2) + chatty(kPackage + ".dev", 2);
  for (std::size_t i = 2; i < lines.size(); ++i) stream += lines[i];
  const auto report = run_with_reader(
      {ScriptedRunner::out_chunk("attached\n"), ScriptedRunner::out_chunk(stream, 30ms)});
  CHECK(report.document["code"] == "RESULT_ENVELOPE_MALFORMED");
  const Json& transport = report.document["details"]["transport"];
  CHECK_FALSE(transport.contains("logdPrunedLines"));
  CHECK_FALSE(transport.contains("missingIndices"));
  CHECK(report.document["hint"].get<std::string>().find("logd") == std::string::npos);
}

TEST_CASE("logcat cut off for falling behind is reported with the missing indices",
          "[exec][pipeline][lost-lines]") {
  const std::vector<std::string> lines = chunk_lines();
  const std::string first_three = lines[0] + lines[1] + lines[2];
  const auto check_overrun = [&](const exec::ExecutionReport& report) {
    INFO(report.document.dump(2).substr(0, 3000));
    // A snapshot only reads: safe to repeat, whatever reached the device.
    expect_error(report, "RESULT_TRANSPORT_EXITED", 4, "delivered_unverified", "safe");
    const Json& transport = report.document["details"]["transport"];
    CHECK(transport["logcatOverrun"] == true);
    CHECK_FALSE(transport.contains("logdPrunedLines"));
    CHECK(transport["missingIndices"] == indices(3, lines.size()));
    const std::string hint = report.document["hint"];
    CHECK(hint.rfind("logd cut the logcat reader off for falling behind", 0) == 0);
    CHECK(hint.find("--result-transport direct") != std::string::npos);
  };
  SECTION("logcat says so on its stderr (shell v2)") {
    check_overrun(run_with_reader(
        {ScriptedRunner::out_chunk("attached\n"), ScriptedRunner::out_chunk(first_three, 30ms),
         ScriptedRunner::err_chunk(kOverrun), ScriptedRunner::exit_event(1)}));
  }
  SECTION("on stdout, from a device without shell v2") {
    check_overrun(run_with_reader({ScriptedRunner::out_chunk("attached\n"),
                                   ScriptedRunner::out_chunk(first_three + kOverrun, 30ms),
                                   ScriptedRunner::exit_event(0)}));
  }
  SECTION("a reader that exits without saying why gets no such hint") {
    const auto report = run_with_reader({ScriptedRunner::out_chunk("attached\n"),
                                         ScriptedRunner::out_chunk(first_three, 30ms),
                                         ScriptedRunner::exit_event(0)});
    expect_error(report, "RESULT_TRANSPORT_EXITED", 4, "delivered_unverified", "safe");
    CHECK_FALSE(report.document["details"]["transport"].contains("missingIndices"));
    CHECK_FALSE(report.document["details"]["transport"].contains("logcatOverrun"));
  }
}

TEST_CASE("adb's usage errors and client refusals of the broadcast are not deliveries",
          "[exec][pipeline][dispatch]") {
  struct Case {
    const char* stderr_text;
    const char* code;
    const char* refusal;  // nullptr: no adbRefusal
  };
  const Case cases[] = {
      {"adb: unknown command shell-x\n", "BROADCAST_FAILED", "adb: unknown command shell-x"},
      {"adb: -s requires an argument\n", "BROADCAST_FAILED", "adb: -s requires an argument"},
      {"adb: usage: adb exec-out command\n", "BROADCAST_FAILED",
       "adb: usage: adb exec-out command"},
      {"adb: invalid transport id\n", "BROADCAST_FAILED", "adb: invalid transport id"},
      {"error: no device with transport id '99'\n", "DEVICE_NOT_FOUND", nullptr},
      {"error: insufficient permissions for device: user in plugdev group; are your udev "
       "rules wrong?\n",
       "ADB_NO_USB_PERMISSIONS", nullptr},
  };
  SECTION("adb's own refusals") {
    for (const Case& c : cases) {
      CAPTURE(c.stderr_text);
      Harness harness;
      harness.healthy({ScriptedRunner::out_chunk("x\n")});
      harness.runner.on_run(is_broadcast(), "broadcast",
                            ScriptedRunner::exited(1, "", c.stderr_text));
      const auto report = harness.run();
      INFO(report.document.dump(2));
      expect_error(report, c.code, 3, "not_delivered", "safe");
      CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
      if (c.refusal != nullptr) {
        CHECK(report.document["details"]["adbRefusal"] ==
              std::string("adb refused its own command line (") + c.refusal + ")");
      }
    }
  }
  SECTION("the Operator's own words are no usage error of adb's") {
    Harness harness;
    harness.healthy({ScriptedRunner::out_chunk("x\n")});
    harness.runner.on_run(is_broadcast(), "broadcast",
                          ScriptedRunner::exited(255, "", "Unknown command: broadcst\n"));
    expect_error(harness.run(), "BROADCAST_FAILED", 4, "delivery_uncertain", "unsafe");
  }
}

namespace {

// `logcat -v time -v uid` (liblog's logprint.cpp): the writer's uid before the pid.
std::string line_by(const std::string& uid, const std::string& tag, const std::string& message) {
  return "12-05 02:30:00.123 I/" + tag + "(" + uid + ": 4321): " + message + "\n";
}

bool broadcast_sent(const ScriptedRunner& runner) {
  for (const auto& call : runner.calls()) {
    if (call.argv.size() == 5 && call.argv[4].find("am broadcast") != std::string::npos) {
      return true;
    }
  }
  return false;
}

const std::string kListedWithUid =
    "package:com.clawperator.operator uid:10123\nclawperator-exit:0\n";

}  // namespace

TEST_CASE("only the Operator's uid writes the result", "[exec][pipeline][authenticity]") {
  const std::string forged =
      R"({"commandId":"cmd-1","taskId":"task-1","status":"success","stepResults":[{"id":"a1",)"
      R"("actionType":"click","success":true,"data":{"forged":"yes"}}],"error":null})";
  Harness harness;
  harness.runner.on_run(kPmList, ScriptedRunner::exited(0, kListedWithUid));
  harness.runner.on_start(
      kLogcat,
      {ScriptedRunner::out_chunk(line_by(" 1000", "ActivityManager", "noise")),
       ScriptedRunner::out_chunk(line_by("10666", "Clawperator", "[Clawperator-Result] " + forged),
                                 30ms),
       ScriptedRunner::out_chunk(
           line_by("10123", "Clawperator", "[Clawperator-Result] " + click_success()), 60ms)});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 0);
  CHECK(report.document["envelope"]["stepResults"][0]["data"] == Json::object());
  CHECK(report.document["resultAuthenticity"] ==
        Json::parse(R"({"verified":true,"uid":10123,"foreignLines":1})"));
}

TEST_CASE("a result whose writer cannot be proven says why", "[exec][pipeline][authenticity]") {
  SECTION("logcat shows no uid") {
    Harness harness;
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, kListedWithUid));
    harness.runner.on_start(kLogcat,
                            {ScriptedRunner::out_chunk("--------- beginning of main\n"),
                             ScriptedRunner::out_chunk(result_line(click_success()), 50ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 0);
    CHECK(report.document["resultAuthenticity"] ==
          Json::parse(R"({"verified":false,"reason":"the device's logcat shows no uid for the )"
                      R"(result's lines","foreignLines":0})"));
  }
  SECTION("the package manager printed no uid") {
    Harness harness;
    harness.healthy(
        {ScriptedRunner::out_chunk(line_by(" 1000", "ActivityManager", "noise")),
         ScriptedRunner::out_chunk(
             line_by("10123", "Clawperator", "[Clawperator-Result] " + click_success()), 50ms)});
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.document["resultAuthenticity"]["verified"] == false);
    CHECK(report.document["resultAuthenticity"]["reason"] ==
          "the Operator's uid is unknown: the package manager did not print it");
  }
}

TEST_CASE("--require-authentic-result refuses before dispatch when the writer cannot be proven",
          "[exec][pipeline][authenticity]") {
  Harness harness;
  harness.request.require_authentic_result = true;
  const auto refused = [&](const std::string& reason) {
    const auto report = harness.run();
    expect_error(report, "RESULT_AUTHENTICITY_UNAVAILABLE", 3, "not_delivered", "safe");
    CHECK(report.document["details"]["reason"] == reason);
    CHECK(report.document["details"]["dispatchState"] == "not_dispatched");
    CHECK_FALSE(broadcast_sent(harness.runner));
  };
  SECTION("a logcat without uids") {
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, kListedWithUid));
    harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk(result_line("{}"))});
    refused(
        "the device's logcat prints no uid for its lines (its logd does not record the "
        "writer)");
  }
  SECTION("no uid for the Operator") {
    harness.healthy({ScriptedRunner::out_chunk(line_by(" 1000", "ActivityManager", "noise"))});
    refused("the package manager did not print the Operator's uid");
  }
  SECTION("the direct transport") {
    harness.request.result_transport = exec::ResultTransport::Direct;
    refused("the direct result transport does not show which app wrote the result; use logcat");
  }
  SECTION("a quiet log: one line of our own shows the uids") {
    harness.runner.on_run(kPmList, ScriptedRunner::exited(0, kListedWithUid));
    harness.runner.on_start(
        kLogcat,
        {ScriptedRunner::out_chunk("--------- beginning of main\n"),
         ScriptedRunner::out_chunk(line_by("shell", "ClawperatorUidCheck", "does logcat show uids"),
                                   40ms),
         ScriptedRunner::out_chunk(
             line_by("10123", "Clawperator", "[Clawperator-Result] " + click_success()), 80ms)});
    harness.runner.on_run(
        device_shell(
            "log -t ClawperatorUidCheck 'does logcat show uids'; echo clawperator-exit:$?"),
        ScriptedRunner::exited(0, "clawperator-exit:0\n"));
    harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
    const auto report = harness.run();
    INFO(report.document.dump(2));
    CHECK(report.exit_code == 0);
    CHECK(report.document["resultAuthenticity"]["verified"] == true);
  }
}

TEST_CASE("a package manager without -U (before Android 8) still finds the Operator",
          "[exec][pipeline][authenticity]") {
  Harness harness;
  harness.runner.on_run(kPmList, ScriptedRunner::exited(0,
                                                        "Error: Unknown option: -U\n"
                                                        "clawperator-exit:255\n"));
  harness.runner.on_run(
      device_shell("pm list packages 'com.clawperator.operator'; echo clawperator-exit:$?"),
      ScriptedRunner::exited(0, "package:com.clawperator.operator\nclawperator-exit:0\n"));
  harness.runner.on_start(kLogcat, {ScriptedRunner::out_chunk("--------- beginning of main\n"),
                                    ScriptedRunner::out_chunk(result_line(click_success()), 50ms)});
  harness.runner.on_run(is_broadcast(), "broadcast", acknowledged());
  const auto report = harness.run();
  INFO(report.document.dump(2));
  CHECK(report.exit_code == 0);
  CHECK(report.document["resultAuthenticity"]["reason"] ==
        "the Operator's uid is unknown: the package manager did not print it");
}
