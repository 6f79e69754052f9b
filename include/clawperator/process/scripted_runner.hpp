// A Runner for tests: answers each call from a script instead of forking, and records every
// call so that a test can assert which adb commands ran, in which order and how often.
#pragma once

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clawperator/process/runner.hpp"

namespace clawperator::process {

// One StreamEvent of a scripted stream, delivered after the stream has been silent for
// `after` (real time, so that the consumer's own timeouts behave as with a real child).
struct ScriptedEvent {
  StreamEvent event;
  std::chrono::milliseconds after{0};
};

class ScriptedRunner final : public Runner {
 public:
  using Argv = std::vector<std::string>;
  using Matcher = std::function<bool(const Argv&)>;

  // With a token, its cancellation stops the scripted calls as an interrupt does.
  explicit ScriptedRunner(CancelToken token = {}) : Runner(std::move(token)) {}

  // How a stream handed out by start() was used; shared with the test through calls().
  struct StreamLog {
    std::size_t waits = 0;
    bool terminated = false;  // terminate() was called
    bool destroyed = false;   // the consumer released the stream
    // The consumer has been handed the scripted exit; readable while it still runs, so that a
    // test can wait for that moment.
    std::atomic<bool> exit_delivered{false};
  };

  enum class CallKind { Run, Start };
  enum class CallResult {
    Matched,  // answered by an expectation
    // No expectation left for it: SpawnFailed with kUnscriptedErrno, which no real
    // condition produces, so a test cannot pass by accident ("adb is missing" must be
    // scripted with on_spawn_failure).
    Unexpected,
    Cancelled,  // an interrupt (or the token) was pending: refused without consuming an expectation
  };
  struct Call {
    CallKind kind = CallKind::Run;
    Argv argv;
    std::vector<std::string> environment;  // start() only: what it set for the child
    std::chrono::milliseconds timeout{0};  // run() only
    CallResult result = CallResult::Matched;
    std::shared_ptr<const StreamLog> stream;  // start() only, when matched
    // run() only: the call has answered (a test waiting for it to be over sees this through
    // calls(), while the caller goes on).
    bool returned = false;
  };

  class Expectation {
   public:
    // Answers n calls (default 1); a further matching call falls through to later
    // expectations, and finally counts as unexpected.
    Expectation& times(std::size_t n);
    Expectation& repeatedly();
    // run() only: the call takes this long (really, but interruptibly). At or past the
    // call's timeout it ends as TimedOut at the timeout, keeping the canned out/err.
    Expectation& after(std::chrono::milliseconds delay);
    std::size_t used() const { return used_; }

   private:
    friend class ScriptedRunner;
    CallKind kind_ = CallKind::Run;
    Matcher matcher_;
    std::string description_;
    Completion completion_;
    std::vector<ScriptedEvent> script_;
    std::chrono::milliseconds delay_{0};
    std::size_t times_ = 1;
    int spawn_errno_ = 0;  // on_spawn_failure: both kinds, this errno
    bool unlimited_ = false;
    std::size_t used_ = 0;
  };

  // Expectations are tried in the order they were added; the first one that matches and
  // has calls left answers. References stay valid for the runner's lifetime.
  Expectation& on_run(Argv argv, Completion completion);
  Expectation& on_run(Matcher matcher, std::string description, Completion completion);
  Expectation& on_start(Argv argv, std::vector<ScriptedEvent> script);
  Expectation& on_start(Matcher matcher, std::string description,
                        std::vector<ScriptedEvent> script);
  // Runs and starts whose argv starts with `prefix` fail to spawn with `spawn_errno` (ENOENT:
  // the executable is missing).
  Expectation& on_spawn_failure(Argv prefix, int spawn_errno);

  // The errno of an unscripted call (ENOSYS: "Function not implemented").
  static constexpr int kUnscriptedErrno = ENOSYS;

  Completion run(const CommandSpec& spec) override;
  using Runner::start;
  Started start(const StreamSpec& spec) override;

  std::vector<Call> calls() const;
  std::vector<Call> unexpected_calls() const;
  std::size_t call_count(const Argv& argv) const;
  // Descriptions of expectations that answered fewer calls than times() asked for.
  std::vector<std::string> unmet_expectations() const;

  static Completion exited(int exit_code, std::string out = {}, std::string err = {});
  static ScriptedEvent out_chunk(std::string bytes, std::chrono::milliseconds after = {});
  static ScriptedEvent err_chunk(std::string bytes, std::chrono::milliseconds after = {});
  static ScriptedEvent exit_event(int exit_code, std::chrono::milliseconds after = {});
  static Matcher starts_with(Argv prefix);

 private:
  Expectation& add(CallKind kind, Matcher matcher, std::string description);
  Expectation* match(CallKind kind, const Argv& argv);

  mutable std::mutex mutex_;
  std::deque<Expectation> expectations_;
  std::vector<Call> calls_;
  int next_pid_ = 100000;
};

}  // namespace clawperator::process
