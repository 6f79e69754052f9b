#include "clawperator/serve/event_hub.hpp"

#include <algorithm>

namespace clawperator::serve {

std::string format_sse(std::string_view name, const Json& data) {
  std::string out = "event: ";
  out += name;
  out += "\ndata: ";
  out += dump_json(data);
  out += "\n\n";
  return out;
}

Subscription::Wait Subscription::next(std::chrono::milliseconds wait, std::string& out) {
  std::unique_lock lock(mutex_);
  ready_.wait_for(lock, wait, [this] { return closed_ || !queue_.empty(); });
  if (!queue_.empty()) {
    out = std::move(queue_.front());
    queue_.pop_front();
    return Wait::Event;
  }
  return closed_ ? Wait::Closed : Wait::Timeout;
}

void Subscription::push(const std::string& text) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= EventHub::kQueueLimit) queue_.pop_front();
    queue_.push_back(text);
  }
  ready_.notify_one();
}

void Subscription::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_one();
}

Subscription::~Subscription() {
  hub_.forget(this);
}

std::shared_ptr<Subscription> EventHub::subscribe() {
  std::lock_guard lock(mutex_);
  if (closed_ || subscribers_.size() >= max_subscribers_) return nullptr;
  std::shared_ptr<Subscription> subscription(new Subscription(*this));
  subscription->push(format_sse(
      "heartbeat", Json{{"code", "CONNECTED"}, {"message", "Clawperator SSE stream active"}}));
  subscribers_.push_back(subscription.get());
  return subscription;
}

void EventHub::publish(std::string_view name, const Json& data) {
  const std::string text = format_sse(name, data);
  std::lock_guard lock(mutex_);
  for (Subscription* subscription : subscribers_) subscription->push(text);
}

void EventHub::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  for (Subscription* subscription : subscribers_) subscription->close();
}

std::size_t EventHub::subscribers() const {
  std::lock_guard lock(mutex_);
  return subscribers_.size();
}

void EventHub::forget(Subscription* subscription) {
  std::lock_guard lock(mutex_);
  subscribers_.erase(std::remove(subscribers_.begin(), subscribers_.end(), subscription),
                     subscribers_.end());
}

}  // namespace clawperator::serve
