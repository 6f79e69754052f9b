#include "clawperator/serve/connection_gate.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <list>
#include <thread>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/serve/response_headers.hpp"

namespace clawperator::serve {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kNoDescriptorPause{50};
constexpr int kSendBuffer = 64 * 1024;
// Connections refused for being over the caps that are kept open for the linger, reading to
// discard, so that their 503 arrives whole instead of a reset (a socket closed with the
// request unread sends RST, and the client may lose the 503 with it). Beyond this many at once
// a refused connection is closed at once: an attacker cannot hold descriptors through refusals.
constexpr std::size_t kMaxLingeringRefusals = 64;

std::pair<std::string, int> address_of(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    return {text, ntohs(v6.sin6_port)};
  }
  const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
  ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
  return {text, ntohs(v4.sin_port)};
}

std::string refusal(int status, const std::string& code, const std::string& message) {
  return closing_response(status, contract::to_json(contract::usage_error(code, message)));
}

// Best effort and never blocking: a refusal is a few hundred bytes, which a fresh socket's
// buffer always holds.
void send_now(int fd, const std::string& bytes) {
  (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace

struct ConnectionGate::Pending {
  int fd = -1;
  std::string remote;
  int remote_port = 0;
  RequestFramer framer;
  Clock::time_point deadline;
  bool draining = false;  // refused: reading only to discard, until EOF or the deadline
  bool admitted = true;   // counted by admit(): false for a connection over the caps
};

ConnectionGate::ConnectionGate(int listen_fd, GateLimits limits,
                               std::function<void(ReadyRequest)> dispatch)
    : listen_fd_(listen_fd), limits_(limits), dispatch_(std::move(dispatch)) {
  ::fcntl(listen_fd_, F_SETFL, ::fcntl(listen_fd_, F_GETFL) | O_NONBLOCK);
  if (::pipe2(wake_, O_NONBLOCK | O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
}

ConnectionGate::~ConnectionGate() {
  for (const int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void ConnectionGate::stop() {
  const char byte = 0;
  (void)!::write(wake_[1], &byte, 1);
}

bool ConnectionGate::admit(const std::string& remote) {
  const std::lock_guard lock(mutex_);
  std::size_t& mine = per_client_[remote];
  if (open_ >= limits_.max_connections || mine >= limits_.max_per_client) {
    if (mine == 0) per_client_.erase(remote);
    return false;
  }
  ++open_;
  ++mine;
  return true;
}

void ConnectionGate::release(const std::string& remote) {
  const std::lock_guard lock(mutex_);
  --open_;
  const auto found = per_client_.find(remote);
  if (found != per_client_.end() && --found->second == 0) per_client_.erase(found);
}

void ConnectionGate::finished(int fd, const std::string& remote) {
  ::shutdown(fd, SHUT_WR);
  ::close(fd);
  release(remote);
}

void ConnectionGate::run() {
  std::list<Pending> pending;
  std::vector<pollfd> fds;
  std::vector<Pending*> owners;
  std::vector<char> chunk(16 * 1024);
  std::size_t lingering_refusals = 0;
  auto close_pending = [this, &lingering_refusals](Pending& connection) {
    ::close(connection.fd);
    if (connection.admitted) {
      release(connection.remote);
    } else {
      --lingering_refusals;
    }
  };
  auto refuse = [this](Pending& connection, int status, const std::string& code,
                       const std::string& message) {
    io::log_event(io::LogLevel::Info, "serve.http.refused",
                  Json{{"status", status}, {"code", code}, {"remote", connection.remote}});
    send_now(connection.fd, refusal(status, code, message));
    ::shutdown(connection.fd, SHUT_WR);
    connection.draining = true;
    connection.deadline = Clock::now() + limits_.linger;
  };
  for (;;) {
    fds.clear();
    owners.clear();
    fds.push_back({wake_[0], POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    Clock::time_point next = Clock::now() + std::chrono::seconds(1);
    for (Pending& connection : pending) {
      fds.push_back({connection.fd, POLLIN, 0});
      owners.push_back(&connection);
      next = std::min(next, connection.deadline);
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now());
    const int ready =
        ::poll(fds.data(), fds.size(), static_cast<int>(std::max<long long>(0, wait.count()) + 1));
    if (ready < 0 && errno != EINTR) break;
    if (fds[0].revents != 0) break;

    for (std::size_t i = 2; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Pending& connection = *owners[i - 2];
      const ssize_t got = ::recv(connection.fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (got <= 0) {
        connection.deadline = Clock::time_point::min();  // gone: closed below
        connection.draining = true;
        continue;
      }
      if (connection.draining) continue;
      const auto state =
          connection.framer.feed(std::string_view(chunk.data(), static_cast<std::size_t>(got)));
      if (state == RequestFramer::State::Refused) {
        const FrameError& why = connection.framer.refusal();
        refuse(connection, why.status, why.code, why.message);
      } else if (state == RequestFramer::State::Complete) {
        ReadyRequest request;
        request.fd = connection.fd;
        request.bytes = std::string(connection.framer.request());
        request.remote = connection.remote;
        request.remote_port = connection.remote_port;
        sockaddr_storage local{};
        socklen_t length = sizeof local;
        if (::getsockname(connection.fd, reinterpret_cast<sockaddr*>(&local), &length) == 0) {
          std::tie(request.local, request.local_port) = address_of(local);
        }
        connection.fd = -1;  // the worker's now
        dispatch_(std::move(request));
      }
    }

    const auto now = Clock::now();
    for (auto it = pending.begin(); it != pending.end();) {
      Pending& connection = *it;
      if (connection.fd < 0) {
        it = pending.erase(it);
        continue;
      }
      if (now >= connection.deadline) {
        if (!connection.draining) {
          refuse(connection, 408, "REQUEST_TIMEOUT",
                 "The request was not received whole within " +
                     std::to_string(limits_.request_deadline.count()) + " ms");
          ++it;
          continue;
        }
        close_pending(connection);
        it = pending.erase(it);
        continue;
      }
      ++it;
    }

    if (fds[1].revents == 0) continue;
    for (;;) {
      sockaddr_storage peer{};
      socklen_t length = sizeof peer;
      const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &length,
                               SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        // Out of descriptors: the listener stays readable, so pause instead of spinning.
        if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(kNoDescriptorPause);
        break;
      }
      auto [remote, port] = address_of(peer);
      if (!admit(remote)) {
        io::log_event(io::LogLevel::Warn, "serve.http.refused",
                      Json{{"status", 503}, {"code", "TOO_MANY_CONNECTIONS"}, {"remote", remote}});
        send_now(fd, refusal(503, "TOO_MANY_CONNECTIONS",
                             "This client, or all clients together, hold as many connections as "
                             "the server allows"));
        if (lingering_refusals >= kMaxLingeringRefusals) {
          ::close(fd);
          continue;
        }
        ::shutdown(fd, SHUT_WR);
        ++lingering_refusals;
        Pending& refused = pending.emplace_back();
        refused.fd = fd;
        refused.remote = std::move(remote);
        refused.remote_port = port;
        refused.admitted = false;
        refused.draining = true;
        refused.deadline = Clock::now() + limits_.linger;
        continue;
      }
      // Fixed, not autotuned to megabytes: a peer that stops reading (a stalled event stream)
      // stalls our writes soon, and a write stalled for its timeout ends the connection.
      ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &kSendBuffer, sizeof kSendBuffer);
      Pending& connection = pending.emplace_back();
      connection.fd = fd;
      connection.remote = std::move(remote);
      connection.remote_port = port;
      connection.framer = RequestFramer(limits_.request);
      connection.deadline = Clock::now() + limits_.request_deadline;
    }
  }
  for (Pending& connection : pending) {
    if (connection.fd >= 0) close_pending(connection);
  }
}

}  // namespace clawperator::serve
