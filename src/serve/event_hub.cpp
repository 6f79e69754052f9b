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
    queued_bytes_ -= out.size();
    return Wait::Event;
  }
  return closed_ ? Wait::Closed : Wait::Timeout;
}

void Subscription::push(const std::string& text) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    const bool behind = !queue_.empty() && (queue_.size() >= EventHub::kQueueLimit ||
                                            queued_bytes_ + text.size() > hub_.queue_bytes_);
    if (behind) {
      // Memory stays bounded by what one subscriber may hold; it learns why its stream ends.
      Json why = {{"code", "SSE_SUBSCRIBER_TOO_SLOW"},
                  {"message",
                   "This stream fell too far behind the server's events and is closed; "
                   "reconnect to follow again"},
                  {"queuedEvents", queue_.size()},
                  {"queuedBytes", queued_bytes_}};
      queue_.clear();
      queue_.push_back(format_sse("dropped", why));
      queued_bytes_ = queue_.back().size();
      closed_ = true;
    } else {
      queue_.push_back(text);
      queued_bytes_ += text.size();
    }
  }
  ready_.notify_one();
}

std::size_t Subscription::queued_bytes() const {
  std::lock_guard lock(mutex_);
  return queued_bytes_;
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
  const std::string text = format_sse(name, redaction_.apply(data));
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

std::size_t EventHub::queued_bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const Subscription* subscription : subscribers_) total += subscription->queued_bytes();
  return total;
}

void EventHub::forget(Subscription* subscription) {
  std::lock_guard lock(mutex_);
  subscribers_.erase(std::remove(subscribers_.begin(), subscribers_.end(), subscription),
                     subscribers_.end());
}

}  // namespace clawperator::serve
