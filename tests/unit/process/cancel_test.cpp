#include "clawperator/process/cancel.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <functional>
#include <thread>

#include "clawperator/process/runner.hpp"
#include "clawperator/process/scripted_runner.hpp"
#include "process_test_support.hpp"

namespace {

using namespace clawperator::process;
using namespace clawperator::process::test;
using Status = Completion::Status;

// Cancels `source` from another thread once `ready` holds (the run or wait to cancel is under
// way), as a server's reader thread does. held() joins and says whether `ready` held (else the
// cancel went at a 10 s limit).
class CancelWhen {
 public:
  CancelWhen(CancelSource& source, std::function<bool()> ready)
      : thread_([this, &source, ready = std::move(ready)] {
          held_ = clawperator::testing::wait_until(ready, 10s);
          source.cancel();
        }) {}
  ~CancelWhen() { join(); }
  CancelWhen(const CancelWhen&) = delete;
  CancelWhen& operator=(const CancelWhen&) = delete;

  bool held() {
    join();
    return held_;
  }

 private:
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool held_ = false;
  std::thread thread_;
};

}  // namespace

TEST_CASE("a default cancel token is never cancelled", "[process][cancel]") {
  const CancelToken token;
  CHECK_FALSE(token.cancelled());
  CHECK(token.fd() == -1);
  CHECK_FALSE(stop_requested(token));
}

TEST_CASE("cancelling a source reaches every copy of its token once", "[process][cancel]") {
  CancelSource source;
  const CancelToken token = source.token();
  const CancelToken copy = token;  // NOLINT(performance-unnecessary-copy-initialization)
  REQUIRE(token.fd() >= 0);
  CHECK_FALSE(readable(token.fd()));
  CHECK_FALSE(stop_requested(token));
  source.cancel();
  source.cancel();
  CHECK(source.cancelled());
  CHECK(token.cancelled());
  CHECK(copy.cancelled());
  CHECK(readable(copy.fd()));
  CHECK(stop_requested(token));
}

TEST_CASE("a token outlives its source", "[process][cancel]") {
  CancelToken token;
  {
    CancelSource source;
    token = source.token();
    source.cancel();
  }
  CHECK(token.cancelled());
  CHECK(readable(token.fd()));
}

TEST_CASE("cancelling the token stops a runner's run at once and reaps the child",
          "[process][cancel]") {
  CancelSource source;
  const auto runner = make_system_runner(source.token());
  const Clock::time_point before = Clock::now();
  // Children that would run 10 s: only the cancel ends them soon.
  CancelWhen cancel(source, [] { return child_runs("/bin/sh"); });
  const Completion c =
      runner->run(command({"/bin/sh", "-c", "sleep 10 & sleep 10; wait"}, 20000ms));
  REQUIRE(cancel.held());
  CHECK(c.status == Status::Cancelled);
  CHECK(since(before) < 3000ms);
  CHECK(runner->cancelled());
  CHECK(no_children_left());
  // Nothing new starts afterwards, and the process-wide interrupt was never touched.
  CHECK(runner->run(command({"/bin/echo", "x"})).status == Status::Cancelled);
  const Started refused = runner->start({"/bin/sleep", "5"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ECANCELED);
  CHECK(interrupted_signal() == 0);
}

TEST_CASE("another runner's token does not stop this runner", "[process][cancel]") {
  CancelSource other;
  other.cancel();
  const auto runner = make_system_runner();
  const Completion c = runner->run(command({"/bin/echo", "hi"}));
  CHECK(c.status == Status::Exited);
  CHECK(c.out == "hi\n");
}

TEST_CASE("a watched token ends a stream's wait and the stream still terminates",
          "[process][cancel]") {
  const auto runner = make_system_runner();
  Started started = runner->start({"/bin/sleep", "10"});
  REQUIRE(started);
  std::unique_ptr<Stream> stream = std::move(*started);
  REQUIRE(stream != nullptr);
  // A stream kept between executions answers to the execution now using it.
  CancelSource first;
  stream->watch(first.token());
  StreamEvent event = stream->wait(50ms);
  CHECK_FALSE(event.cancelled);
  CHECK_FALSE(event.exited);
  const Clock::time_point before = Clock::now();
  {
    // Cancelled while this thread is blocked in the wait.
    const pid_t waiting = this_thread_id();
    CancelWhen cancel(first, [waiting] { return thread_sleeps(waiting); });
    event = stream->wait(5000ms);
    REQUIRE(cancel.held());
  }
  CHECK(event.cancelled);
  CHECK(since(before) < 2000ms);
  // The next execution's token replaces the cancelled one.
  CancelSource second;
  stream->watch(second.token());
  event = stream->wait(50ms);
  CHECK_FALSE(event.cancelled);
  stream->terminate();
  stream.reset();
  CHECK(no_children_left());
}

TEST_CASE("a stream cancelled with output waiting in its pipe still returns that output",
          "[process][cancel]") {
  const auto runner = make_system_runner();
  Started started = runner->start({"/bin/sh", "-c", "echo started; exec sleep 10"});
  REQUIRE(started);
  std::unique_ptr<Stream> stream = std::move(*started);
  CancelSource source;
  stream->watch(source.token());
  // The line is in the pipe, unread, when the stop comes (a SIGTERM right after a skill printed
  // it: tests/integration/skills_run_test.cpp).
  std::this_thread::sleep_for(300ms);
  source.cancel();
  const StreamEvent event = stream->wait(5000ms);
  CHECK(event.cancelled);
  CHECK(event.out == "started\n");
  stream->terminate();
  stream.reset();
  CHECK(no_children_left());
}

TEST_CASE("scripted runner honors its token like an interrupt", "[process][cancel]") {
  CancelSource source;
  ScriptedRunner scripted(source.token());
  const std::vector<std::string> devices{"adb", "devices", "-l"};
  auto& expectation = scripted.on_run(devices, ScriptedRunner::exited(0)).after(5000ms);
  const Clock::time_point before = Clock::now();
  CancelWhen cancel(source, [&] { return !scripted.calls().empty(); });
  const Completion c = scripted.run(command(devices));
  REQUIRE(cancel.held());
  CHECK(c.status == Status::Cancelled);
  CHECK(since(before) < 2000ms);
  CHECK(expectation.used() == 1);
  CHECK(scripted.run(command(devices)).status == Status::Cancelled);
  CHECK(scripted.calls().back().result == ScriptedRunner::CallResult::Cancelled);
  const Started refused = scripted.start({"adb", "logcat"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ECANCELED);
  CHECK(interrupted_signal() == 0);
}
