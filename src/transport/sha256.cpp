#include "clawperator/transport/sha256.hpp"

#include <openssl/evp.h>

#include <array>

namespace clawperator::transport {

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* context) const noexcept {
  EVP_MD_CTX_free(context);
}

Sha256::Sha256() noexcept : context_(EVP_MD_CTX_new()) {
  restart();
}
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;
Sha256::~Sha256() = default;

void Sha256::restart() noexcept {
  failed_ = context_ == nullptr || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1;
}

void Sha256::update(std::string_view bytes) noexcept {
  if (failed_ || context_ == nullptr || bytes.empty()) return;
  failed_ = EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()) != 1;
}

std::string Sha256::finish_hex() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_size = 0;
  const bool ok = !failed_ && context_ != nullptr &&
                  EVP_DigestFinal_ex(context_.get(), digest.data(), &digest_size) == 1;
  restart();
  if (!ok) return {};

  static constexpr std::string_view kHexDigits = "0123456789abcdef";
  std::string hex;
  hex.reserve(std::size_t{digest_size} * 2);
  for (unsigned int i = 0; i < digest_size; ++i) {
    hex += kHexDigits[digest[i] >> 4];
    hex += kHexDigits[digest[i] & 0x0F];
  }
  return hex;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.finish_hex();
}

bool is_lowercase_sha256_hex(std::string_view text) noexcept {
  if (text.size() != kSha256HexLength) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace clawperator::transport
