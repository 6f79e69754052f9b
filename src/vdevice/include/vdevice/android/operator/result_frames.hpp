// The frames of the Operator's direct result transport (docs/vdevice.md, "Direct results"):
// a 4-byte big-endian length, then that many bytes. Control frames are UTF-8 JSON objects
// with a "type" of at most kMaxControlFrame bytes; the result's bytes travel in one frame of
// at most kMaxResultFrame. Pure framing, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::vdevice::android {

inline constexpr std::size_t kFrameHeaderSize = 4;
inline constexpr std::size_t kMaxControlFrame = 4096;
inline constexpr std::size_t kMaxResultFrame = std::size_t{32} << 20;

// Appends the length (of `declared` bytes, default the payload's own) and the payload. A
// different `declared` writes a lying frame, for the scenario faults.
void append_frame(std::string& out, std::string_view payload,
                  std::optional<std::uint32_t> declared = std::nullopt);

// Reassembles frames from bytes arriving in pieces of any size. A frame declared longer than
// the limit is final (error()): the peer cannot be resynchronised.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t max_frame = kMaxControlFrame) noexcept
      : max_frame_(max_frame) {}

  void feed(std::string_view bytes);
  std::optional<std::string> next();
  bool error() const noexcept { return error_; }
  std::size_t buffered_bytes() const noexcept { return buffer_.size() - head_; }

 private:
  std::size_t max_frame_;
  std::string buffer_;
  std::size_t head_ = 0;
  bool error_ = false;
};

}  // namespace clawperator::vdevice::android
