// The device's DevTools sockets through adb: one shell call lists them with their apps, and a
// forward makes one reachable on this host's loopback for as long as a ForwardedPort lives.
#pragma once

#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/webview/devtools.hpp"

namespace clawperator::webview {

// `adb shell 'cat /proc/net/unix; ps -A -o PID,NAME'` (kListCommand), parsed.
contract::Outcome<std::vector<DevtoolsSocket>> list_device_sockets(adb::AdbClient& client,
                                                                   const std::string& serial);

// `adb forward tcp:0 localabstract:NAME`; the destructor runs `adb forward --remove tcp:PORT`
// on every way out (a return, an exception, a failure, Ctrl-C: AdbClient::remove_forward runs
// despite an interrupt), so that no forward outlives the command.
class ForwardedPort {
 public:
  static contract::Outcome<ForwardedPort> open(adb::AdbClient& client, const std::string& serial,
                                               const std::string& socket_name);
  ForwardedPort(ForwardedPort&& other) noexcept;
  ForwardedPort& operator=(ForwardedPort&&) = delete;
  ForwardedPort(const ForwardedPort&) = delete;
  ForwardedPort& operator=(const ForwardedPort&) = delete;
  ~ForwardedPort();

  int port() const { return port_; }

 private:
  ForwardedPort(adb::AdbClient& client, std::string serial, int port)
      : client_(&client), serial_(std::move(serial)), port_(port) {}
  adb::AdbClient* client_;
  std::string serial_;
  int port_ = 0;  // 0: moved from, nothing to remove
};

// The local port in `adb forward tcp:0`'s output ("40123\n").
std::optional<int> parse_forward_port(std::string_view out);

}  // namespace clawperator::webview
