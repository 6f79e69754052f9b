// A scripted Device for the transport tests, a server running on its own thread, and a
// hand-driven adb host speaking the protocol over a real socket.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "vdevice/adb/message.hpp"
#include "vdevice/adb/server.hpp"
#include "vdevice/adb/shell_protocol.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::adb::test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

inline constexpr std::string_view kHostBanner =
    "host::features=remount_shell,abb_exec,abb,apex,fixed_push_mkdir,ls_v2,stat_v2,"
    "fixed_push_symlink_timestamp,cmd,shell_v2";
// A service request as the host sends it in OPEN: the name and its terminating NUL.
inline std::string service(std::string_view text) {
  return std::string(text) + '\0';
}

inline constexpr std::size_t kBigOutputSize = std::size_t{5} << 20;
inline constexpr std::chrono::milliseconds kStreamPeriod{20};

// 5 MiB of numbered lines: a lost, duplicated or reordered piece shows in the comparison.
inline const std::string& big_output() {
  static const std::string text = [] {
    std::string out;
    out.reserve(kBigOutputSize + 64);
    for (int i = 0; out.size() < kBigOutputSize; ++i) {
      out += "line " + std::to_string(i) + " of the big output\n";
    }
    out.resize(kBigOutputSize);
    return out;
  }();
  return text;
}

// Every byte value, several times: exec-out must be binary-safe.
inline std::string binary_blob() {
  std::string out;
  for (int round = 0; round < 3000; ++round) {
    for (int byte = 0; byte < 256; ++byte) out.push_back(static_cast<char>(byte));
  }
  return out;
}

// Commands (the text after "shell…:" or "exec:"):
//   echo hi / true / false / "echo out; echo err >&2; exit 3" / bigout / blob
//   stream: "tick N\n" every 20 ms from tick() until the host closes
//   cat: echoes its stdin
//   drop: drops every connection from inside open_shell()
//   anything else: "/system/bin/sh: X: not found" on stderr, exit 127
// Everything runs on the server thread; the observers lock.
class TestDevice final : public Device {
 public:
  explicit TestDevice(std::string features = "shell_v2,cmd",
                      ConnectionMode mode = ConnectionMode::Normal)
      : features_(std::move(features)), mode_(mode) {}

  std::string banner() const override {
    return "device::ro.product.name=vpixel;ro.product.model=Virtual Pixel;"
           "ro.product.device=vpixel_x86;features=" +
           features_;
  }
  ConnectionMode connection_mode() const override {
    mode_queries_.fetch_add(1);
    return mode_;
  }
  void attach_transport(TransportControl* control) override { control_ = control; }

  std::unique_ptr<ServiceSession> open_shell(const std::string& command,
                                             ServiceOutput& out) override {
    record("shell:" + command);
    if (command == "echo hi") return finished(out, "hi\n", {}, 0);
    if (command == "true") return finished(out, {}, {}, 0);
    if (command == "false") return finished(out, {}, {}, 1);
    if (command == "echo out; echo err >&2; exit 3") return finished(out, "out\n", "err\n", 3);
    if (command == "bigout") return finished(out, big_output(), {}, 0);
    if (command == "stream") {
      auto session = std::make_unique<StreamingSession>(*this, out);
      streaming_.push_back(session.get());
      return session;
    }
    if (command == "cat") return std::make_unique<CatSession>(*this, out);
    if (command == "drop") {
      if (control_ != nullptr) control_->drop_all_connections();
      return std::make_unique<Session>(*this);
    }
    return finished(out, {}, "/system/bin/sh: " + command + ": not found\n", 127);
  }

  std::unique_ptr<ServiceSession> open_exec(const std::string& command,
                                            ServiceOutput& out) override {
    record("exec:" + command);
    if (command == "blob") return finished(out, binary_blob(), {}, 0);
    return finished(out, "exec " + command + "\n", {}, 0);
  }

  void tick(Clock::time_point now) override {
    if (drop_requested_.exchange(false) && control_ != nullptr) control_->drop_all_connections();
    for (StreamingSession* session : std::vector<StreamingSession*>(streaming_)) {
      if (now >= session->next) session->emit(now);
    }
  }
  std::optional<Clock::time_point> next_deadline() const override {
    std::optional<Clock::time_point> earliest;
    for (const StreamingSession* session : streaming_) {
      if (!earliest || session->next < *earliest) earliest = session->next;
    }
    return earliest;
  }

  // From the test thread.
  void request_drop() { drop_requested_ = true; }
  std::vector<std::string> commands() const {
    const std::lock_guard lock(mutex_);
    return commands_;
  }
  int host_closes() const { return host_closes_.load(); }
  int mode_queries() const { return mode_queries_.load(); }
  int live_sessions() const { return live_sessions_.load(); }

 private:
  struct Session : ServiceSession {
    explicit Session(TestDevice& owner) : device(owner) { device.live_sessions_.fetch_add(1); }
    ~Session() override { device.live_sessions_.fetch_sub(1); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    void on_host_close() override { device.host_closes_.fetch_add(1); }
    TestDevice& device;
  };
  struct StreamingSession final : Session {
    StreamingSession(TestDevice& owner, ServiceOutput& output)
        : Session(owner), out(output), next(Clock::now()) {}
    ~StreamingSession() override { std::erase(device.streaming_, this); }
    StreamingSession(const StreamingSession&) = delete;
    StreamingSession& operator=(const StreamingSession&) = delete;
    void on_host_close() override {
      Session::on_host_close();
      std::erase(device.streaming_, this);
    }
    void emit(Clock::time_point now) {
      out.write_stdout("tick " + std::to_string(count++) + "\n");
      next = now + kStreamPeriod;
    }
    ServiceOutput& out;
    Clock::time_point next;
    int count = 0;
  };
  struct CatSession final : Session {
    CatSession(TestDevice& owner, ServiceOutput& output) : Session(owner), out(output) {}
    void on_input(std::string_view bytes) override { out.write_stdout(bytes); }
    ServiceOutput& out;
  };

  std::unique_ptr<ServiceSession> finished(ServiceOutput& out, std::string_view stdout_text,
                                           std::string_view stderr_text, int code) {
    out.write_stdout(stdout_text);
    out.write_stderr(stderr_text);
    out.exit(code);
    return std::make_unique<Session>(*this);
  }
  void record(std::string command) {
    const std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
  }

  std::string features_;
  ConnectionMode mode_;
  TransportControl* control_ = nullptr;
  std::vector<StreamingSession*> streaming_;
  mutable std::mutex mutex_;
  std::vector<std::string> commands_;
  std::atomic<bool> drop_requested_{false};
  std::atomic<int> host_closes_{0};
  mutable std::atomic<int> mode_queries_{0};
  std::atomic<int> live_sessions_{0};
};

// An AdbDeviceServer on port 0, served by its own thread until destruction.
class ServerThread {
 public:
  explicit ServerThread(Device& device)
      : server_(device, "127.0.0.1", 0), thread_([this] { ok_ = server_.run(stop_); }) {}
  ~ServerThread() { stop(); }
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;

  // Returns run()'s result.
  bool stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return ok_;
  }
  std::uint16_t port() const { return server_.port(); }
  std::string serial() const { return "127.0.0.1:" + std::to_string(port()); }
  std::size_t connections() const { return server_.connection_count(); }

 private:
  std::atomic<bool> stop_{false};
  bool ok_ = false;
  AdbDeviceServer server_;
  std::thread thread_;
};

// Waits for `condition` up to `limit`, checking every 10 ms.
template <typename Condition>
bool eventually(Condition condition, std::chrono::milliseconds limit = 3000ms) {
  const Clock::time_point deadline = Clock::now() + limit;
  for (;;) {
    if (condition()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

// The host side of one connection, driven by hand over a blocking socket.
class FakeHost {
 public:
  // A small receive buffer makes the server meet a full socket (partial writes).
  explicit FakeHost(std::uint16_t port, int receive_buffer = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (receive_buffer > 0) {
      (void)setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  }
  ~FakeHost() {
    if (fd_ >= 0) ::close(fd_);
  }
  FakeHost(const FakeHost&) = delete;
  FakeHost& operator=(const FakeHost&) = delete;

  bool connected() const { return connected_; }

  void send_bytes(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  void send(std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
            std::string_view payload = {}) {
    std::string wire;
    append_message(wire, command, arg0, arg1, payload);
    send_bytes(wire);
  }
  void send_connect(std::uint32_t max_data = kMaxPayload) {
    send(kCnxn, kProtocolVersion, max_data, kHostBanner);
  }

  // The next message, or nullopt on timeout or when the connection ended (see eof()).
  std::optional<Message> receive(std::chrono::milliseconds timeout = 5000ms) {
    const Clock::time_point deadline = Clock::now() + timeout;
    for (;;) {
      if (std::optional<Message> message = decoder_.next()) return message;
      if (eof_) return std::nullopt;
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd entry{fd_, POLLIN, 0};
      if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[65536];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      decoder_.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    }
  }
  // True when the server closed the connection within `timeout`, discarding messages.
  bool closed_by_server(std::chrono::milliseconds timeout = 3000ms) {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (!eof_ && Clock::now() < deadline) (void)receive(50ms);
    return eof_;
  }
  bool eof() const { return eof_; }
  // Bytes the server sent that are still in this socket, unread (FIONREAD).
  std::size_t unread_bytes() const {
    int queued = 0;
    return ::ioctl(fd_, FIONREAD, &queued) == 0 && queued > 0 ? static_cast<std::size_t>(queued)
                                                              : 0;
  }

  // CNXN out, the reply back.
  std::optional<Message> handshake(std::uint32_t max_data = kMaxPayload) {
    send_connect(max_data);
    return receive();
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool eof_ = false;
  MessageDecoder decoder_{std::size_t{16} << 20};
};

// Everything a shell v2 stream carried, reassembled.
struct ShellResult {
  std::string out, err;
  std::optional<int> exit_code;
  bool closed = false;  // the device sent CLSE
  std::size_t largest_write = 0;
};

// Reads the stream `local_id` until the device closes it, acknowledging every WRTE.
inline ShellResult collect_shell_v2(FakeHost& host, std::uint32_t host_id, std::uint32_t local_id) {
  ShellResult result;
  ShellPacketDecoder packets(std::size_t{64} << 20);
  while (std::optional<Message> message = host.receive()) {
    if (message->arg0 != local_id) continue;
    if (message->command == kClse) {
      result.closed = true;
      break;
    }
    if (message->command != kWrte) continue;
    result.largest_write = std::max(result.largest_write, message->payload.size());
    packets.feed(message->payload);
    while (std::optional<ShellPacket> packet = packets.next()) {
      if (packet->id == kShellStdout) result.out += packet->payload;
      if (packet->id == kShellStderr) result.err += packet->payload;
      if (packet->id == kShellExit && packet->payload.size() == 1) {
        result.exit_code = static_cast<unsigned char>(packet->payload[0]);
      }
    }
    host.send(kOkay, host_id, local_id);
  }
  return result;
}

}  // namespace clawperator::vdevice::adb::test
