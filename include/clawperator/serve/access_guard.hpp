// Who may call the server (docs/serve.md §4): the Host and Origin of a request must be the
// server's own, and beyond loopback a bearer token is required on every route but /ping.
// Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"

namespace clawperator::serve {

struct AccessPolicy {
  std::string bind_host;  // as given to --host
  int port = 0;
  std::string token;  // empty: no token (a loopback bind)
};

struct RequestFacts {
  std::string_view path;
  std::optional<std::string_view> host;           // the Host header
  std::optional<std::string_view> origin;         // the Origin header (browsers send it)
  std::optional<std::string_view> authorization;  // the Authorization header
};

bool is_loopback_host(std::string_view host);

// Equal in time that depends on the lengths only (CRYPTO_memcmp).
bool tokens_equal(std::string_view left, std::string_view right);

// FORBIDDEN_ORIGIN (403) for a foreign Host or Origin, UNAUTHORIZED (401) for a missing or
// wrong token, nullopt when the request may proceed.
std::optional<contract::HostError> check_access(const AccessPolicy& policy,
                                                const RequestFacts& request);

}  // namespace clawperator::serve
