#include "clawperator/adb/server_relay.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include "clawperator/adb/loopback_connect.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/process/poll_timeout.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::adb {

using process::UniqueFd;

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadSize = std::size_t{64} << 10;
// Per direction: past this, the relay stops reading that side until the other drains, so a
// stalled reader holds back its writer instead of growing our memory.
constexpr std::size_t kMaxPending = std::size_t{1} << 20;
constexpr int kBindAttempts = 8;
// How much of each connection's first client bytes the relay keeps to see what was asked for:
// adb's requests are a few hundred bytes at most.
constexpr std::size_t kRequestHeadBytes = 1024;
// The service adb asks for a shell on a device that speaks shell protocol v2
// (`shell,v2,TERM=xterm:…`; docs/wire-protocol.md §2.7).
constexpr std::string_view kShellV2Service = "shell,v2,";

void set_flag(int fd, int level, int option) noexcept {
  const int on = 1;
  (void)setsockopt(fd, level, option, &on, sizeof on);
}

UniqueFd connect_to_server(const LoopbackTcpServer& server) {
  return connect_to_loopback_server(server, Clock::now() + ServerRelay::kConnectTimeout);
}

std::string random_socket_name() {
  // Uniqueness is all the name needs; the bind below retries on a collision.
  return "clawperator-adb-relay-" + std::to_string(getpid()) + "-" + io::random_hex(8);
}

// Binds a listening socket in the abstract namespace: nothing on disk to clean up, and the
// name disappears with the descriptor.
UniqueFd listen_abstract(std::string& name) {
  for (int attempt = 0; attempt < kBindAttempts; ++attempt) {
    UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) return {};
    name = random_socket_name();
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    // sun_path[0] stays '\0': the abstract namespace. The length, not a terminator, ends the
    // name, exactly as adb computes it for localabstract:NAME.
    std::memcpy(address.sun_path + 1, name.data(), name.size());
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), length) == 0) {
      if (listen(fd.get(), 8) != 0) return {};
      return fd;
    }
    if (errno != EADDRINUSE) return {};
  }
  return {};
}

bool same_user(int fd) noexcept {
  ucred peer{};
  socklen_t size = sizeof peer;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.uid == getuid();
}

// Bytes read from one socket and not yet written to the other.
struct Direction {
  std::string pending;
  std::size_t written = 0;
  bool source_closed = false;  // EOF read from the source
  bool shut_down = false;      // and passed on as a half-close to the destination

  std::size_t size() const noexcept { return pending.size() - written; }
  bool may_read() const noexcept { return !source_closed && size() < kMaxPending; }
  bool done() const noexcept { return shut_down; }
};

struct Connection {
  UniqueFd client, server;
  Direction to_server, to_client;
  std::string request_head;  // the client's first kRequestHeadBytes
  bool failed = false;

  bool finished() const noexcept { return failed || (to_server.done() && to_client.done()); }
};

// One read from `source` into `direction` (and the first bytes into `head`, when given); false
// on a hard error.
bool read_into(int source, Direction& direction, bool from_server, char* buffer,
               std::string* head) {
  const ssize_t n = recv(source, buffer, kReadSize, 0);
  if (from_server) {
    // The point of the relay: acknowledge now, so that the server's next segment leaves at
    // once instead of after our 40 ms delayed-ACK timer. The flag does not stick; set it each
    // time.
    set_flag(source, IPPROTO_TCP, TCP_QUICKACK);
  }
  if (n > 0) {
    // Bytes already written are dropped once they are half the buffer (each byte moves at
    // most once), so that a reader that never quite catches up cannot grow it without bound.
    if (direction.written * 2 >= direction.pending.size()) {
      direction.pending.erase(0, direction.written);
      direction.written = 0;
    }
    direction.pending.append(buffer, static_cast<std::size_t>(n));
    if (head != nullptr && head->size() < kRequestHeadBytes) {
      head->append(buffer, std::min(static_cast<std::size_t>(n), kRequestHeadBytes - head->size()));
    }
    return true;
  }
  if (n == 0) {
    direction.source_closed = true;
    return true;
  }
  return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

// Writes what `direction` holds to `destination`, then passes an EOF on; false on a hard error.
bool write_from(int destination, Direction& direction) {
  while (direction.size() > 0) {
    const ssize_t n = send(destination, direction.pending.data() + direction.written,
                           direction.size(), MSG_NOSIGNAL);
    if (n > 0) {
      direction.written += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
  direction.pending.clear();
  direction.written = 0;
  if (direction.source_closed && !direction.shut_down) {
    (void)shutdown(destination, SHUT_WR);
    direction.shut_down = true;
  }
  return true;
}

short events_for(const Direction& incoming, const Direction& outgoing) noexcept {
  short events = 0;
  if (incoming.may_read()) events |= POLLIN;
  if (outgoing.size() > 0) events |= POLLOUT;
  return events;
}

// A socket with nothing to do is left out of the poll (fd -1), so that a hang-up we cannot act
// on yet does not wake us in a loop.
pollfd poll_entry(int fd, short events) noexcept {
  return pollfd{events != 0 ? fd : -1, events, 0};
}

// Services one socket of a connection after poll said something happened to it.
void service(Connection& connection, int fd, short revents, Direction& incoming,
             Direction& outgoing, bool is_server, char* buffer) {
  if (revents == 0 || connection.failed) return;
  std::string* head = is_server ? nullptr : &connection.request_head;
  if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 && incoming.may_read() &&
      !read_into(fd, incoming, is_server, buffer, head)) {
    connection.failed = true;
    return;
  }
  if ((revents & (POLLOUT | POLLHUP | POLLERR)) != 0 && outgoing.size() > 0 &&
      !write_from(fd, outgoing)) {
    connection.failed = true;
  }
}

}  // namespace

class ServerRelay::Impl {
 public:
  Impl(LoopbackTcpServer server, UniqueFd listener, UniqueFd stop, UniqueFd first_upstream,
       std::string spec)
      : server_(server),
        listener_(std::move(listener)),
        stop_(std::move(stop)),
        first_upstream_(std::move(first_upstream)),
        spec_(std::move(spec)) {}

  ~Impl() {
    if (thread_.joinable()) {
      const std::uint64_t one = 1;
      while (write(stop_.get(), &one, sizeof one) < 0 && errno == EINTR) {
      }
      thread_.join();
    }
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // Starts the thread with every signal blocked: SIGINT/SIGTERM belong to the main thread.
  bool start_thread() {
    sigset_t all, previous;
    sigfillset(&all);
    if (pthread_sigmask(SIG_SETMASK, &all, &previous) != 0) return false;
    bool started = true;
    try {
      thread_ = std::thread([this] { run(); });
    } catch (const std::exception&) {
      started = false;
    }
    (void)pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return started;
  }

  const std::string& spec() const { return spec_; }
  std::shared_ptr<const std::atomic<bool>> shell_v2_requested() const {
    return shell_v2_requested_;
  }

 private:
  void run() noexcept {
    try {
      relay();
    } catch (const std::exception&) {
      // Out of memory: every connection closes with `connections_`, and each follower sees
      // its stream end (RESULT_TRANSPORT_EXITED), which is what a lost adb server looks like.
    }
    connections_.clear();
  }

  void relay() {
    std::vector<char> buffer(kReadSize);
    std::vector<pollfd> fds;
    for (;;) {
      fds.clear();
      fds.push_back(pollfd{stop_.get(), POLLIN, 0});
      fds.push_back(pollfd{listener_.get(), POLLIN, 0});
      for (const Connection& c : connections_) {
        fds.push_back(poll_entry(c.client.get(), events_for(c.to_server, c.to_client)));
        fds.push_back(poll_entry(c.server.get(), events_for(c.to_client, c.to_server)));
      }
      if (poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents != 0) return;
      for (std::size_t i = 0; i < connections_.size(); ++i) {
        Connection& c = connections_[i];
        service(c, c.client.get(), fds[2 + 2 * i].revents, c.to_server, c.to_client, false,
                buffer.data());
        service(c, c.server.get(), fds[3 + 2 * i].revents, c.to_client, c.to_server, true,
                buffer.data());
        if (!shell_v2_requested_->load(std::memory_order_relaxed) &&
            c.request_head.find(kShellV2Service) != std::string::npos) {
          shell_v2_requested_->store(true, std::memory_order_release);
        }
        // Pass on what just arrived without waiting for the next poll.
        if (!c.failed && !write_from(c.server.get(), c.to_server)) c.failed = true;
        if (!c.failed && !write_from(c.client.get(), c.to_client)) c.failed = true;
      }
      std::erase_if(connections_, [](const Connection& c) { return c.finished(); });
      if ((fds[1].revents & POLLIN) != 0) accept_client();
    }
  }

  void accept_client() {
    UniqueFd client(accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (!client.valid() || !same_user(client.get())) return;
    UniqueFd upstream =
        first_upstream_.valid() ? std::move(first_upstream_) : connect_to_server(server_);
    // No server: closing the client ends its call with adb's "protocol fault", and the
    // follower's exit is reported like any other.
    if (!upstream.valid()) return;
    Connection& connection = connections_.emplace_back();
    connection.client = std::move(client);
    connection.server = std::move(upstream);
  }

  LoopbackTcpServer server_;
  UniqueFd listener_, stop_, first_upstream_;
  std::string spec_;
  std::vector<Connection> connections_;
  std::shared_ptr<std::atomic<bool>> shell_v2_requested_ = std::make_shared<std::atomic<bool>>();
  std::thread thread_;
};

bool loopback_server_accepts(const LoopbackTcpServer& server) {
  return connect_to_server(server).valid();
}

std::unique_ptr<ServerRelay> ServerRelay::start(const LoopbackTcpServer& server) {
  try {
    UniqueFd upstream = connect_to_server(server);
    if (!upstream.valid()) return nullptr;
    std::string name;
    UniqueFd listener = listen_abstract(name);
    if (!listener.valid()) return nullptr;
    UniqueFd stop(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    if (!stop.valid()) return nullptr;
    auto impl = std::make_unique<Impl>(server, std::move(listener), std::move(stop),
                                       std::move(upstream), "localabstract:" + name);
    if (!impl->start_thread()) return nullptr;
    return std::unique_ptr<ServerRelay>(new ServerRelay(std::move(impl)));
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

ServerRelay::ServerRelay(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ServerRelay::~ServerRelay() = default;

const std::string& ServerRelay::socket_spec() const {
  return impl_->spec();
}

std::shared_ptr<const std::atomic<bool>> ServerRelay::shell_v2_requested() const {
  return impl_->shell_v2_requested();
}

}  // namespace clawperator::adb
