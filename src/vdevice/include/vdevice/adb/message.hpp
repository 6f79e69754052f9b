// The adb transport's messages: a 24-byte little-endian header (command, arg0, arg1,
// data_length, data_check, magic) followed by data_length payload bytes. Pure framing, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::vdevice::adb {

// The command words are the ASCII names read as little-endian integers.
inline constexpr std::uint32_t kCnxn = 0x4e584e43;
inline constexpr std::uint32_t kAuth = 0x48545541;
inline constexpr std::uint32_t kOpen = 0x4e45504f;
inline constexpr std::uint32_t kOkay = 0x59414b4f;
inline constexpr std::uint32_t kClse = 0x45534c43;
inline constexpr std::uint32_t kWrte = 0x45545257;

// AUTH arg0.
inline constexpr std::uint32_t kAuthToken = 1;
inline constexpr std::uint32_t kAuthSignature = 2;
inline constexpr std::uint32_t kAuthRsaPublicKey = 3;

// The version that lets both sides skip payload checksums and use 1 MiB payloads.
inline constexpr std::uint32_t kProtocolVersion = 0x01000001;
inline constexpr std::size_t kMaxPayload = std::size_t{1} << 20;
inline constexpr std::size_t kHeaderSize = 24;

struct Message {
  std::uint32_t command = 0;
  std::uint32_t arg0 = 0;
  std::uint32_t arg1 = 0;
  std::string payload;
};

// The byte-sum of the payload (what version 0x01000000 peers expect in data_check).
std::uint32_t payload_checksum(std::string_view payload) noexcept;

// Appends header and payload to `out`; data_check is the byte-sum, magic = command ^ ~0.
void append_message(std::string& out, std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
                    std::string_view payload = {});
std::string encode_message(const Message& message);

// "CNXN", "WRTE", ... or the hex value of an unknown command, for diagnostics.
std::string command_name(std::uint32_t command);

// Reassembles messages from bytes arriving in pieces of any size. A broken stream (bad magic,
// a payload over the limit) is final: the peer cannot be resynchronised, so the caller closes.
class MessageDecoder {
 public:
  enum class Error { None, BadMagic, PayloadTooLarge };

  explicit MessageDecoder(std::size_t max_payload = kMaxPayload) noexcept;

  // Applies to headers not yet decoded (the limit changes with the CNXN negotiation).
  void set_max_payload(std::size_t max_payload) noexcept { max_payload_ = max_payload; }
  std::size_t max_payload() const noexcept { return max_payload_; }

  // Ignored once error() is set.
  void feed(std::string_view bytes);
  // The next complete message, or nullopt when more bytes are needed or the stream broke.
  std::optional<Message> next();

  Error error() const noexcept { return error_; }
  std::size_t buffered_bytes() const noexcept { return buffer_.size() - head_; }

 private:
  std::size_t max_payload_;
  std::string buffer_;
  std::size_t head_ = 0;  // consumed prefix of buffer_, dropped lazily to keep feed() linear
  Error error_ = Error::None;
};

std::string_view to_string(MessageDecoder::Error error) noexcept;

}  // namespace clawperator::vdevice::adb
