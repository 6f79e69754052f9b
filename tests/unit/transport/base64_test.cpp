#include "clawperator/transport/base64.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>

using clawperator::transport::append_base64_decoded;
using clawperator::transport::base64_decoded_size;
using clawperator::transport::decode_base64;
using clawperator::transport::encode_base64;

TEST_CASE("base64 RFC 4648 vectors", "[transport][base64]") {
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [bytes, text] : vectors) {
    CHECK(encode_base64(bytes) == text);
    CHECK(decode_base64(text) == std::optional<std::string>(bytes));
    CHECK(base64_decoded_size(text) == std::optional<std::size_t>(bytes.size()));
  }
  CHECK(encode_base64(std::string("\xfb\xff\xbf", 3)) == "+/+/");
  CHECK(decode_base64("+/+/") == std::optional<std::string>(std::string("\xfb\xff\xbf", 3)));
}

TEST_CASE("base64 round-trips every byte value and random data", "[transport][base64]") {
  std::string all;
  for (int value = 0; value < 256; ++value) all += static_cast<char>(value);
  CHECK(decode_base64(encode_base64(all)) == std::optional<std::string>(all));

  std::mt19937 random(7);
  for (std::size_t size = 0; size < 40; ++size) {
    std::string bytes;
    for (std::size_t i = 0; i < size; ++i) bytes += static_cast<char>(random() & 0xFF);
    CHECK(decode_base64(encode_base64(bytes)) == std::optional<std::string>(bytes));
  }
}

TEST_CASE("base64 rejects non-canonical text", "[transport][base64]") {
  const char* rejected[] = {
      "Zg",        // missing padding
      "Zg=",       // short padding
      "Zg===",     // too much padding
      "Zh==",      // non-zero pad bits (would decode to "f" too)
      "Zm9=",      // non-zero pad bits in the one-pad form
      "Zm9v\n",    // whitespace
      "Zm 9v",     // whitespace inside
      "Zm9v-_==",  // URL-safe alphabet
      "Zm9vYg=a",  // padding not at the end
      "Zg==Zg==",  // padding in the middle
      "====",      // nothing but padding
      "Z===",      // three pads
      "Zm9\x80",   // a byte outside ASCII
      "Zm9v*A==",  // a bad character in the last group
  };
  for (const char* text : rejected) {
    INFO("text: " << text);
    CHECK_FALSE(decode_base64(text).has_value());
  }
  CHECK_FALSE(base64_decoded_size("Zg").has_value());
  CHECK_FALSE(base64_decoded_size("Zg==Zg==").has_value());
  CHECK_FALSE(base64_decoded_size("Z===").has_value());
}

TEST_CASE("base64 append leaves the output untouched on failure", "[transport][base64]") {
  std::string out = "kept";
  CHECK_FALSE(append_base64_decoded("Zm9vYmFy!A==", out));
  CHECK(out == "kept");
  CHECK_FALSE(append_base64_decoded("Zm9vZh==", out));
  CHECK(out == "kept");
  CHECK(append_base64_decoded("Zm9vYmFy", out));
  CHECK(out == "keptfoobar");
}
