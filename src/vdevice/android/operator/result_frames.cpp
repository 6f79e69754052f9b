#include "vdevice/android/operator/result_frames.hpp"

#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::android {

void append_frame(std::string& out, std::string_view payload,
                  std::optional<std::uint32_t> declared) {
  const std::uint32_t length = declared.value_or(static_cast<std::uint32_t>(payload.size()));
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((length >> shift) & 0xffU));
  }
  out.append(payload);
}

void FrameDecoder::feed(std::string_view bytes) {
  if (error_) return;
  if (head_ > 0 && (head_ == buffer_.size() || head_ >= kCompactThreshold)) {
    buffer_.erase(0, head_);
    head_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<std::string> FrameDecoder::next() {
  if (error_) return std::nullopt;
  const std::string_view pending = std::string_view(buffer_).substr(head_);
  if (pending.size() < kFrameHeaderSize) return std::nullopt;
  std::size_t length = 0;
  for (std::size_t i = 0; i < kFrameHeaderSize; ++i) {
    length = (length << 8) | static_cast<unsigned char>(pending[i]);
  }
  if (length > max_frame_) {
    error_ = true;
    return std::nullopt;
  }
  if (pending.size() - kFrameHeaderSize < length) return std::nullopt;
  std::string frame(pending.substr(kFrameHeaderSize, length));
  head_ += kFrameHeaderSize + length;
  return frame;
}

}  // namespace clawperator::vdevice::android
