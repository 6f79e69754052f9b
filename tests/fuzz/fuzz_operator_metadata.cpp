// The Operator's release metadata and its .sha256 text: any bytes end in a release whose
// version is X.Y.Z, whose addresses check_url allows and whose checksum is 64 lowercase hex
// digits, or in a named field's refusal, never a crash. The same bytes as an address and as
// a version beside it never crash either.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/contract/operator_version.hpp"
#include "clawperator/download/release.hpp"
#include "clawperator/transport/sha256.hpp"

namespace {

void check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace download = clawperator::download;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto metadata = download::parse_release_metadata(text);
  if (metadata) {
    check(clawperator::contract::parse_release_version(metadata->version).has_value());
    check(download::check_url(metadata->apk_url).has_value());
    check(metadata->sha256 || metadata->sha256_url);
    if (metadata->sha256) {
      check(clawperator::transport::is_lowercase_sha256_hex(*metadata->sha256));
    }
    if (metadata->sha256_url) check(download::check_url(*metadata->sha256_url).has_value());
  } else {
    check(!metadata.error().problem.empty());
  }
  if (const auto sum = download::parse_sha256_text(text)) {
    check(clawperator::transport::is_lowercase_sha256_hex(*sum));
  }
  (void)download::check_url(text);
  const std::size_t half = size / 2;
  const auto versioned = download::versioned_release(text.substr(0, half), text.substr(half));
  if (versioned) check(download::check_url(versioned->apk_url).has_value());
  return 0;
}
