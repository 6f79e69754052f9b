#include "vdevice/adb/server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <system_error>

namespace clawperator::vdevice::adb {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kMaxPollWait{100};
constexpr milliseconds kAcceptPause{100};
constexpr std::size_t kReadChunk = std::size_t{64} << 10;
// Per connection and loop turn, so that one busy host cannot starve the others or the timers.
constexpr std::size_t kReadBudget = std::size_t{2} << 20;

std::int64_t now_ms() noexcept {
  return std::chrono::duration_cast<milliseconds>(Clock::now().time_since_epoch()).count();
}

std::string errno_text(std::string_view what, int error) {
  return std::string(what) + ": " + std::strerror(error);
}

std::string exception_text(std::string_view what) {
  try {
    throw;
  } catch (const std::exception& e) {
    return std::string(what) + ": " + e.what();
  } catch (...) {
    return std::string(what) + ": unknown exception";
  }
}

}  // namespace

AdbDeviceServer::AdbDeviceServer(Device& device, const std::string& host, std::uint16_t port)
    : device_(device), read_buffer_(kReadChunk) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    throw std::system_error(EINVAL, std::generic_category(), "not an IPv4 address: " + host);
  }
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw std::system_error(errno, std::generic_category(), "socket");
  const auto fail = [this](const char* what) {
    const int error = errno;
    ::close(listen_fd_);
    listen_fd_ = -1;
    throw std::system_error(error, std::generic_category(), what);
  };
  const int one = 1;
  // A restarted device must get its port back while old connections sit in TIME_WAIT.
  if (setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) {
    fail("setsockopt(SO_REUSEADDR)");
  }
  // sockaddr_in is the documented argument of bind() for AF_INET: the cast is the API.
  const auto* generic = reinterpret_cast<const sockaddr*>(&address);
  if (::bind(listen_fd_, generic, sizeof address) != 0) fail("bind");
  if (::listen(listen_fd_, SOMAXCONN) != 0) fail("listen");
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    fail("getsockname");
  }
  port_ = ntohs(bound.sin_port);
  device_.attach_transport(this);
}

AdbDeviceServer::~AdbDeviceServer() {
  // Sessions told of the shutdown must not reach a transport that is half destroyed.
  try {
    device_.attach_transport(nullptr);
  } catch (...) {
    log("attach_transport(nullptr) threw");
  }
  for (auto& connection : connections_) close_connection(*connection, "server destroyed");
  reap_closed();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

bool AdbDeviceServer::run(const std::atomic<bool>& stop) {
  error_.clear();
  bool ok = false;
  try {
    ok = serve(stop);
  } catch (...) {
    // Only the loop's own allocations can get here (device calls are contained where made).
    error_ = exception_text("event loop");
  }
  for (auto& connection : connections_) close_connection(*connection, "server stopped");
  reap_closed();
  return ok;
}

bool AdbDeviceServer::serve(const std::atomic<bool>& stop) {
  std::vector<pollfd> fds;
  while (!stop.load(std::memory_order_relaxed)) {
    reap_closed();
    tick_device();
    for (auto& connection : connections_) {
      if (connection->fd < 0) continue;
      try {
        connection->protocol.pump();
      } catch (...) {
        close_connection(*connection, exception_text("pump"));
        continue;
      }
      write_to(*connection);
    }
    reap_closed();

    const std::size_t polled = connections_.size();
    fds.clear();
    const bool accepting = now_ms() >= accept_paused_until_ms_;
    fds.push_back(pollfd{accepting ? listen_fd_ : -1, POLLIN, 0});
    for (const auto& connection : connections_) {
      short events = POLLIN;
      if (!connection->protocol.output().empty()) events |= POLLOUT;
      fds.push_back(pollfd{connection->fd, events, 0});
    }
    // After the connections: only their revents are read back; the device's descriptors
    // just wake the loop, and tick_device() below does the reading.
    watched_.clear();
    try {
      device_.add_watched_fds(watched_);
    } catch (...) {
      log(exception_text("device add_watched_fds"));
    }
    for (const int fd : watched_) fds.push_back(pollfd{fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), poll_timeout_ms()) < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      error_ = errno_text("poll", errno);
      return false;
    }
    // The device's clock to the time the input arrives (the timers due by then first): a
    // command reads its start from it, and the poll may have waited up to kMaxPollWait since
    // the last tick (a screen recording's duration is measured against the host's wall time).
    tick_device();
    for (std::size_t i = 0; i < polled; ++i) {
      Connection& connection = *connections_[i];
      const short revents = fds[i + 1].revents;
      if (connection.fd < 0 || revents == 0) continue;
      if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0) read_from(connection);
      if (connection.fd >= 0 && (revents & POLLOUT) != 0) write_to(connection);
    }
    const short listen_events = fds[0].revents;
    if ((listen_events & (POLLERR | POLLNVAL)) != 0) {
      error_ = "the listening socket failed";
      return false;
    }
    if ((listen_events & POLLIN) != 0) accept_connections();
  }
  return true;
}

void AdbDeviceServer::drop_all_connections() {
  for (auto& connection : connections_) {
    close_connection(*connection, "dropped by the device");
  }
}

void AdbDeviceServer::accept_connections() {
  for (;;) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      const int error = errno;
      if (error == EINTR || error == ECONNABORTED || error == EPROTO) continue;
      if (error == EAGAIN || error == EWOULDBLOCK) return;
      log(errno_text("accept", error));
      accept_paused_until_ms_ = now_ms() + kAcceptPause.count();
      return;
    }
    const int one = 1;
    // Every message is a small request or reply: Nagle's delay would only add latency.
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    try {
      connections_.push_back(std::make_unique<Connection>(device_, fd));
    } catch (...) {
      ::close(fd);
      log(exception_text("accept"));
      return;
    }
    connection_count_.store(connections_.size(), std::memory_order_relaxed);
  }
}

void AdbDeviceServer::read_from(Connection& connection) {
  std::size_t budget = kReadBudget;
  while (connection.fd >= 0 && budget > 0) {
    const ssize_t n = ::recv(connection.fd, read_buffer_.data(), read_buffer_.size(), 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      close_connection(connection, errno_text("recv", errno));
      return;
    }
    if (n == 0) {
      close_connection(connection, "closed by the host");
      return;
    }
    const auto size = static_cast<std::size_t>(n);
    budget -= std::min(budget, size);
    try {
      connection.protocol.on_bytes(std::string_view(read_buffer_.data(), size));
    } catch (...) {
      close_connection(connection, exception_text("handling host bytes"));
      return;
    }
    // A session callback may have dropped every connection, this one included.
    if (connection.fd < 0) return;
    if (connection.protocol.wants_close()) {
      close_connection(connection, connection.protocol.close_reason());
      return;
    }
  }
}

void AdbDeviceServer::write_to(Connection& connection) {
  while (connection.fd >= 0) {
    const std::string_view pending = connection.protocol.output();
    if (pending.empty()) return;
    const ssize_t n = ::send(connection.fd, pending.data(), pending.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      close_connection(connection, errno_text("send", errno));
      return;
    }
    connection.protocol.consume_output(static_cast<std::size_t>(n));
  }
}

void AdbDeviceServer::close_connection(Connection& connection, std::string_view reason) noexcept {
  if (connection.fd < 0) return;
  ::close(connection.fd);
  connection.fd = -1;
  connection.protocol.abandon();
  log("connection closed: ", reason);
}

void AdbDeviceServer::reap_closed() noexcept {
  const auto closed = [](const std::unique_ptr<Connection>& c) { return c->fd < 0; };
  if (std::none_of(connections_.begin(), connections_.end(), closed)) return;
  // Moved out first: ending a session may call drop_all_connections(), which walks
  // connections_.
  std::vector<std::unique_ptr<Connection>> ended;
  for (auto& connection : connections_) {
    if (connection->fd < 0) ended.push_back(std::move(connection));
  }
  std::erase(connections_, nullptr);
  connection_count_.store(connections_.size(), std::memory_order_relaxed);
  for (auto& connection : ended) connection->protocol.end_sessions();
}

void AdbDeviceServer::tick_device() noexcept {
  try {
    device_.tick(Clock::now());
  } catch (...) {
    log(exception_text("device tick"));
  }
}

int AdbDeviceServer::poll_timeout_ms() noexcept {
  milliseconds wait = kMaxPollWait;
  try {
    if (const auto deadline = device_.next_deadline()) {
      const auto now = Clock::now();
      // Rounded up: waking a little early would only spin until the deadline.
      wait = *deadline <= now ? milliseconds::zero()
                              : std::min(wait, std::chrono::ceil<milliseconds>(*deadline - now));
    }
  } catch (...) {
    log(exception_text("device next_deadline"));
  }
  for (const auto& connection : connections_) {
    // Closed on this turn by a callback: reap them without waiting.
    if (connection->fd < 0) return 0;
  }
  return static_cast<int>(wait.count());
}

void AdbDeviceServer::log(std::string_view line, std::string_view detail) noexcept {
  if (!log_) return;
  try {
    log_(std::string(line).append(detail));
  } catch (...) {
    // Logging is best effort.
  }
}

}  // namespace clawperator::vdevice::adb
