#include "clawperator/transport/base64.hpp"

#include <array>
#include <cstdint>

namespace clawperator::transport {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kInvalid = 0x80;  // one bit test catches any bad character in a group

constexpr std::array<std::uint8_t, 256> kDecodeTable = [] {
  std::array<std::uint8_t, 256> table{};
  table.fill(kInvalid);
  for (std::size_t value = 0; value < kAlphabet.size(); ++value) {
    table[static_cast<unsigned char>(kAlphabet[value])] = static_cast<std::uint8_t>(value);
  }
  return table;
}();

std::uint8_t sextet(char c) noexcept {
  return kDecodeTable[static_cast<unsigned char>(c)];
}

std::size_t padding_of(std::string_view text) noexcept {
  if (text.ends_with("==")) return 2;
  if (text.ends_with('=')) return 1;
  return 0;
}

}  // namespace

std::string encode_base64(std::string_view bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t pos = 0;
  for (; pos + 3 <= bytes.size(); pos += 3) {
    const std::uint32_t group =
        static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos])) << 16 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos + 1])) << 8 |
        static_cast<unsigned char>(bytes[pos + 2]);
    text += kAlphabet[group >> 18 & 0x3F];
    text += kAlphabet[group >> 12 & 0x3F];
    text += kAlphabet[group >> 6 & 0x3F];
    text += kAlphabet[group & 0x3F];
  }
  const std::size_t rest = bytes.size() - pos;
  if (rest > 0) {
    std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos])) << 16;
    if (rest == 2) {
      group |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos + 1])) << 8;
    }
    text += kAlphabet[group >> 18 & 0x3F];
    text += kAlphabet[group >> 12 & 0x3F];
    text += rest == 2 ? kAlphabet[group >> 6 & 0x3F] : '=';
    text += '=';
  }
  return text;
}

std::optional<std::size_t> base64_decoded_size(std::string_view text) noexcept {
  if (text.size() % 4 != 0) return std::nullopt;
  const std::size_t padding = padding_of(text);
  // '=' anywhere but the last one or two places is never canonical.
  if (text.substr(0, text.size() - padding).find('=') != std::string_view::npos) {
    return std::nullopt;
  }
  return text.size() / 4 * 3 - padding;
}

bool append_base64_decoded(std::string_view text, std::string& out) {
  const std::optional<std::size_t> decoded_size = base64_decoded_size(text);
  if (!decoded_size) return false;
  if (text.empty()) return true;

  const std::size_t original_size = out.size();
  out.resize(original_size + *decoded_size);
  char* write = out.data() + original_size;
  const std::size_t full_groups = text.size() / 4 - 1;  // the last group may carry padding
  const char* read = text.data();
  for (std::size_t group = 0; group < full_groups; ++group, read += 4) {
    const std::uint8_t a = sextet(read[0]);
    const std::uint8_t b = sextet(read[1]);
    const std::uint8_t c = sextet(read[2]);
    const std::uint8_t d = sextet(read[3]);
    if ((a | b | c | d) & kInvalid) {
      out.resize(original_size);
      return false;
    }
    const std::uint32_t bits =
        std::uint32_t{a} << 18 | std::uint32_t{b} << 12 | std::uint32_t{c} << 6 | d;
    *write++ = static_cast<char>(bits >> 16);
    *write++ = static_cast<char>(bits >> 8 & 0xFF);
    *write++ = static_cast<char>(bits & 0xFF);
  }

  const std::size_t padding = padding_of(text);
  const std::uint8_t a = sextet(read[0]);
  const std::uint8_t b = sextet(read[1]);
  const std::uint8_t c = padding == 2 ? 0 : sextet(read[2]);
  const std::uint8_t d = padding >= 1 ? 0 : sextet(read[3]);
  // Canonical text leaves the bits below the last decoded byte at zero.
  const bool stray_bits = (padding == 2 && (b & 0x0F) != 0) || (padding == 1 && (c & 0x03) != 0);
  if (((a | b | c | d) & kInvalid) || stray_bits) {
    out.resize(original_size);
    return false;
  }
  const std::uint32_t bits =
      std::uint32_t{a} << 18 | std::uint32_t{b} << 12 | std::uint32_t{c} << 6 | d;
  *write++ = static_cast<char>(bits >> 16);
  if (padding < 2) *write++ = static_cast<char>(bits >> 8 & 0xFF);
  if (padding < 1) *write = static_cast<char>(bits & 0xFF);
  return true;
}

std::optional<std::string> decode_base64(std::string_view text) {
  std::string bytes;
  if (!append_base64_decoded(text, bytes)) return std::nullopt;
  return bytes;
}

}  // namespace clawperator::transport
