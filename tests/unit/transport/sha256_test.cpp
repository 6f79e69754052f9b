#include "clawperator/transport/sha256.hpp"

#include <catch2/catch.hpp>
#include <string>

using clawperator::transport::is_lowercase_sha256_hex;
using clawperator::transport::Sha256;
using clawperator::transport::sha256_hex;

TEST_CASE("sha256 known digests in lowercase hex", "[transport][sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 incremental equals one-shot and restarts after finish", "[transport][sha256]") {
  const std::string text(5000, 'q');
  Sha256 hasher;
  for (std::size_t pos = 0; pos < text.size(); pos += 777) {
    hasher.update(std::string_view(text).substr(pos, 777));
  }
  CHECK(hasher.finish_hex() == sha256_hex(text));
  hasher.update("abc");
  CHECK(hasher.finish_hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 hex shape check", "[transport][sha256]") {
  CHECK(is_lowercase_sha256_hex(sha256_hex("x")));
  CHECK_FALSE(
      is_lowercase_sha256_hex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
  CHECK_FALSE(is_lowercase_sha256_hex("ba7816bf"));
  CHECK_FALSE(
      is_lowercase_sha256_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ag"));
  CHECK_FALSE(
      is_lowercase_sha256_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0"));
}
