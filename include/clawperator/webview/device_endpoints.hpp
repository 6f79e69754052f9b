// The device's DevTools sockets through adb: one shell call lists them with their apps, and a
// forward makes one reachable on this host's loopback for as long as a ForwardedPort lives.
#pragma once

#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/forward_registry.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/webview/devtools.hpp"

namespace clawperator::webview {

// `adb shell 'cat /proc/net/unix; ps -A -o PID,NAME'` (kListCommand), parsed.
contract::Outcome<DevtoolsListing> list_device_sockets(adb::AdbClient& client,
                                                       const std::string& serial);

// `adb forward tcp:0 localabstract:NAME`; the destructor runs `adb forward --remove tcp:PORT`
// on every way out (a return, an exception, a failure, Ctrl-C: AdbClient::remove_forward runs
// despite an interrupt), so that no forward outlives the command. With a registry the port is
// recorded while it lives, so that a run killed outright (SIGKILL: no destructor) leaves a
// record the next run sweeps (sweep_stale_forwards).
class ForwardedPort {
 public:
  static contract::Outcome<ForwardedPort> open(adb::AdbClient& client, const std::string& serial,
                                               const std::string& socket_name,
                                               const adb::ForwardRegistry* registry = nullptr);
  ForwardedPort(ForwardedPort&& other) noexcept;
  ForwardedPort& operator=(ForwardedPort&&) = delete;
  ForwardedPort(const ForwardedPort&) = delete;
  ForwardedPort& operator=(const ForwardedPort&) = delete;
  ~ForwardedPort();

  int port() const { return port_; }

 private:
  ForwardedPort(adb::AdbClient& client, std::string serial, int port,
                const adb::ForwardRegistry* registry)
      : client_(&client), serial_(std::move(serial)), port_(port), registry_(registry) {}
  adb::AdbClient* client_;
  std::string serial_;
  int port_ = 0;  // 0: moved from, nothing to remove
  const adb::ForwardRegistry* registry_ = nullptr;
};

// The webview forwards of a run that was killed, on this device: removed (their records with
// them) before this run forwards anything. `registry` is the one ForwardedPort records in.
void sweep_stale_forwards(adb::AdbClient& client, const adb::ForwardRegistry& registry);

// The local port in `adb forward tcp:0`'s output ("40123\n").
std::optional<int> parse_forward_port(std::string_view out);

}  // namespace clawperator::webview
