// Who may call the server (docs/serve.md §4): the Host and Origin of a request must be the
// server's own, and the token (a bearer token, or the cookie the inspector's first visit
// set) is required on every route but /ping, loopback included unless --no-token. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"

namespace clawperator::serve {

struct AccessPolicy {
  std::string bind_host;  // as given to --host
  int port = 0;
  std::string token;  // empty: no token (--no-token, a loopback bind)
};

struct RequestFacts {
  std::string_view path;
  std::optional<std::string_view> host;           // the Host header
  std::optional<std::string_view> origin;         // the Origin header (browsers send it)
  std::optional<std::string_view> authorization;  // the Authorization header
  std::optional<std::string_view> cookie;         // the Cookie header
};

bool is_loopback_host(std::string_view host);

// Equal in time that depends on the lengths only (CRYPTO_memcmp).
bool tokens_equal(std::string_view left, std::string_view right);

// The cookie that carries the token for the inspector's page and its EventSource, named after
// the port (cookies do not tell ports apart): "clawperator_token_3000".
std::string token_cookie_name(int port);
// Its Set-Cookie value: HttpOnly (no script reads it), SameSite=Strict (no other site's
// request carries it), Path=/.
std::string token_cookie(const AccessPolicy& policy);

// The token a request carries: `Authorization: Bearer <token>` (the scheme in any case), else
// the cookie. nullopt when it carries none.
std::optional<std::string_view> presented_token(const AccessPolicy& policy,
                                                const RequestFacts& request);

// FORBIDDEN_ORIGIN (403) for a foreign Host or Origin, UNAUTHORIZED (401) for a missing or
// wrong token, nullopt when the request may proceed.
std::optional<contract::HostError> check_access(const AccessPolicy& policy,
                                                const RequestFacts& request);

}  // namespace clawperator::serve
