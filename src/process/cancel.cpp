#include "clawperator/process/cancel.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "clawperator/process/interrupt.hpp"

namespace clawperator::process {
namespace detail {

struct CancelState {
  CancelState() : fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}
  ~CancelState() {
    if (fd >= 0) ::close(fd);
  }
  CancelState(const CancelState&) = delete;
  CancelState& operator=(const CancelState&) = delete;

  std::atomic<bool> cancelled{false};
  const int fd;
};

}  // namespace detail

bool CancelToken::cancelled() const noexcept {
  return state_ != nullptr && state_->cancelled.load(std::memory_order_acquire);
}

int CancelToken::fd() const noexcept {
  return state_ != nullptr ? state_->fd : -1;
}

CancelSource::CancelSource() : state_(std::make_shared<detail::CancelState>()) {}

CancelSource::~CancelSource() = default;

void CancelSource::cancel() noexcept {
  if (state_->cancelled.exchange(true, std::memory_order_acq_rel)) return;
  if (state_->fd < 0) return;
  // The counter only has to become non-zero: it stays readable, since nobody reads it.
  const std::uint64_t one = 1;
  while (::write(state_->fd, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

bool CancelSource::cancelled() const noexcept {
  return state_->cancelled.load(std::memory_order_acquire);
}

CancelToken CancelSource::token() const noexcept {
  return CancelToken(state_);
}

bool stop_requested(const CancelToken& token) noexcept {
  return interrupted_signal() != 0 || token.cancelled();
}

}  // namespace clawperator::process
