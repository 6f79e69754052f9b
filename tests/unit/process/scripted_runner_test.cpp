#include "clawperator/process/scripted_runner.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <string>
#include <vector>

#include "process_test_support.hpp"

namespace {

using namespace clawperator::process;
using namespace clawperator::process::test;
using Status = Completion::Status;
using Argv = ScriptedRunner::Argv;
using CallResult = ScriptedRunner::CallResult;

const Argv kDevices{"adb", "devices", "-l"};
const Argv kGetState{"adb", "-s", "emulator-5554", "get-state"};

}  // namespace

TEST_CASE("scripted runner answers exact argv and records the calls in order", "[process]") {
  ScriptedRunner scripted;
  scripted.on_run(kDevices, ScriptedRunner::exited(0, "List of devices attached\n"));
  scripted.on_run(kGetState, ScriptedRunner::exited(1, "", "error: device offline\n"));
  Runner& runner = scripted;

  const Completion state = runner.run(command(kGetState, 3000ms));
  CHECK(state.status == Status::Exited);
  CHECK(state.exit_code == 1);
  CHECK(state.err == "error: device offline\n");
  const Completion devices = runner.run(command(kDevices, 2000ms));
  CHECK(devices.out == "List of devices attached\n");

  const std::vector<ScriptedRunner::Call> calls = scripted.calls();
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].argv == kGetState);
  CHECK(calls[0].timeout == 3000ms);
  CHECK(calls[0].kind == ScriptedRunner::CallKind::Run);
  CHECK(calls[0].result == CallResult::Matched);
  CHECK(calls[1].argv == kDevices);
  CHECK(calls[1].timeout == 2000ms);
  CHECK(scripted.call_count(kDevices) == 1);
  CHECK(scripted.unexpected_calls().empty());
  CHECK(scripted.unmet_expectations().empty());
}

TEST_CASE("scripted runner answers a call once unless told otherwise", "[process]") {
  ScriptedRunner scripted;
  scripted.on_run(kGetState, ScriptedRunner::exited(1, "", "error: device offline\n"));
  scripted.on_run(kGetState, ScriptedRunner::exited(0, "device\n")).times(2);

  CHECK(scripted.run(command(kGetState)).exit_code == 1);
  CHECK(scripted.run(command(kGetState)).out == "device\n");
  CHECK(scripted.run(command(kGetState)).out == "device\n");
  const Completion extra = scripted.run(command(kGetState));
  CHECK(extra.status == Status::SpawnFailed);
  CHECK(extra.spawn_errno == ScriptedRunner::kUnscriptedErrno);

  CHECK(scripted.call_count(kGetState) == 4);
  const std::vector<ScriptedRunner::Call> unexpected = scripted.unexpected_calls();
  REQUIRE(unexpected.size() == 1);
  CHECK(unexpected[0].argv == kGetState);
}

TEST_CASE("scripted runner matches by predicate and reports unmet expectations", "[process]") {
  ScriptedRunner scripted;
  auto& shell = scripted
                    .on_run(ScriptedRunner::starts_with({"adb", "-s", "emulator-5554", "shell"}),
                            "any shell command", ScriptedRunner::exited(0, "ok\n"))
                    .repeatedly();
  scripted.on_run(kDevices, ScriptedRunner::exited(0)).times(2);

  for (int i = 0; i < 3; ++i) {
    const Completion c =
        scripted.run(command({"adb", "-s", "emulator-5554", "shell", "echo", std::to_string(i)}));
    CHECK(c.out == "ok\n");
  }
  CHECK(shell.used() == 3);
  CHECK(scripted.run(command({"adb", "-s", "other", "shell", "x"})).status == Status::SpawnFailed);
  CHECK(scripted.run(command(kDevices)).status == Status::Exited);
  CHECK(scripted.unmet_expectations() == std::vector<std::string>{"adb devices -l (1 of 2 calls)"});
  CHECK(scripted.unexpected_calls().size() == 1);
}

TEST_CASE("scripted runner simulates durations and deadlines", "[process]") {
  ScriptedRunner scripted;
  scripted.on_run(kDevices, ScriptedRunner::exited(0, "List\n")).after(50ms);
  Completion waiting;
  waiting.status = Status::Exited;
  waiting.err = "- waiting for device -\n";
  scripted.on_run(kGetState, waiting).after(60000ms);

  Clock::time_point before = Clock::now();
  const Completion quick = scripted.run(command(kDevices, 1000ms));
  CHECK(quick.status == Status::Exited);
  CHECK(quick.elapsed == 50ms);
  CHECK(since(before) >= 50ms);

  before = Clock::now();
  const Completion slow = scripted.run(command(kGetState, 100ms));
  CHECK(slow.status == Status::TimedOut);
  CHECK(slow.elapsed == 100ms);
  CHECK(slow.err == "- waiting for device -\n");
  CHECK(since(before) >= 100ms);
  CHECK(since(before) < 1000ms);  // slept up to the deadline only, not the scripted minute
}

TEST_CASE("scripted stream delivers a logcat feed in arbitrary pieces", "[process]") {
  const Argv logcat{"adb", "-s", "emulator-5554", "logcat", "-v", "time"};
  ScriptedRunner scripted;
  scripted.on_start(logcat, {ScriptedRunner::out_chunk("12-01 10:00:00.000 I/Tag( 1): he"),
                             ScriptedRunner::out_chunk("llo\n12-01 10:00:00.001 I/Tag( 1): x"),
                             ScriptedRunner::err_chunk("- waiting for device -\n"),
                             ScriptedRunner::out_chunk("\n", 80ms), ScriptedRunner::exit_event(0)});
  Runner& runner = scripted;
  Started started = runner.start(logcat);
  REQUIRE(started);
  std::unique_ptr<Stream> stream = std::move(*started);
  REQUIRE(stream != nullptr);
  CHECK(stream->pid() > 0);

  CHECK(stream->wait(1000ms).out == "12-01 10:00:00.000 I/Tag( 1): he");
  CHECK(stream->wait(1000ms).out == "llo\n12-01 10:00:00.001 I/Tag( 1): x");
  const StreamEvent err = stream->wait(1000ms);
  CHECK(err.out.empty());
  CHECK(err.err == "- waiting for device -\n");

  // The next piece comes after 80 ms of silence: a shorter wait sees nothing.
  const StreamEvent silent = stream->wait(30ms);
  CHECK(silent.out.empty());
  CHECK_FALSE(silent.exited);
  CHECK(stream->wait(1000ms).out == "\n");

  const StreamEvent end = stream->wait(1000ms);
  CHECK(end.exited);
  CHECK(end.exit_code == 0);
  CHECK(stream->wait(0ms).exited);

  stream.reset();
  const std::vector<ScriptedRunner::Call> calls = scripted.calls();
  REQUIRE(calls.size() == 1);
  CHECK(calls[0].kind == ScriptedRunner::CallKind::Start);
  REQUIRE(calls[0].stream != nullptr);
  CHECK(calls[0].stream->waits == 7);
  CHECK_FALSE(calls[0].stream->terminated);
  CHECK(calls[0].stream->destroyed);
}

TEST_CASE("scripted stream runs dry like a silent child and can be terminated", "[process]") {
  ScriptedRunner scripted;
  scripted.on_start(ScriptedRunner::starts_with({"adb", "logcat"}), "logcat",
                    {ScriptedRunner::out_chunk("one\n")});
  Started started = scripted.start({"adb", "logcat", "-T", "1"});
  REQUIRE(started);
  std::unique_ptr<Stream> stream = std::move(*started);
  REQUIRE(stream != nullptr);
  CHECK(stream->wait(100ms).out == "one\n");
  const Clock::time_point before = Clock::now();
  const StreamEvent silent = stream->wait(50ms);
  CHECK(since(before) >= 50ms);
  CHECK(silent.out.empty());
  CHECK_FALSE(silent.exited);

  stream->terminate();
  const StreamEvent ended = stream->wait(0ms);
  CHECK(ended.exited);
  CHECK(ended.signal == SIGTERM);
  CHECK(scripted.calls()[0].stream->terminated);
}

TEST_CASE("scripted runner refuses unmatched starts", "[process]") {
  ScriptedRunner scripted;
  const Started refused = scripted.start({"adb", "logcat"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ScriptedRunner::kUnscriptedErrno);
  const std::vector<ScriptedRunner::Call> unexpected = scripted.unexpected_calls();
  REQUIRE(unexpected.size() == 1);
  CHECK(unexpected[0].kind == ScriptedRunner::CallKind::Start);
  CHECK(unexpected[0].stream == nullptr);
}

TEST_CASE("scripted spawn failure answers runs and starts with the given errno", "[process]") {
  ScriptedRunner scripted;
  scripted.on_spawn_failure({"/missing/adb"}, ENOENT);

  const Completion run = scripted.run(command({"/missing/adb", "devices", "-l"}));
  CHECK(run.status == Status::SpawnFailed);
  CHECK(run.spawn_errno == ENOENT);
  CHECK(scripted.run(command({"/missing/adb", "version"})).spawn_errno == ENOENT);
  const Started refused = scripted.start({"/missing/adb", "logcat"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ENOENT);
  CHECK(scripted.unexpected_calls().empty());

  // Another executable is not covered by the prefix.
  CHECK(scripted.run(command({"adb", "devices"})).spawn_errno == ScriptedRunner::kUnscriptedErrno);
  CHECK(scripted.unexpected_calls().size() == 1);
}

TEST_CASE("scripted runner honors a pending interrupt", "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  ScriptedRunner scripted;
  auto& devices = scripted.on_run(kDevices, ScriptedRunner::exited(0)).after(5000ms);
  const Clock::time_point before = Clock::now();
  // Ctrl-C once the call is under way.
  SignalWhen ctrl_c(SIGINT, [&] { return !scripted.calls().empty(); });
  const Completion c = scripted.run(command(kDevices));
  REQUIRE(ctrl_c.held());
  CHECK(c.status == Status::Cancelled);
  CHECK(since(before) < 2000ms);
  CHECK(devices.used() == 1);

  const Completion after = scripted.run(command(kDevices));
  CHECK(after.status == Status::Cancelled);
  CHECK(scripted.calls().back().result == CallResult::Cancelled);
  const Started refused = scripted.start({"adb", "logcat"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ECANCELED);
  CHECK(scripted.unexpected_calls().empty());
}
