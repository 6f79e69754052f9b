#include "vdevice/android/system/event_queue.hpp"

#include <algorithm>

namespace clawperator::vdevice::android {

void EventQueue::at(Clock::time_point when, std::function<void()> action) {
  events_.emplace(std::pair{std::max(when, now_), next_id_++}, std::move(action));
}

std::optional<EventQueue::Clock::time_point> EventQueue::next() const {
  if (events_.empty()) return std::nullopt;
  return events_.begin()->first.first;
}

void EventQueue::run_until(Clock::time_point now) {
  while (!events_.empty()) {
    const auto first = events_.begin();
    const Clock::time_point due = first->first.first;
    if (due > now) break;
    std::function<void()> action = std::move(first->second);
    events_.erase(first);
    if (due > now_) now_ = due;
    action();
  }
  now_ = std::max(now_, now);
}

}  // namespace clawperator::vdevice::android
