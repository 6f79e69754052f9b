// append_base64_decoded (vectorised where the CPU allows) against a plain reference decoder:
// the same canonical texts accepted, the same bytes, and `out` untouched on rejection.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "clawperator/transport/base64.hpp"

using namespace clawperator::transport;

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Canonical base64 only: the text must be what encoding the decoded bytes gives back.
std::optional<std::string> reference_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string bytes;
  std::uint32_t bits = 0;
  int bit_count = 0;
  std::size_t padding = 0;
  for (const char c : text) {
    if (c == '=') {
      ++padding;
      continue;
    }
    const std::size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos || padding > 0) return std::nullopt;
    bits = bits << 6 | static_cast<std::uint32_t>(value);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      bytes += static_cast<char>(bits >> bit_count & 0xFF);
    }
  }
  if (padding > 2 || encode_base64(bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace

TEST_CASE("base64: the decoder agrees with a reference on damaged texts of every length",
          "[transport][base64]") {
  std::mt19937_64 random(2024);
  const auto pick = [&random](std::size_t bound) {
    return std::uniform_int_distribution<std::size_t>(0, bound - 1)(random);
  };
  std::size_t accepted = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    std::string bytes(trial < 1200 ? static_cast<std::size_t>(trial) : pick(1400), '\0');
    for (char& c : bytes) c = static_cast<char>(pick(256));
    std::string text = encode_base64(bytes);
    if (trial % 2 == 1 && !text.empty()) {
      // One character replaced by any byte, anywhere: inside the vector blocks or after them.
      text[pick(text.size())] = static_cast<char>(pick(256));
    }
    const std::optional<std::string> expected = reference_decode(text);
    std::string out = "kept";
    const bool ok = append_base64_decoded(text, out);
    INFO("length " << text.size());
    REQUIRE(ok == expected.has_value());
    CHECK(out == (ok ? "kept" + *expected : std::string("kept")));
    accepted += ok ? 1 : 0;
  }
  CHECK(accepted > 3000);
}

TEST_CASE("base64: every byte value at every position of a 1024-byte slice's text",
          "[transport][base64]") {
  std::string bytes(1024, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);
  const std::string text = encode_base64(bytes);
  std::size_t mismatches = 0;  // one assertion for ~27,000 cases
  for (std::size_t position = 0; position < text.size(); position += 13) {
    for (int value = 0; value < 256; ++value) {
      std::string damaged = text;
      damaged[position] = static_cast<char>(value);
      const std::optional<std::string> expected = reference_decode(damaged);
      std::string out;
      if (append_base64_decoded(damaged, out) != expected.has_value() ||
          (expected && out != *expected)) {
        if (++mismatches <= 3) WARN("differs at position " << position << ", byte " << value);
      }
    }
  }
  CHECK(mismatches == 0);
}
