#include "clawperator/adb/loopback_connect.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdint>

#include "clawperator/process/poll_timeout.hpp"

namespace clawperator::adb {

using process::UniqueFd;

namespace {

using Clock = std::chrono::steady_clock;

void disable_nagle(int fd) noexcept {
  const int on = 1;
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

UniqueFd connect_loopback_within(int family, const sockaddr* address, socklen_t length,
                                 Clock::time_point deadline) {
  UniqueFd fd(socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return {};
  if (connect(fd.get(), address, length) != 0) {
    if (errno != EINPROGRESS) return {};
    for (;;) {
      pollfd writable{fd.get(), POLLOUT, 0};
      const int rc = poll(&writable, 1, process::poll_timeout_ms(deadline, Clock::now()));
      if (rc > 0) break;
      if (rc == 0 || errno != EINTR) return {};
    }
    int error = 0;
    socklen_t size = sizeof error;
    if (getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0) return {};
  }
  // Our writes are the client's requests: small, and nothing should hold them back either.
  disable_nagle(fd.get());
  return fd;
}

}  // namespace

UniqueFd connect_to_loopback_server(const LoopbackTcpServer& server, Clock::time_point deadline) {
  using Family = LoopbackTcpServer::Family;
  if (server.family != Family::IPv6) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(server.port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    UniqueFd fd = connect_loopback_within(AF_INET, reinterpret_cast<const sockaddr*>(&address),
                                          sizeof address, deadline);
    if (fd.valid() || server.family == Family::IPv4) return fd;
  }
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_port = htons(static_cast<std::uint16_t>(server.port));
  address.sin6_addr = in6addr_loopback;
  return connect_loopback_within(AF_INET6, reinterpret_cast<const sockaddr*>(&address),
                                 sizeof address, deadline);
}

}  // namespace clawperator::adb
