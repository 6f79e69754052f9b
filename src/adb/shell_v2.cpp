#include "clawperator/adb/shell_v2.hpp"

namespace clawperator::adb {

namespace {

constexpr std::size_t kHeaderSize = 5;

std::uint32_t little_endian_u32(std::string_view bytes) noexcept {
  std::uint32_t value = 0;
  for (std::size_t i = 4; i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  }
  return value;
}

void append_bounded(std::string& to, bool& truncated, std::string_view data, std::size_t limit) {
  const std::size_t room = to.size() < limit ? limit - to.size() : 0;
  to.append(data.substr(0, room));
  if (data.size() > room) truncated = true;
}

}  // namespace

std::string shell_v2_packet(ShellV2Id id, std::string_view data) {
  std::string packet;
  packet.reserve(kHeaderSize + data.size());
  packet.push_back(static_cast<char>(id));
  auto size = static_cast<std::uint32_t>(data.size());
  for (int i = 0; i < 4; ++i) {
    packet.push_back(static_cast<char>(size & 0xffU));
    size >>= 8;
  }
  packet.append(data);
  return packet;
}

void ShellV2Decoder::feed(std::string_view bytes) {
  if (malformed_) return;
  pending_.append(bytes);
  std::size_t at = 0;
  // A packet's data is taken only once it is whole, so pending_ holds at most one packet of
  // at most kMaxPacketData.
  while (pending_.size() - at >= kHeaderSize) {
    const std::string_view header(pending_.data() + at, kHeaderSize);
    const std::uint32_t length = little_endian_u32(header.substr(1));
    if (length > kMaxPacketData) {
      malformed_ = true;
      pending_.clear();
      return;
    }
    if (pending_.size() - at - kHeaderSize < length) break;
    take(static_cast<ShellV2Id>(static_cast<unsigned char>(header[0])),
         std::string_view(pending_.data() + at + kHeaderSize, length));
    at += kHeaderSize + length;
  }
  pending_.erase(0, at);
}

void ShellV2Decoder::take(ShellV2Id id, std::string_view data) {
  switch (id) {
    case ShellV2Id::Stdout:
      append_bounded(out_, out_truncated_, data, max_stream_bytes_);
      break;
    case ShellV2Id::Stderr:
      append_bounded(err_, err_truncated_, data, max_stream_bytes_);
      break;
    case ShellV2Id::Exit:
      if (!data.empty()) exit_status_ = static_cast<unsigned char>(data[0]);
      break;
    default:
      // stdin, close-stdin and window sizes travel host to device only.
      break;
  }
}

}  // namespace clawperator::adb
