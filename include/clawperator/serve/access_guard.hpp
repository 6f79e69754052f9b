// Who may call the server (docs/serve.md §4): the Host and Origin of a request must be the
// server's own, and the token, as `Authorization: Bearer`, is required on every route but
// /ping and the inspector's own files, loopback included unless --no-token. Never a cookie:
// browsers send a cookie of 127.0.0.1 to every port of it, so a page of any other local
// server received it. Pure.
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
  bool token_in_query = false;                    // a `token` parameter in the query string
};

bool is_loopback_host(std::string_view host);

// Equal in time that depends on the lengths only (CRYPTO_memcmp).
bool tokens_equal(std::string_view left, std::string_view right);

// The paths anyone may fetch (with the server's Host): /ping, and the inspector's page and
// files (/, /inspector/<name>), which hold no data and are the same in every build. Without
// them the browser could not load the page that reads the token from the URL's fragment.
bool is_public_path(std::string_view path);

// The token a request carries: `Authorization: Bearer <token>` (the scheme in any case).
// nullopt when it carries none.
std::optional<std::string_view> presented_token(const RequestFacts& request);

// FORBIDDEN_ORIGIN (403) for a foreign Host or Origin; UNAUTHORIZED (401) for a token in the
// query string (with details.parameter "token", whatever else the request carries), or for a
// missing or wrong token; success when the request may proceed.
contract::Status check_access(const AccessPolicy& policy, const RequestFacts& request);

}  // namespace clawperator::serve
