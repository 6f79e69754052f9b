// Turns a deadline into poll(2)'s millisecond timeout.
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>

namespace clawperator::process {

// Rounded up: rounding down would wake early and spin through zero-timeout polls.
inline int poll_timeout_ms(std::chrono::steady_clock::time_point deadline,
                           std::chrono::steady_clock::time_point now) noexcept {
  if (now >= deadline) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, INT_MAX));
}

}  // namespace clawperator::process
