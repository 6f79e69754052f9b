// Sockets for tests that play an adb server on 127.0.0.1 (the relay's and the server shell's
// unit tests): a listener on an ephemeral port, and reads and writes with deadlines so that a
// bug fails the test instead of hanging it.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <string>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::testing {

// The runner's owner of one descriptor.
using Fd = process::UniqueFd;

// A TCP listener on 127.0.0.1 with an ephemeral port.
struct TcpListener {
  Fd fd{socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)};
  int port = 0;

  TcpListener() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(listen(fd.get(), 8) == 0);
    socklen_t size = sizeof address;
    REQUIRE(getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &size) == 0);
    port = ntohs(address.sin_port);
  }

  adb::LoopbackTcpServer server() const { return {adb::LoopbackTcpServer::Family::IPv4, port}; }

  Fd accept_one() const {
    pollfd ready{fd.get(), POLLIN, 0};
    REQUIRE(poll(&ready, 1, 5000) == 1);
    return Fd(accept4(fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
  }
};

inline void send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    REQUIRE(n > 0);
    sent += static_cast<std::size_t>(n);
  }
}

// Reads until `count` bytes or end of stream, with a deadline so that a bug fails, not hangs.
inline std::string read_up_to(int fd, std::size_t count) {
  std::string bytes;
  char buffer[65536];
  while (bytes.size() < count) {
    pollfd ready{fd, POLLIN, 0};
    REQUIRE(poll(&ready, 1, 10000) == 1);
    const ssize_t n = recv(fd, buffer, std::min(sizeof buffer, count - bytes.size()), 0);
    REQUIRE(n >= 0);
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return bytes;
}

// True when the peer has ended its side: a read returns 0 (within the deadline).
inline bool at_end_of_stream(int fd) {
  pollfd ready{fd, POLLIN, 0};
  if (poll(&ready, 1, 10000) != 1) return false;
  char byte;
  return recv(fd, &byte, 1, 0) == 0;
}

}  // namespace clawperator::testing
