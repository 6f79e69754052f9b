// A small HTTP/1.1 server on 127.0.0.1 for the tests of `operator install`: plain, or TLS with
// a certificate the test made (tests/support/test_ca.hpp); each request it answers is logged,
// so that a test can count the downloads; a route can answer with any status, or send part of
// its body and then nothing (a stalled download). One thread per connection; the destructor
// ends the stalled ones and joins them all.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/process/unique_fd.hpp"

namespace clawperator::testing {

class ReleaseServer {
 public:
  struct Tls {
    std::string certificate_file;  // PEM: the server's certificate (and its chain)
    std::string key_file;          // PEM: its key
  };
  struct Route {
    int status = 200;
    std::string body;
    // Send the headers (Content-Length of the whole body) and this many bytes of the body,
    // then nothing more until the client gives up or the server stops.
    std::optional<std::size_t> stall_after;
  };

  explicit ReleaseServer(std::optional<Tls> tls = std::nullopt);
  ~ReleaseServer();
  ReleaseServer(const ReleaseServer&) = delete;
  ReleaseServer& operator=(const ReleaseServer&) = delete;

  // What GET `path` answers from now on; a path without a route answers 404.
  void route(const std::string& path, Route route);
  // "http://127.0.0.1:PORT/path" (https with TLS).
  std::string url(const std::string& path) const;
  // The paths requested so far, in the order the requests arrived.
  std::vector<std::string> requests() const;
  std::size_t count(const std::string& path) const;

 private:
  void accept_loop();
  void serve(process::UniqueFd connection);

  std::optional<Tls> tls_;
  void* tls_context_ = nullptr;  // SSL_CTX
  process::UniqueFd listener_;
  process::UniqueFd stop_read_;
  process::UniqueFd stop_write_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::map<std::string, Route> routes_;
  std::vector<std::string> requests_;
  std::vector<std::thread> connections_;
  std::thread acceptor_;
};

}  // namespace clawperator::testing
