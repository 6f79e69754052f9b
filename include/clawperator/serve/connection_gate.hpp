// The server's front door (docs/serve.md §4 "Bounds"): one thread accepts every connection and
// reads each request whole, without blocking, before a worker thread sees it. A client that
// drips bytes, sends too much, or opens too many connections costs a descriptor and a bounded
// buffer, never a worker, and is answered by this gate itself: 408 when the request is not
// whole within the deadline, 413 / 431 / 400 as the framer decides (request_framer.hpp), 503
// beyond the connection caps. Every connection serves one request and closes.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "clawperator/serve/request_framer.hpp"

namespace clawperator::serve {

struct GateLimits {
  RequestLimits request;
  std::chrono::milliseconds request_deadline{10000};  // from accept to the whole request
  std::chrono::milliseconds linger{2000};             // reading and discarding after a refusal
  std::size_t max_connections = 256;                  // open at once, whoever opened them
  std::size_t max_per_client = 96;                    // open at once from one address
};

// A request read whole, handed to a worker, which answers it and then calls
// ConnectionGate::finished(fd, remote) (closing the descriptor).
struct ReadyRequest {
  int fd = -1;
  std::string bytes;
  std::string remote;  // the peer's address
  int remote_port = 0;
  std::string local;
  int local_port = 0;
};

class ConnectionGate {
 public:
  // `listen_fd`: a listening socket (the gate makes it non-blocking; the caller closes it).
  ConnectionGate(int listen_fd, GateLimits limits, std::function<void(ReadyRequest)> dispatch);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  // Accepts and reads until stop(); then closes every connection it still holds.
  void run();
  // From any thread.
  void stop();
  // A worker is done with a dispatched request's connection: closes it, and its slot is free.
  void finished(int fd, const std::string& remote);

 private:
  struct Pending;
  bool admit(const std::string& remote);
  void release(const std::string& remote);

  int listen_fd_;
  GateLimits limits_;
  std::function<void(ReadyRequest)> dispatch_;
  int wake_[2] = {-1, -1};
  std::mutex mutex_;  // the counts below: the gate admits, workers release
  std::size_t open_ = 0;
  std::map<std::string, std::size_t> per_client_;
};

}  // namespace clawperator::serve
