// Where an adb call finds its server, resolved the way adb 29's client resolves it, so that
// we know which server a call talks to (lock keys) and whether it is a TCP server on this
// host's loopback (the logcat relay, server_relay.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

struct AdbSettings;

// getenv semantics: nullptr when unset; an empty string is a value (adb treats it as one).
using RawEnvironment = std::function<const char*(const char* name)>;

struct LoopbackTcpServer {
  enum class Family { Any, IPv4, IPv6 };  // Any: "localhost", IPv4 first, as adb tries it
  Family family = Family::Any;
  int port = 5037;
};

struct ServerEndpoint {
  // adb's socket spec for the server: "tcp:5037", "tcp:farm-host:5037",
  // "localfilesystem:/run/adb.sock", …
  std::string spec;
  // Set when the server is reached over TCP on this host's loopback.
  std::optional<LoopbackTcpServer> loopback;
};

// -H/-P (--adb-server), else ADB_SERVER_SOCKET, else ANDROID_ADB_SERVER_ADDRESS and
// ANDROID_ADB_SERVER_PORT, else tcp:5037. nullopt when adb would refuse the values (a port
// outside 1..65535, an empty address), so that adb reports it in its own words.
std::optional<ServerEndpoint> resolve_server_endpoint(const AdbSettings& settings,
                                                      const RawEnvironment& environment);

// The process environment, as adb reads it.
const char* raw_process_environment(const char* name);

// "tcp:PORT" or "tcp:HOST:PORT" on a loopback host (localhost, 127.0.0.1, ::1, [::1]).
std::optional<LoopbackTcpServer> parse_loopback_tcp_spec(std::string_view spec);

}  // namespace clawperator::adb
