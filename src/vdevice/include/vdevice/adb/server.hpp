// The virtual device's adb transport: a TCP listener that the real adb server connects to
// (`adb connect 127.0.0.1:PORT`), and a single-threaded poll() loop that serves every
// connection through an AdbConnection and drives the Device's timers.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/adb/connection.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::adb {

class AdbDeviceServer final : public TransportControl {
 public:
  // Listens on `host` (an IPv4 literal) and `port` (0: any free port, see port()), and
  // attaches itself to the device. Throws std::system_error when it cannot listen.
  // The device must outlive the server.
  AdbDeviceServer(Device& device, const std::string& host, std::uint16_t port);
  // Detaches from the device (attach_transport(nullptr)) and ends every session.
  ~AdbDeviceServer() override;
  AdbDeviceServer(const AdbDeviceServer&) = delete;
  AdbDeviceServer& operator=(const AdbDeviceServer&) = delete;

  std::uint16_t port() const noexcept { return port_; }

  // Serves until `stop` becomes true (polled at least every 100 ms) and then closes every
  // connection. Returns false after an unrecoverable error (error() says which); a host that
  // misbehaves only loses its own connection. Exceptions from the device are contained.
  bool run(const std::atomic<bool>& stop);
  const std::string& error() const noexcept { return error_; }

  // Closes every host connection at once, as a dropped cable would; the sessions are told
  // (on_host_close) on the loop's next turn. Safe from any device or session callback.
  void drop_all_connections() override;

  // Connections currently open; readable from any thread (for tests and diagnostics).
  std::size_t connection_count() const noexcept {
    return connection_count_.load(std::memory_order_relaxed);
  }

  // Receives one line per notable event (connection closed and why, device exceptions).
  // Called on the loop thread. Set before run().
  void set_log(std::function<void(std::string_view)> log) { log_ = std::move(log); }

 private:
  struct Connection {
    explicit Connection(Device& device, int socket_fd) : protocol(device), fd(socket_fd) {}
    AdbConnection protocol;
    int fd;
  };

  bool serve(const std::atomic<bool>& stop);
  void accept_connections();
  void read_from(Connection& connection);
  void write_to(Connection& connection);
  void close_connection(Connection& connection, std::string_view reason) noexcept;
  void reap_closed() noexcept;
  void tick_device() noexcept;
  int poll_timeout_ms() noexcept;
  void log(std::string_view line, std::string_view detail = {}) noexcept;

  Device& device_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::atomic<std::size_t> connection_count_{0};
  std::vector<char> read_buffer_;
  std::vector<int> watched_;  // the device's descriptors polled this turn
  std::string error_;
  std::function<void(std::string_view)> log_;
  // After EMFILE and the like the listener stays readable: pausing keeps the loop from
  // spinning until a descriptor is free again.
  std::int64_t accept_paused_until_ms_ = 0;
};

}  // namespace clawperator::vdevice::adb
