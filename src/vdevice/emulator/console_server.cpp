#include "vdevice/emulator/console_server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace clawperator::vdevice::emulator {
namespace {

constexpr int kConsolePollMs = 100;
constexpr std::size_t kConsoleReadChunk = 4096;

[[noreturn]] void throw_listen_error(const char* what, std::uint16_t port) {
  throw std::system_error(errno, std::generic_category(),
                          std::string(what) + " 127.0.0.1:" + std::to_string(port));
}

}  // namespace

ConsoleServer::ConsoleServer(std::uint16_t port, const ConsoleConfig& config) : config_(config) {
  listener_.reset(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!listener_.valid()) throw_listen_error("socket for", port);
  const int one = 1;
  // A console restarted on its port must get it back while old connections sit in TIME_WAIT.
  if (setsockopt(listener_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) {
    throw_listen_error("SO_REUSEADDR on", port);
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  if (::bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    throw_listen_error("bind", port);
  }
  if (::listen(listener_.get(), SOMAXCONN) != 0) throw_listen_error("listen on", port);
}

ConsoleServer::~ConsoleServer() = default;

ConsoleServer::Outcome ConsoleServer::run(const std::atomic<bool>& stop, bool ignore_kill) {
  std::vector<pollfd> fds;
  while (!stop.load(std::memory_order_relaxed)) {
    fds.clear();
    fds.push_back(pollfd{listener_.get(), POLLIN, 0});
    for (const auto& client : clients_) fds.push_back(pollfd{client->socket.get(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), kConsolePollMs) < 0) {
      if (errno == EINTR) continue;
      error_ = std::string("poll: ") + std::strerror(errno);
      return Outcome::Failed;
    }
    bool kill = false;
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      if (fds[i + 1].revents == 0) continue;
      if (!serve_client(*clients_[i], kill)) clients_[i].reset();
    }
    std::erase(clients_, nullptr);
    if (kill) {
      if (!ignore_kill) {
        clients_.clear();
        return Outcome::Killed;
      }
      note("console: kill ignored (--ignore-kill)");
    }
    if ((fds[0].revents & POLLIN) != 0) accept_clients();
  }
  return Outcome::Stopped;
}

void ConsoleServer::accept_clients() {
  for (;;) {
    const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        note(std::string("console: accept: ") + std::strerror(errno));
      }
      return;
    }
    const int one = 1;
    // Each answer is one short write: Nagle's delay would only slow `adb emu` down.
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto client = std::make_unique<Client>(fd, config_);
    const std::string greeting = client->session.greeting();
    if (client->session.finished()) {
      note("console: connection refused, the auth token file is unavailable");
      continue;
    }
    if (send_all(*client, greeting)) clients_.push_back(std::move(client));
  }
}

bool ConsoleServer::serve_client(Client& client, bool& kill) {
  char buffer[kConsoleReadChunk];
  for (;;) {
    const ssize_t got = ::recv(client.socket.get(), buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    if (got == 0) return false;
    const std::string answers =
        client.session.on_bytes(std::string_view(buffer, static_cast<std::size_t>(got)));
    if (client.session.take_kill_request()) kill = true;
    if (!send_all(client, answers)) return false;
    if (client.session.finished()) return false;
  }
}

bool ConsoleServer::send_all(Client& client, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n =
        ::send(client.socket.get(), bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      note(std::string("console: send: ") + std::strerror(errno));
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

void ConsoleServer::note(std::string_view line) const {
  if (log_) log_(line);
}

}  // namespace clawperator::vdevice::emulator
