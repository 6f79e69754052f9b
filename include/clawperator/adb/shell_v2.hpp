// adb's shell protocol v2 (the `shell,v2,…` service every device with the `shell_v2` feature
// speaks): packets of [id: 1 byte][length: 4 bytes, little-endian][data], ids 0 stdin,
// 1 stdout, 2 stderr, 3 exit (one byte: the exit status), 4 close-stdin. Pure: the bytes a
// call to the server sends and what it makes of the bytes it receives (server_shell.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

enum class ShellV2Id : std::uint8_t { Stdin = 0, Stdout = 1, Stderr = 2, Exit = 3, CloseStdin = 4 };

// One packet, ready to send.
std::string shell_v2_packet(ShellV2Id id, std::string_view data = {});

// Feeds the device's packets in any split; keeps at most `max_stream_bytes` of stdout and of
// stderr (the rest is counted as truncated, as the process runner does with a child's pipes).
class ShellV2Decoder {
 public:
  explicit ShellV2Decoder(std::size_t max_stream_bytes) : max_stream_bytes_(max_stream_bytes) {}

  void feed(std::string_view bytes);

  const std::string& out() const noexcept { return out_; }
  const std::string& err() const noexcept { return err_; }
  bool out_truncated() const noexcept { return out_truncated_; }
  bool err_truncated() const noexcept { return err_truncated_; }
  // The exit packet's status, once it arrived.
  std::optional<int> exit_status() const noexcept { return exit_status_; }
  // A packet longer than any adb sends (kMaxPacketData): nothing after it can be read.
  bool malformed() const noexcept { return malformed_; }

  // adb's largest packet data is its maxdata, 1 MiB (adb-facts); four times that is refused.
  static constexpr std::size_t kMaxPacketData = std::size_t{4} << 20;

 private:
  void take(ShellV2Id id, std::string_view data);

  std::size_t max_stream_bytes_;
  std::string pending_;  // an incomplete header, or the part of a packet's data not yet whole
  std::string out_, err_;
  bool out_truncated_ = false, err_truncated_ = false;
  std::optional<int> exit_status_;
  bool malformed_ = false;
};

}  // namespace clawperator::adb
