// Cancelling one piece of work (one execution of a long-lived server) without a signal: the
// process-wide interrupt (interrupt.hpp) stops everything, a CancelSource stops only the runs
// of the runner created with its token. A runner polls the token's descriptor in every wait it
// makes, exactly as it polls the interrupt's self-pipe, so a cancellation takes effect at once
// and the children are stopped and reaped the same way.
#pragma once

#include <memory>

namespace clawperator::process {

namespace detail {
struct CancelState;
}

// What a runner watches. Copies share one state; a default token is never cancelled.
class CancelToken {
 public:
  CancelToken() = default;
  bool cancelled() const noexcept;
  // Readable once cancelled (an eventfd); -1 for a default token. Put it in every poll set.
  int fd() const noexcept;

 private:
  friend class CancelSource;
  explicit CancelToken(std::shared_ptr<const detail::CancelState> state) noexcept
      : state_(std::move(state)) {}
  std::shared_ptr<const detail::CancelState> state_;
};

class CancelSource {
 public:
  // Without an eventfd (EMFILE) the token still works: waits then notice it within their
  // own slices rather than at once.
  CancelSource();
  ~CancelSource();
  CancelSource(const CancelSource&) = delete;
  CancelSource& operator=(const CancelSource&) = delete;

  // Idempotent; safe from any thread (not from a signal handler).
  void cancel() noexcept;
  bool cancelled() const noexcept;
  CancelToken token() const noexcept;

 private:
  std::shared_ptr<detail::CancelState> state_;
};

// The process was interrupted (SIGINT/SIGTERM) or `token` was cancelled: the one test every
// wait of a runner makes.
bool stop_requested(const CancelToken& token) noexcept;

}  // namespace clawperator::process
