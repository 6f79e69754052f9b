// SHA-256 through OpenSSL's EVP interface, as lowercase hex.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

// OpenSSL's EVP_MD_CTX, declared here so that the header does not pull in OpenSSL.
struct evp_md_ctx_st;

namespace clawperator::transport {

inline constexpr std::size_t kSha256HexLength = 64;

// Incremental hashing, so that a large reassembled result is hashed as it arrives.
class Sha256 {
 public:
  Sha256() noexcept;
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  ~Sha256();

  void update(std::string_view bytes) noexcept;
  // 64 lowercase hex digits; empty if OpenSSL failed at any point (which then can match no
  // expected digest). The hasher starts over afterwards.
  std::string finish_hex();

 private:
  struct ContextDeleter {
    void operator()(evp_md_ctx_st* context) const noexcept;
  };
  // OpenSSL is set up on the first use, not at construction.
  void start() noexcept;

  std::unique_ptr<evp_md_ctx_st, ContextDeleter> context_;
  bool started_ = false;
  bool failed_ = false;
};

std::string sha256_hex(std::string_view bytes);

// Exactly 64 characters from [0-9a-f].
bool is_lowercase_sha256_hex(std::string_view text) noexcept;

}  // namespace clawperator::transport
