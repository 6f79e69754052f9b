// Where an adb call finds its server, resolved the way adb 29's client resolves it, so that
// we know which server a call talks to (lock keys) and whether it is a TCP server on this
// host's loopback (the logcat relay, server_relay.hpp).
#pragma once

#include <cstddef>
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

// A host name's address as numeric text ("10.0.0.5", "2001:db8::1"): the first of
// getaddrinfo's answers, the one adb's connect tries first. nullopt when it does not resolve.
// Injectable, so that tests need no DNS.
using HostResolver = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<std::string> resolve_host_address(const std::string& name);

// The adb server a socket spec reaches, in one spelling however it was named, so that one
// server is one lock (docs/wire-protocol.md §4.3):
//   TCP to any loopback address, or without a host ("tcp:P", "tcp:localhost:P",
//   "tcp:127.0.0.1:P", "tcp:[::1]:P", "tcp:127.0.0.2:P", "tcp:0.0.0.0:P") -> "tcp:loopback:P";
//   any other numeric address -> "tcp:10.0.0.5:P" / "tcp:[2001:db8::1]:P" (inet_ntop's text);
//   a host name -> what `resolve` makes of it, or, when it does not resolve, the name in lower
//   case ("tcp:farm.example:P"); names only: a numeric literal or "localhost" is never looked up;
//   "local:PATH" and "localfilesystem:PATH" -> "localfilesystem:" + the path made absolute,
//   symlinks resolved (as far as it exists);
//   anything else ("localabstract:NAME", a spec adb refuses) -> itself.
std::string canonical_server(std::string_view spec,
                             const HostResolver& resolve = resolve_host_address);

// The key of one device on one adb server, shared by everything that must know "this device"
// across processes: the execution lock, the video recorder's lock, the readiness record, the
// forward records and the warm readers (docs/wire-protocol.md §4.3). The server as
// canonical_server gives it for the endpoint resolve_server_endpoint finds (-H/-P, else
// ADB_SERVER_SOCKET, else ANDROID_ADB_SERVER_ADDRESS/PORT, else tcp:5037; "unresolved" for
// values adb refuses, every call then fails alike), then "+", then the serial, each part
// %-escaped (io::escape_file_name, which never leaves a "+"), so that the key is one file-name
// component and no two (server, serial) pairs share one. A key longer than kMaxDeviceKeyBytes
// is "sha256-" and the SHA-256 of that text instead, so that a file named after it always fits
// a file system's 255 bytes. Costs no system call unless a host name has to be resolved.
inline constexpr std::size_t kMaxDeviceKeyBytes = 160;
std::string device_key(const AdbSettings& settings, std::string_view serial,
                       const RawEnvironment& environment = raw_process_environment,
                       const HostResolver& resolve = resolve_host_address);

}  // namespace clawperator::adb
