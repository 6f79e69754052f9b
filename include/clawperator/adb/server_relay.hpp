// A relay between the logcat follower (`adb logcat`) and an adb server on this host's TCP
// loopback. adb 29's server leaves Nagle's algorithm on for its client sockets, and a client
// that only reads (a follower never writes after its request) acknowledges data only when its
// 40 ms delayed-ACK timer fires, so every burst of a stream that follows an earlier one (the
// follower's first line after the server's OKAY) waits about 41 ms: that was most of an exec
// (docs/performance.md). The follower reaches the relay through an abstract Unix socket
// (ADB_SERVER_SOCKET=localabstract:NAME), and the relay acknowledges everything the server
// sends at once (TCP_QUICKACK after every read). Bytes pass unchanged in both directions.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "clawperator/adb/server_endpoint.hpp"

namespace clawperator::adb {

// Whether a server accepts connections there now (one connect, closed at once).
bool loopback_server_accepts(const LoopbackTcpServer& server);

class ServerRelay {
 public:
  // How long connecting to the server may take (loopback: normally microseconds).
  static constexpr std::chrono::milliseconds kConnectTimeout{2000};

  // Listens on a fresh abstract socket and connects once to the server, keeping that
  // connection for the first client. nullptr when any of it fails (no server listening: the
  // follower must then reach the server itself, so that adb can start one as it always does).
  static std::unique_ptr<ServerRelay> start(const LoopbackTcpServer& server);

  // Stops relaying and closes every connection; returns at once.
  ~ServerRelay();
  ServerRelay(const ServerRelay&) = delete;
  ServerRelay& operator=(const ServerRelay&) = delete;

  // For the client's environment: "localabstract:NAME".
  const std::string& socket_spec() const;

  // Set once a client asked this relay's server for a shell over shell protocol v2
  // (`shell,v2,…`). adb asks for it only after reading the device's features, so it shows that
  // the adb executable the follower runs talks to this server and that the device speaks v2:
  // what AdbClient needs before it speaks to the server itself (server_shell.hpp). Shared, so
  // that it outlives the relay.
  std::shared_ptr<const std::atomic<bool>> shell_v2_requested() const;

  class Impl;

 private:
  explicit ServerRelay(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace clawperator::adb
