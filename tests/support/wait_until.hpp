// Waiting for a condition rather than for a fixed time: a test that orders events (the call is in
// flight, the script has started) waits until it sees the event, under any load, and no longer.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace clawperator::testing {

// Polls `done` every `step` until it holds (true) or `limit` has passed (false).
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit,
                       std::chrono::milliseconds step = std::chrono::milliseconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(step);
  }
  return true;
}

}  // namespace clawperator::testing
