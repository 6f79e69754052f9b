#include "clawperator/process/scripted_runner.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <utility>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"

namespace clawperator::process {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Sleeps like a child that stays silent; returns false when an interrupt or the token's
// cancellation cut it short.
bool idle(milliseconds duration, const CancelToken& cancel) {
  const Clock::time_point deadline = Clock::now() + duration;
  for (;;) {
    if (stop_requested(cancel)) return false;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return true;
    pollfd entries[2] = {{interrupt_fd(), POLLIN, 0}, {cancel.fd(), POLLIN, 0}};
    (void)poll(entries, 2, poll_timeout_ms(deadline, now));
  }
}

std::string join(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& arg : argv) {
    if (!text.empty()) text += ' ';
    text += arg;
  }
  return text;
}

class ScriptedStream final : public Stream {
 public:
  ScriptedStream(std::vector<ScriptedEvent> script, std::shared_ptr<ScriptedRunner::StreamLog> log,
                 int pid, CancelToken cancel)
      : script_(std::move(script)), log_(std::move(log)), pid_(pid), cancel_(std::move(cancel)) {}
  ~ScriptedStream() override { log_->destroyed = true; }
  ScriptedStream(const ScriptedStream&) = delete;
  ScriptedStream& operator=(const ScriptedStream&) = delete;

  StreamEvent wait(milliseconds timeout) override {
    ++log_->waits;
    if (finished_) return end_;
    timeout = std::max(timeout, milliseconds::zero());
    StreamEvent silence;
    if (next_ == script_.size()) {
      silence.cancelled = !idle(timeout, cancel_);
      return silence;
    }
    ScriptedEvent& pending = script_[next_];
    if (pending.after > timeout) {
      silence.cancelled = !idle(timeout, cancel_);
      pending.after -= timeout;
      return silence;
    }
    if (!idle(pending.after, cancel_)) {
      silence.cancelled = true;
      return silence;
    }
    StreamEvent event = std::move(pending.event);
    ++next_;
    if (event.exited) {
      log_->exit_delivered = true;
      finished_ = true;
      end_ = StreamEvent{};
      end_.exited = true;
      end_.exit_code = event.exit_code;
      end_.signal = event.signal;
    }
    return event;
  }

  void terminate() override {
    log_->terminated = true;
    if (finished_) return;
    finished_ = true;
    end_.exited = true;
    end_.signal = SIGTERM;
  }

  int pid() const override { return pid_; }

  void watch(CancelToken token) override { cancel_ = std::move(token); }

 private:
  std::vector<ScriptedEvent> script_;
  std::size_t next_ = 0;
  bool finished_ = false;
  StreamEvent end_;
  std::shared_ptr<ScriptedRunner::StreamLog> log_;
  int pid_;
  CancelToken cancel_;
};

}  // namespace

ScriptedRunner::Expectation& ScriptedRunner::Expectation::times(std::size_t n) {
  times_ = n;
  unlimited_ = false;
  return *this;
}

ScriptedRunner::Expectation& ScriptedRunner::Expectation::repeatedly() {
  unlimited_ = true;
  return *this;
}

ScriptedRunner::Expectation& ScriptedRunner::Expectation::after(milliseconds delay) {
  delay_ = delay;
  return *this;
}

ScriptedRunner::Expectation& ScriptedRunner::add(CallKind kind, Matcher matcher,
                                                 std::string description) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Expectation& expectation = expectations_.emplace_back();
  expectation.kind_ = kind;
  expectation.matcher_ = std::move(matcher);
  expectation.description_ = std::move(description);
  return expectation;
}

ScriptedRunner::Expectation& ScriptedRunner::on_run(Argv argv, Completion completion) {
  std::string description = join(argv);
  return on_run([expected = std::move(argv)](const Argv& actual) { return actual == expected; },
                std::move(description), std::move(completion));
}

ScriptedRunner::Expectation& ScriptedRunner::on_run(Matcher matcher, std::string description,
                                                    Completion completion) {
  Expectation& expectation = add(CallKind::Run, std::move(matcher), std::move(description));
  expectation.completion_ = std::move(completion);
  return expectation;
}

ScriptedRunner::Expectation& ScriptedRunner::on_start(Argv argv,
                                                      std::vector<ScriptedEvent> script) {
  std::string description = join(argv);
  return on_start([expected = std::move(argv)](const Argv& actual) { return actual == expected; },
                  std::move(description), std::move(script));
}

ScriptedRunner::Expectation& ScriptedRunner::on_start(Matcher matcher, std::string description,
                                                      std::vector<ScriptedEvent> script) {
  Expectation& expectation = add(CallKind::Start, std::move(matcher), std::move(description));
  expectation.script_ = std::move(script);
  return expectation;
}

ScriptedRunner::Expectation& ScriptedRunner::on_spawn_failure(Argv prefix, int spawn_errno) {
  std::string description = "spawn failure: " + join(prefix);
  Expectation& expectation =
      add(CallKind::Run, starts_with(std::move(prefix)), std::move(description));
  expectation.spawn_errno_ = spawn_errno;
  return expectation.repeatedly();
}

ScriptedRunner::Expectation* ScriptedRunner::match(CallKind kind, const Argv& argv) {
  for (Expectation& expectation : expectations_) {
    if (expectation.kind_ != kind && expectation.spawn_errno_ == 0) continue;
    if (!expectation.unlimited_ && expectation.used_ >= expectation.times_) continue;
    if (!expectation.matcher_(argv)) continue;
    ++expectation.used_;
    return &expectation;
  }
  return nullptr;
}

Completion ScriptedRunner::run(const CommandSpec& spec) {
  Completion completion;
  milliseconds delay{0};
  std::size_t index = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    index = calls_.size();
    Call& call = calls_.emplace_back();
    call.kind = CallKind::Run;
    call.argv = spec.argv;
    call.timeout = spec.timeout;
    if (!spec.despite_interrupt && cancelled()) {
      call.result = CallResult::Cancelled;
      call.returned = true;
      completion.status = Completion::Status::Cancelled;
      return completion;
    }
    const Expectation* expectation = match(CallKind::Run, spec.argv);
    if (expectation == nullptr) {
      call.result = CallResult::Unexpected;
      call.returned = true;
      completion.status = Completion::Status::SpawnFailed;
      completion.spawn_errno = kUnscriptedErrno;
      return completion;
    }
    if (expectation->spawn_errno_ != 0) {
      call.returned = true;
      completion.status = Completion::Status::SpawnFailed;
      completion.spawn_errno = expectation->spawn_errno_;
      return completion;
    }
    completion = expectation->completion_;
    delay = expectation->delay_;
  }
  const auto answer = [&](Completion done) {
    const std::lock_guard<std::mutex> lock(mutex_);
    calls_[index].returned = true;
    return done;
  };
  // Sleep outside the lock: other threads may run their own scripted calls meanwhile.
  const milliseconds limit = std::max(spec.timeout, milliseconds::zero());
  const bool times_out = delay >= limit;
  const Clock::time_point started = Clock::now();
  if (!spec.despite_interrupt && !idle(times_out ? limit : delay, cancel_token())) {
    completion.status = Completion::Status::Cancelled;
    completion.exit_code = -1;
    completion.signal = SIGTERM;
    completion.elapsed = std::chrono::duration_cast<milliseconds>(Clock::now() - started);
    return answer(std::move(completion));
  }
  if (times_out) {
    completion.status = Completion::Status::TimedOut;
    completion.exit_code = -1;
    completion.signal = SIGTERM;
    completion.elapsed = limit;
  } else if (completion.elapsed == milliseconds::zero()) {
    completion.elapsed = delay;
  }
  return answer(std::move(completion));
}

Started ScriptedRunner::start(const StreamSpec& spec) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const Argv& argv = spec.argv;
  Call& call = calls_.emplace_back();
  call.kind = CallKind::Start;
  call.argv = argv;
  call.environment = spec.environment;
  if (cancelled()) {
    call.result = CallResult::Cancelled;
    return Unexpected{SpawnError{ECANCELED}};
  }
  const Expectation* expectation = match(CallKind::Start, argv);
  if (expectation == nullptr) {
    call.result = CallResult::Unexpected;
    return Unexpected{SpawnError{kUnscriptedErrno}};
  }
  if (expectation->spawn_errno_ != 0) return Unexpected{SpawnError{expectation->spawn_errno_}};
  auto log = std::make_shared<StreamLog>();
  call.stream = log;
  return std::unique_ptr<Stream>(std::make_unique<ScriptedStream>(
      expectation->script_, std::move(log), next_pid_++, cancel_token()));
}

std::vector<ScriptedRunner::Call> ScriptedRunner::calls() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

std::vector<ScriptedRunner::Call> ScriptedRunner::unexpected_calls() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Call> unexpected;
  std::copy_if(calls_.begin(), calls_.end(), std::back_inserter(unexpected),
               [](const Call& call) { return call.result == CallResult::Unexpected; });
  return unexpected;
}

std::size_t ScriptedRunner::call_count(const Argv& argv) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count_if(
      calls_.begin(), calls_.end(), [&argv](const Call& call) { return call.argv == argv; }));
}

std::vector<std::string> ScriptedRunner::unmet_expectations() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> unmet;
  for (const Expectation& expectation : expectations_) {
    const std::size_t wanted = expectation.unlimited_ ? 0 : expectation.times_;
    if (expectation.used_ < wanted) {
      unmet.push_back(expectation.description_ + " (" + std::to_string(expectation.used_) + " of " +
                      std::to_string(wanted) + " calls)");
    }
  }
  return unmet;
}

Completion ScriptedRunner::exited(int exit_code, std::string out, std::string err) {
  Completion completion;
  completion.status = Completion::Status::Exited;
  completion.exit_code = exit_code;
  completion.out = std::move(out);
  completion.err = std::move(err);
  return completion;
}

ScriptedEvent ScriptedRunner::out_chunk(std::string bytes, milliseconds after) {
  ScriptedEvent scripted;
  scripted.event.out = std::move(bytes);
  scripted.after = after;
  return scripted;
}

ScriptedEvent ScriptedRunner::err_chunk(std::string bytes, milliseconds after) {
  ScriptedEvent scripted;
  scripted.event.err = std::move(bytes);
  scripted.after = after;
  return scripted;
}

ScriptedEvent ScriptedRunner::exit_event(int exit_code, milliseconds after) {
  ScriptedEvent scripted;
  scripted.event.exited = true;
  scripted.event.exit_code = exit_code;
  scripted.after = after;
  return scripted;
}

ScriptedRunner::Matcher ScriptedRunner::starts_with(Argv prefix) {
  return [prefix = std::move(prefix)](const Argv& argv) {
    return argv.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), argv.begin());
  };
}

}  // namespace clawperator::process
