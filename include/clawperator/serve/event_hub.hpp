// The live event stream of GET /events: every execution the server runs, whoever sent it,
// fanned out to a bounded number of subscribers, each with a queue bounded in events and in
// bytes. A subscriber that falls that far behind is dropped: its queue is replaced by one
// `dropped` event, then its stream ends; a publisher never waits for a subscriber.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/redaction.hpp"
#include "clawperator/json.hpp"

namespace clawperator::serve {

// "event: NAME\ndata: JSON\n\n" (compact JSON has no newline).
std::string format_sse(std::string_view name, const Json& data);

class EventHub;

class Subscription {
 public:
  enum class Wait { Event, Timeout, Closed };
  // The next formatted event into `out`, waiting up to `wait`.
  Wait next(std::chrono::milliseconds wait, std::string& out);
  ~Subscription();
  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;

 private:
  friend class EventHub;
  explicit Subscription(EventHub& hub) : hub_(hub) {}
  void push(const std::string& text);
  void close();
  std::size_t queued_bytes() const;

  EventHub& hub_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  bool closed_ = false;
};

class EventHub {
 public:
  static constexpr std::size_t kQueueLimit = 256;
  // An event larger than this alone is still queued to a subscriber that is up to date.
  static constexpr std::size_t kQueueBytes = std::size_t{4} << 20;
  explicit EventHub(std::size_t max_subscribers, std::size_t queue_bytes = kQueueBytes)
      : max_subscribers_(max_subscribers), queue_bytes_(queue_bytes) {}

  // nullptr when max_subscribers are connected or the hub is closed. The first event of
  // every subscription is the `heartbeat`.
  std::shared_ptr<Subscription> subscribe();
  // `data` goes out redacted (set_redaction): an event is a body too (docs/serve.md §4).
  void publish(std::string_view name, const Json& data);
  void set_redaction(contract::HostRedaction redaction) { redaction_ = std::move(redaction); }
  // Ends every subscription (shutdown); later subscribe() calls get nullptr.
  void close();
  std::size_t subscribers() const;
  // What the subscribers hold, together.
  std::size_t queued_bytes() const;

 private:
  friend class Subscription;
  void forget(Subscription* subscription);
  contract::HostRedaction redaction_;

  const std::size_t max_subscribers_;
  const std::size_t queue_bytes_;
  mutable std::mutex mutex_;
  std::vector<Subscription*> subscribers_;
  bool closed_ = false;
};

}  // namespace clawperator::serve
