// Shell services: which one an OPEN asks for, and the shell v2 packet framing that carries
// stdin/stdout/stderr and the exit code over one stream. Pure, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::vdevice::adb {

// Shell v2 packet ids.
inline constexpr std::uint8_t kShellStdin = 0;
inline constexpr std::uint8_t kShellStdout = 1;
inline constexpr std::uint8_t kShellStderr = 2;
inline constexpr std::uint8_t kShellExit = 3;
inline constexpr std::uint8_t kShellCloseStdin = 4;
inline constexpr std::uint8_t kShellWindowSize = 5;

// 1-byte id + 4-byte little-endian payload length.
inline constexpr std::size_t kShellHeaderSize = 5;

struct ShellPacket {
  std::uint8_t id = 0;
  std::string payload;
};

void append_shell_packet(std::string& out, std::uint8_t id, std::string_view payload);

// Reassembles shell v2 packets from stream bytes arriving in pieces of any size. A packet
// longer than the limit is final (error()): it can only come from a confused or hostile peer.
class ShellPacketDecoder {
 public:
  static constexpr std::size_t kDefaultMaxPacket = std::size_t{1} << 20;

  explicit ShellPacketDecoder(std::size_t max_packet = kDefaultMaxPacket) noexcept
      : max_packet_(max_packet) {}

  void feed(std::string_view bytes);
  std::optional<ShellPacket> next();
  bool error() const noexcept { return error_; }

 private:
  std::size_t max_packet_;
  std::string buffer_;
  std::size_t head_ = 0;
  bool error_ = false;
};

enum class ServiceKind {
  ShellV2,        // "shell,v2,OPTIONS:CMD": packets carry stdout, stderr and the exit code
  ShellRaw,       // "shell:CMD" or "shell,OPTIONS:CMD" without v2: bare bytes, no exit code
  Exec,           // "exec:CMD" (adb exec-out): bare, binary-safe bytes
  Sync,           // "sync:" (adb push, pull): the file sync protocol
  LocalAbstract,  // "localabstract:NAME" (adb forward): a stream to an abstract socket
  Unknown,
};

struct ServiceRequest {
  ServiceKind kind = ServiceKind::Unknown;
  // The text the device's sh parses (empty for an interactive shell), or the socket's name.
  std::string command;
  // The "pty" option (adb shell -t): a terminal merges stderr into stdout.
  bool pty = false;
};

// `service` is the OPEN payload without its terminating NUL.
ServiceRequest parse_service(std::string_view service);

}  // namespace clawperator::vdevice::adb
