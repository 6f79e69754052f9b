// Running child processes (adb), behind an interface so that pipeline tests can script every
// call without forking. make_system_runner() is the real thing; ScriptedRunner the test double.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/process/cancel.hpp"

namespace clawperator::process {

struct CommandSpec {
  // argv[0] containing '/' is used as is; otherwise it is looked up in PATH. Never a shell.
  std::vector<std::string> argv;
  // Wall-clock limit from spawn to reap; must be positive.
  std::chrono::milliseconds timeout{0};
  // Per stream; the rest is read and discarded so the child never blocks on a full pipe.
  std::size_t max_output_bytes = std::size_t{16} << 20;
  // Cleanup that must happen after Ctrl-C too (removing an adb forward): runs to its end or
  // its deadline even when an interrupt is pending.
  bool despite_interrupt = false;
  // What the child reads on stdin (the answers sdkmanager --licenses and avdmanager's prompt
  // wait for), then end of file; empty: /dev/null.
  std::string stdin_text = {};
};

struct Completion {
  enum class Status { Exited, Signaled, TimedOut, Cancelled, SpawnFailed };
  Status status = Status::SpawnFailed;
  // For Exited/Signaled, how the child ended. For TimedOut/Cancelled, how it ended after our
  // SIGTERM (signal 15) or SIGKILL (9): it tells a clean stop from a forced one.
  int exit_code = -1;
  int signal = 0;
  // For SpawnFailed: the errno of the failed spawn (or of the runner's own failure).
  int spawn_errno = 0;
  std::string out, err;  // kept for TimedOut/Cancelled too: partial output helps diagnose
  bool out_truncated = false, err_truncated = false;
  std::chrono::milliseconds elapsed{0};
};

// A long-running child (e.g. `adb logcat`).
struct StreamSpec {
  std::vector<std::string> argv;
  // "NAME=VALUE" entries that replace NAME in the child's environment; the rest is inherited.
  std::vector<std::string> environment;
  // How long terminate() lets the child exit after SIGTERM before its group gets SIGKILL
  // (zero: the runner's own, 500 ms). A skill's script gets longer to clean up.
  std::chrono::milliseconds terminate_grace{0};
  // The kernel SIGKILLs the child when the thread that started it ends, even when this process
  // is SIGKILLed and so cannot stop it (the vdevice's Chromium): start such a child from a
  // thread that lives as long as the child should.
  bool dies_with_parent = false;
};

// What one wait on a streaming child produced.
struct StreamEvent {
  std::string out, err;  // bytes that arrived during this wait (may be empty)
  bool exited = false;   // the child was reaped AND both pipes reached EOF (all bytes delivered)
  int exit_code = -1;
  int signal = 0;
  // An interrupt signal was received (sticky, see interrupt.hpp) or the watched token was
  // cancelled.
  bool cancelled = false;
  // With `exited`: the child had exited but something it started kept the pipes open past
  // kDrainGrace, so the pipes were closed and its process group killed; output may be lost.
  bool drain_incomplete = false;
};

// How long a stream's pipes may stay open after its child exited.
inline constexpr std::chrono::milliseconds kDrainGrace{500};

class Stream {
 public:
  virtual ~Stream() = default;  // terminates the child if still running
  // Returns as soon as bytes arrive, the child has exited, an interrupt is pending, or the
  // timeout expires (then the event is empty). After the exit event, returns it again.
  virtual StreamEvent wait(std::chrono::milliseconds timeout) = 0;
  // SIGTERM to the group, SIGKILL after a grace period, reap; unread output is discarded.
  // Idempotent; wait() then reports exited with the terminating signal.
  virtual void terminate() = 0;
  // The start of terminate() that keeps the output: SIGTERM to the group, nothing reaped nor
  // closed, so that wait() still returns what the group writes while it cleans up; the exit
  // event then follows as usual (the group SIGKILLed before the child is reaped, as terminate()
  // does). terminate() afterwards waits only what is left of the grace. By default, where no
  // such split exists (test doubles, relayed streams), it is terminate() itself.
  virtual void begin_terminate() { terminate(); }
  virtual int pid() const = 0;
  // From now on, waits also end (cancelled) when `token` is cancelled: a stream kept warm
  // between executions answers to the execution using it, not to the one that started it.
  virtual void watch(CancelToken token) = 0;
};

// Why a child could not be started: the errno of the failed spawn (ECANCELED when an interrupt
// was already pending or the runner's token cancelled).
struct SpawnError {
  int code = 0;
  std::string message() const;  // strerror(code)
};

// A started child, or why none could be.
using Started = Expected<std::unique_ptr<Stream>, SpawnError>;

class Runner {
 public:
  // Every run and stream of this runner also stops when `token` is cancelled.
  explicit Runner(CancelToken token = {}) : token_(std::move(token)) {}
  virtual ~Runner() = default;
  // Blocking: spawn, read both streams, reap. Honors the deadline and interrupts.
  virtual Completion run(const CommandSpec& spec) = 0;
  // Starts a long-running child (e.g. `adb logcat`): the stream (never null), or the spawn's
  // errno (ECANCELED when an interrupt is already pending or the token cancelled).
  virtual Started start(const StreamSpec& spec) = 0;
  // The same with the environment inherited as it is.
  Started start(const std::vector<std::string>& argv) { return start(StreamSpec{argv, {}}); }

  const CancelToken& cancel_token() const noexcept { return token_; }
  // The process was interrupted or this runner's token cancelled: what it runs is stopped,
  // and nothing new is started.
  bool cancelled() const noexcept { return stop_requested(token_); }

 private:
  CancelToken token_;
};

std::unique_ptr<Runner> make_system_runner(CancelToken token = {});

// True when a spawn errno means the executable is missing or not executable (the caller's
// ADB_NOT_FOUND), as opposed to a resource problem such as EMFILE or EAGAIN.
bool spawn_error_is_not_found(int spawn_errno) noexcept;

std::string_view to_string(Completion::Status status) noexcept;

}  // namespace clawperator::process
