#include "clawperator/transport/sha256.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>

namespace clawperator::transport {

void Sha256::ContextDeleter::operator()(evp_md_ctx_st* context) const noexcept {
  EVP_MD_CTX_free(context);
}

namespace {

// Initialising OpenSSL costs about 0.7 ms, 0.3 of it reading the system's openssl.cnf, which
// cannot change what SHA-256 computes: skip the file, and pay the rest only when a chunked
// result actually needs a digest (a single-line result never does).
bool initialise_openssl() noexcept {
  static const bool initialised = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr) == 1;
  return initialised;
}

}  // namespace

Sha256::Sha256() noexcept = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;
Sha256::~Sha256() = default;

void Sha256::start() noexcept {
  started_ = true;
  if (context_ == nullptr && initialise_openssl()) context_.reset(EVP_MD_CTX_new());
  failed_ = context_ == nullptr || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1;
}

void Sha256::update(std::string_view bytes) noexcept {
  if (bytes.empty()) return;
  if (!started_) start();
  if (failed_) return;
  failed_ = EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size()) != 1;
}

std::string Sha256::finish_hex() {
  if (!started_) start();
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_size = 0;
  const bool ok = !failed_ && EVP_DigestFinal_ex(context_.get(), digest.data(), &digest_size) == 1;
  started_ = false;
  failed_ = false;
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
