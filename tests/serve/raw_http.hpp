// Raw HTTP over a socket of the test's own, for what curl cannot do on purpose: drip a request
// byte by byte, stall on a stream, send a body bigger than any limit. 127.0.0.1 only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proc_files.hpp"

namespace clawperator::testing {

// A connected socket to 127.0.0.1:port (-1 on failure); `receive_buffer` > 0 sets SO_RCVBUF
// before connecting, which is what bounds the window the server may fill.
inline int connect_local(int port, int receive_buffer = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (receive_buffer > 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// What arrives until the peer closes or `limit` passes (or `enough` bytes have come).
inline std::string receive(int fd, std::chrono::milliseconds limit,
                           std::size_t enough = std::string::npos) {
  std::string out;
  const auto until = std::chrono::steady_clock::now() + limit;
  char buffer[16384];
  while (out.size() < enough) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) break;
    out.append(buffer, static_cast<std::size_t>(got));
  }
  return out;
}

// Whether the peer closed within `limit` (reading and discarding whatever comes first).
inline bool closed_within(int fd, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  char buffer[16384];
  while (std::chrono::steady_clock::now() < until) {
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, 100) <= 0) continue;
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) return true;
  }
  return false;
}

// The two ends of `client`'s connection (a socket of connect_local) as /proc/net/tcp writes them:
// "0100007F:PORT" each, the server's first.
inline std::pair<std::string, std::string> tcp_ends(int client) {
  sockaddr_in local{};
  sockaddr_in peer{};
  socklen_t size = sizeof local;
  if (::getsockname(client, reinterpret_cast<sockaddr*>(&local), &size) != 0) return {};
  size = sizeof peer;
  if (::getpeername(client, reinterpret_cast<sockaddr*>(&peer), &size) != 0) return {};
  char server_end[32];
  char client_end[32];
  std::snprintf(server_end, sizeof server_end, "0100007F:%04X", ntohs(peer.sin_port));
  std::snprintf(client_end, sizeof client_end, "0100007F:%04X", ntohs(local.sin_port));
  return {server_end, client_end};
}

// Whether the server has accepted every connection of `clients` (sockets of connect_local): the
// server's end is in /proc/net/tcp from the handshake on, but has an inode only once accept()
// made it a socket of the server's. The table is read once for all: with the sockets of every
// test running beside this one (adb's TIME_WAITs above all) it can hold thousands of lines, and
// a read per client made one check take seconds on a loaded CI machine (the 64-dripper case
// failed so, twice, stop 55).
inline bool all_accepted(const std::vector<int>& clients) {
  std::set<std::pair<std::string, std::string>> wanted;
  for (const int client : clients) wanted.insert(tcp_ends(client));
  std::istringstream table(read_proc_file("/proc/net/tcp"));
  for (std::string line; std::getline(table, line) && !wanted.empty();) {
    std::istringstream fields(line);
    std::string slot, from, to, state, queues, timer, retransmits, uid, timeout, inode;
    fields >> slot >> from >> to >> state >> queues >> timer >> retransmits >> uid >> timeout >>
        inode;
    if (!inode.empty() && inode != "0") wanted.erase({from, to});
  }
  return wanted.empty();
}

// The resident set of a process, in KiB (VmRSS).
inline long resident_kib(pid_t pid) {
  std::istringstream status(read_proc_file("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

inline std::string request_head(const std::string& method, const std::string& path, int port,
                                const std::string& token, const std::string& extra = "") {
  return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n" +
         (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n") + extra + "\r\n";
}

}  // namespace clawperator::testing
