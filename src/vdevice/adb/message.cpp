#include "vdevice/adb/message.hpp"

#include <array>
#include <cstdio>

#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::adb {
namespace {

void append_u32(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xffU));
  }
}

std::uint32_t read_u32(std::string_view bytes, std::size_t at) noexcept {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

}  // namespace

std::uint32_t payload_checksum(std::string_view payload) noexcept {
  std::uint32_t sum = 0;
  for (const char c : payload) sum += static_cast<unsigned char>(c);
  return sum;
}

void append_message(std::string& out, std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
                    std::string_view payload) {
  out.reserve(out.size() + kHeaderSize + payload.size());
  append_u32(out, command);
  append_u32(out, arg0);
  append_u32(out, arg1);
  append_u32(out, static_cast<std::uint32_t>(payload.size()));
  append_u32(out, payload_checksum(payload));
  append_u32(out, command ^ 0xffffffffU);
  out.append(payload);
}

std::string encode_message(const Message& message) {
  std::string out;
  append_message(out, message.command, message.arg0, message.arg1, message.payload);
  return out;
}

std::string command_name(std::uint32_t command) {
  std::string name;
  for (int shift = 0; shift < 32; shift += 8) {
    const auto c = static_cast<char>((command >> shift) & 0xffU);
    if (c < 'A' || c > 'Z') {
      std::array<char, 16> hex{};
      std::snprintf(hex.data(), hex.size(), "0x%08x", command);
      return hex.data();
    }
    name.push_back(c);
  }
  return name;
}

MessageDecoder::MessageDecoder(std::size_t max_payload) noexcept : max_payload_(max_payload) {}

void MessageDecoder::feed(std::string_view bytes) {
  if (error_ != Error::None) return;
  if (head_ > 0 && (head_ == buffer_.size() || head_ >= kCompactThreshold)) {
    buffer_.erase(0, head_);
    head_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<Message> MessageDecoder::next() {
  if (error_ != Error::None) return std::nullopt;
  const std::string_view pending = std::string_view(buffer_).substr(head_);
  if (pending.size() < kHeaderSize) return std::nullopt;
  Message message;
  message.command = read_u32(pending, 0);
  message.arg0 = read_u32(pending, 4);
  message.arg1 = read_u32(pending, 8);
  const std::uint32_t length = read_u32(pending, 12);
  // data_check (offset 16) is not verified: since 0x01000001 the host sends 0 there.
  if (read_u32(pending, 20) != (message.command ^ 0xffffffffU)) {
    error_ = Error::BadMagic;
    return std::nullopt;
  }
  if (length > max_payload_) {
    error_ = Error::PayloadTooLarge;
    return std::nullopt;
  }
  if (pending.size() - kHeaderSize < length) return std::nullopt;
  message.payload.assign(pending.substr(kHeaderSize, length));
  head_ += kHeaderSize + length;
  return message;
}

std::string_view to_string(MessageDecoder::Error error) noexcept {
  switch (error) {
    case MessageDecoder::Error::None:
      return "none";
    case MessageDecoder::Error::BadMagic:
      return "bad magic";
    case MessageDecoder::Error::PayloadTooLarge:
      return "payload too large";
  }
  return "unknown";
}

}  // namespace clawperator::vdevice::adb
