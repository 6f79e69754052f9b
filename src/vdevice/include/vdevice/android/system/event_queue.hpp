// The device's timers on the transport's event loop: actions run in time order, and while one
// runs the device's clock reads its due time, so log timestamps and timings stay exact even
// when the loop wakes up late.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>

namespace clawperator::vdevice::android {

class EventQueue {
 public:
  using Clock = std::chrono::steady_clock;

  explicit EventQueue(Clock::time_point start) : now_(start) {}

  // A time in the past runs at the next run_until(), after what is already due.
  void at(Clock::time_point when, std::function<void()> action);
  void after(std::chrono::milliseconds delay, std::function<void()> action) {
    at(now_ + delay, std::move(action));
  }

  std::optional<Clock::time_point> next() const;
  // Runs everything due by `now`, including events that due events schedule for then.
  void run_until(Clock::time_point now);
  Clock::time_point now() const noexcept { return now_; }
  bool empty() const noexcept { return events_.empty(); }

 private:
  std::map<std::pair<Clock::time_point, std::uint64_t>, std::function<void()>> events_;
  Clock::time_point now_;
  std::uint64_t next_id_ = 0;
};

}  // namespace clawperator::vdevice::android
