// The real Runner: adb as a child process, see child_process.hpp for the process handling.
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <new>
#include <optional>

#include "child_process.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"
#include "clawperator/process/runner.hpp"
#include "pipe_drain.hpp"

namespace clawperator::process {
namespace {

// A child's stdin that holds `text` and then ends: an anonymous file rather than a pipe, so that
// feeding it never waits on the child (the text is small: a tool's prompt answers).
int stdin_file_of(const std::string& text, UniqueFd& file) {
  file.reset(::memfd_create("clawperator-stdin", MFD_CLOEXEC));
  if (!file.valid()) return errno;
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t wrote = ::write(file.get(), text.data() + written, text.size() - written);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return errno != 0 ? errno : EIO;
    written += static_cast<std::size_t>(wrote);
  }
  return ::lseek(file.get(), 0, SEEK_SET) == 0 ? 0 : errno;
}

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Per pipe and per poll round: bounds how long a flooding child keeps us from checking the
// deadline and the other pipe.
constexpr std::size_t kReadBudget = std::size_t{1} << 20;

bool ready(const pollfd& entry) noexcept {
  return (entry.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

// Reads whatever the ready pipes hold; closes a pipe at EOF.
void drain_ready(ChildProcess& child, const std::array<pollfd, 4>& fds, OutputSink& out,
                 OutputSink& err, std::size_t budget) {
  if (ready(fds[0]) && drain_pipe(child.out().get(), out, budget) == DrainResult::Eof) {
    child.out().reset();
  }
  if (ready(fds[1]) && drain_pipe(child.err().get(), err, budget) == DrainResult::Eof) {
    child.err().reset();
  }
}

// `cancel` null: a call that must run despite an interrupt (CommandSpec::despite_interrupt).
std::array<pollfd, 4> poll_set(ChildProcess& child, const CancelToken* cancel) noexcept {
  // poll() skips negative descriptors: closed pipes, a missing interrupt pipe, no token.
  return {pollfd{child.out().get(), POLLIN, 0}, pollfd{child.err().get(), POLLIN, 0},
          pollfd{cancel != nullptr ? interrupt_fd() : -1, POLLIN, 0},
          pollfd{cancel != nullptr ? cancel->fd() : -1, POLLIN, 0}};
}

enum class Outcome { Exited, TimedOut, Cancelled, Failed };

// Reads both pipes to EOF, then waits for the exit; does not reap.
Outcome pump(ChildProcess& child, OutputSink& out, OutputSink& err, Clock::time_point deadline,
             const CancelToken* cancel, int& failure_errno) {
  while (!child.pipes_closed()) {
    if (cancel != nullptr && stop_requested(*cancel)) return Outcome::Cancelled;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return Outcome::TimedOut;
    std::array<pollfd, 4> fds = poll_set(child, cancel);
    if (poll(fds.data(), fds.size(), poll_timeout_ms(deadline, now)) < 0) {
      if (errno == EINTR) continue;
      failure_errno = errno;
      return Outcome::Failed;
    }
    drain_ready(child, fds, out, err, kReadBudget);
  }
  switch (child.wait_exit(deadline, cancel)) {
    case ChildProcess::Wait::Exited:
      return Outcome::Exited;
    case ChildProcess::Wait::TimedOut:
      return Outcome::TimedOut;
    case ChildProcess::Wait::Interrupted:
      return Outcome::Cancelled;
  }
  return Outcome::Failed;
}

Completion run_command(const CommandSpec& spec, const CancelToken& cancel) {
  const Clock::time_point start = Clock::now();
  Completion completion;
  const auto finish = [&](Completion::Status status) {
    completion.status = status;
    completion.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    return completion;
  };
  if (spec.argv.empty()) {
    completion.spawn_errno = EINVAL;
    return finish(Completion::Status::SpawnFailed);
  }
  // Sticky interrupt: after Ctrl-C (or the token's cancellation) nothing new is started, except
  // the clean-up calls that must run despite it (removing an adb forward).
  const CancelToken* interruptible_by = spec.despite_interrupt ? nullptr : &cancel;
  if (interruptible_by != nullptr && stop_requested(cancel)) {
    return finish(Completion::Status::Cancelled);
  }
  if (spec.timeout <= milliseconds::zero()) return finish(Completion::Status::TimedOut);
  const Clock::time_point deadline = start + spec.timeout;

  UniqueFd stdin_file;
  if (!spec.stdin_text.empty()) {
    if (const int e = stdin_file_of(spec.stdin_text, stdin_file); e != 0) {
      completion.spawn_errno = e;
      return finish(Completion::Status::SpawnFailed);
    }
  }
  ChildProcess child;
  if (const int e = child.spawn(spec.argv, {}, stdin_file.valid() ? stdin_file.get() : -1);
      e != 0) {
    completion.spawn_errno = e;
    return finish(Completion::Status::SpawnFailed);
  }
  OutputSink out{.data = {}, .cap = spec.max_output_bytes, .truncated = false};
  OutputSink err{.data = {}, .cap = spec.max_output_bytes, .truncated = false};
  int failure_errno = 0;
  const Outcome outcome = pump(child, out, err, deadline, interruptible_by, failure_errno);

  ExitStatus status;
  if (outcome == Outcome::Exited) {
    status = child.reap();
  } else {
    status = child.terminate_group();
    // What the child wrote just before dying is often the explanation ("- waiting for
    // device -"); the pipes hold at most one pipe buffer each, so this cannot block.
    std::array<pollfd, 4> fds = poll_set(child, &cancel);
    for (pollfd& entry : fds) entry.revents = entry.fd >= 0 ? POLLIN : 0;
    drain_ready(child, fds, out, err, kReadBudget);
  }
  completion.exit_code = status.exit_code;
  completion.signal = status.signal;
  completion.out = std::move(out.data);
  completion.err = std::move(err.data);
  completion.out_truncated = out.truncated;
  completion.err_truncated = err.truncated;
  switch (outcome) {
    case Outcome::Exited:
      return finish(status.signal != 0 ? Completion::Status::Signaled : Completion::Status::Exited);
    case Outcome::TimedOut:
      return finish(Completion::Status::TimedOut);
    case Outcome::Cancelled:
      return finish(Completion::Status::Cancelled);
    case Outcome::Failed:
      break;
  }
  // The runner itself failed (poll ran out of memory): report it as "could not run".
  completion.spawn_errno = failure_errno;
  return finish(Completion::Status::SpawnFailed);
}

class SystemStream final : public Stream {
 public:
  explicit SystemStream(CancelToken cancel) : cancel_(std::move(cancel)) {}
  ~SystemStream() override { terminate(); }
  SystemStream(const SystemStream&) = delete;
  SystemStream& operator=(const SystemStream&) = delete;

  int spawn(const StreamSpec& spec) {
    if (spec.terminate_grace > milliseconds::zero()) grace_ = spec.terminate_grace;
    return child_.spawn(spec.argv, spec.environment, -1, spec.dies_with_parent);
  }

  StreamEvent wait(milliseconds timeout) override {
    try {
      return wait_for_event(timeout);
    } catch (const std::bad_alloc&) {
      terminate();
      return exit_event();
    }
  }

  void terminate() override {
    if (finished_) return;
    milliseconds grace = grace_;
    if (terminate_begun_at_) {
      // begin_terminate() already gave part of the grace.
      const auto spent =
          std::chrono::duration_cast<milliseconds>(Clock::now() - *terminate_begun_at_);
      grace = std::max(grace_ - spent, milliseconds::zero());
    }
    end_ = child_.terminate_group(grace);
    child_.out().reset();
    child_.err().reset();
    finished_ = true;
  }

  void begin_terminate() override {
    if (finished_ || terminate_begun_at_) return;
    terminate_begun_at_ = Clock::now();
    child_.ask_group_to_terminate();
  }

  int pid() const override { return child_.pid(); }

  void watch(CancelToken token) override { cancel_ = std::move(token); }

 private:
  StreamEvent exit_event() const {
    StreamEvent event;
    event.exited = true;
    event.exit_code = end_.exit_code;
    event.signal = end_.signal;
    return event;
  }

  StreamEvent wait_for_event(milliseconds timeout) {
    if (finished_) return exit_event();
    const Clock::time_point deadline = Clock::now() + std::max(timeout, milliseconds::zero());
    OutputSink out, err;
    std::size_t budget = kReadBudget;
    bool cancelled = false;
    bool polled = false;
    for (;;) {
      if (stop_requested(cancel_)) {
        // Bytes the child wrote before the stop are part of what it said (a skill's "started"
        // line; skills_run_test.cpp "SIGTERM to clawperator"): read what is ready, never wait.
        std::array<pollfd, 4> fds = poll_set(child_, nullptr);
        if (budget > 0 && poll(fds.data(), fds.size(), 0) > 0)
          drain_ready(child_, fds, out, err, budget);
        cancelled = true;
        break;
      }
      const bool have_data = !out.data.empty() || !err.data.empty();
      if (child_.pipes_closed()) {
        // Only the exit is missing; do not hold back bytes already read while waiting for it.
        const Clock::time_point until = have_data ? Clock::now() : deadline;
        const ChildProcess::Wait result = child_.wait_exit(until, &cancel_);
        if (result == ChildProcess::Wait::Exited) {
          // Being terminated: what the child started in its group goes with it, as
          // terminate_group() would have it.
          if (terminate_begun_at_) child_.kill_group();
          end_ = child_.reap();
          finished_ = true;
        }
        cancelled = result == ChildProcess::Wait::Interrupted;
        break;
      }
      if (have_data || budget == 0) break;
      const Clock::time_point now = Clock::now();
      if (drain_overdue(now)) break;
      if (polled && now >= deadline) break;
      std::array<pollfd, 4> fds = poll_set(child_, &cancel_);
      polled = true;
      // Wake up now and then to notice a child that exited while a descendant holds the pipes.
      const int rc =
          poll(fds.data(), fds.size(), std::min(poll_timeout_ms(deadline, now), kExitCheckMs));
      if (rc < 0 && errno != EINTR) {
        terminate();
        break;
      }
      if (rc <= 0) continue;
      const std::size_t before = out.data.size() + err.data.size();
      drain_ready(child_, fds, out, err, budget);
      budget -= std::min(budget, out.data.size() + err.data.size() - before);
    }
    StreamEvent event = finished_ ? exit_event() : StreamEvent{};
    event.drain_incomplete = finished_ && drain_incomplete_;
    event.out = std::move(out.data);
    event.err = std::move(err.data);
    event.cancelled = cancelled;
    return event;
  }

  // True when the child exited more than kDrainGrace ago and its pipes are still open: the
  // group is then killed and the stream ends without the rest of its output.
  bool drain_overdue(Clock::time_point now) {
    if (!exited_at_) {
      if (!child_.has_exited()) return false;
      exited_at_ = now;
    }
    if (now - *exited_at_ < kDrainGrace) return false;
    end_ = child_.terminate_group();
    child_.out().reset();
    child_.err().reset();
    finished_ = true;
    drain_incomplete_ = true;
    return true;
  }

  static constexpr int kExitCheckMs = 100;

  CancelToken cancel_;
  ChildProcess child_;
  milliseconds grace_ = ChildProcess::kTerminateGrace;
  bool finished_ = false;
  bool drain_incomplete_ = false;
  std::optional<Clock::time_point> exited_at_;
  std::optional<Clock::time_point> terminate_begun_at_;
  ExitStatus end_;
};

class SystemRunner final : public Runner {
 public:
  explicit SystemRunner(CancelToken token) : Runner(std::move(token)) {}

  Completion run(const CommandSpec& spec) override {
    try {
      return run_command(spec, cancel_token());
    } catch (const std::bad_alloc&) {
      // The child, if any, was terminated and reaped by ChildProcess's destructor.
      Completion completion;
      completion.status = Completion::Status::SpawnFailed;
      completion.spawn_errno = ENOMEM;
      return completion;
    }
  }

  using Runner::start;
  Started start(const StreamSpec& spec) override {
    try {
      if (spec.argv.empty()) return Unexpected{SpawnError{EINVAL}};
      if (cancelled()) return Unexpected{SpawnError{ECANCELED}};
      auto stream = std::make_unique<SystemStream>(cancel_token());
      if (const int spawn_errno = stream->spawn(spec); spawn_errno != 0) {
        return Unexpected{SpawnError{spawn_errno}};
      }
      return std::unique_ptr<Stream>(std::move(stream));
    } catch (const std::bad_alloc&) {
      return Unexpected{SpawnError{ENOMEM}};
    }
  }
};

}  // namespace

std::unique_ptr<Runner> make_system_runner(CancelToken token) {
  return std::make_unique<SystemRunner>(std::move(token));
}

}  // namespace clawperator::process
