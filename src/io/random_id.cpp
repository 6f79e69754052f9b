#include "clawperator/io/random_id.hpp"

#include <sys/random.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

namespace clawperator::io {

namespace {

void fill_random(std::span<std::uint8_t> bytes) {
  if (getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    // getrandom(2) unavailable (a seccomp filter, an old kernel): the C++ library's own
    // non-deterministic source (/dev/urandom or the CPU's) instead.
    std::random_device device;
    for (std::uint8_t& byte : bytes) byte = static_cast<std::uint8_t>(device());
  }
}

}  // namespace

std::string random_hex(std::size_t byte_count) {
  std::vector<std::uint8_t> bytes(byte_count);
  fill_random(bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(byte_count * 2);
  for (const std::uint8_t byte : bytes) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0xf]);
  }
  return text;
}

std::string random_uuid() {
  std::array<std::uint8_t, 16> bytes{};
  fill_random(bytes);
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3f) | 0x80);
  char text[37];
  std::snprintf(text, sizeof text,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

}  // namespace clawperator::io
