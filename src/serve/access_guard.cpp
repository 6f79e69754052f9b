#include "clawperator/serve/access_guard.hpp"

#include <arpa/inet.h>
#include <openssl/crypto.h>

#include <string>

#include "clawperator/text.hpp"

namespace clawperator::serve {
namespace {

using contract::HostError;

// "host:port" or "[v6]:port" into the host (brackets removed) and the port ("" when absent).
std::pair<std::string, std::string> split_authority(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return {std::string(authority), ""};
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() == ':') rest.remove_prefix(1);
    return {std::string(authority.substr(1, close - 1)), std::string(rest)};
  }
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos) return {std::string(authority), ""};
  return {std::string(authority.substr(0, colon)), std::string(authority.substr(colon + 1))};
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[16];
  return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

// A name the server answers to: an address (no DNS involved), localhost, or the --host name.
// Any other name may have been rebound by DNS to an address of ours.
bool own_authority(const AccessPolicy& policy, std::string_view authority) {
  const auto [host, port] = split_authority(lowercase(authority));
  if (port != std::to_string(policy.port) && !(port.empty() && policy.port == 80)) return false;
  return is_ip_literal(host) || host == "localhost" || host == lowercase(policy.bind_host);
}

HostError forbidden(const std::string& message, const char* header) {
  HostError error = contract::usage_error("FORBIDDEN_ORIGIN", message);
  error.details["header"] = header;
  return error;
}

}  // namespace

bool is_loopback_host(std::string_view host) {
  const std::string name = lowercase(host);
  if (name == "localhost" || name == "::1" || name == "[::1]") return true;
  in_addr address{};
  if (::inet_pton(AF_INET, name.c_str(), &address) != 1) return false;
  return (ntohl(address.s_addr) >> 24) == 127;
}

bool tokens_equal(std::string_view left, std::string_view right) {
  if (left.size() != right.size()) return false;
  return CRYPTO_memcmp(left.data(), right.data(), left.size()) == 0;
}

std::optional<HostError> check_access(const AccessPolicy& policy, const RequestFacts& request) {
  if (!request.host || !own_authority(policy, *request.host)) {
    return forbidden("The Host header does not name this server", "Host");
  }
  if (request.origin) {
    // Same origin only: the page must come from this server, by the name it was called by.
    constexpr std::string_view kScheme = "http://";
    const std::string origin = lowercase(*request.origin);
    if (origin.rfind(kScheme, 0) != 0 ||
        origin.substr(kScheme.size()) != lowercase(*request.host)) {
      return forbidden("The Origin of this request is another site", "Origin");
    }
  }
  if (policy.token.empty() || request.path == "/ping") return std::nullopt;
  const auto token = presented_token(policy, request);
  if (!token) {
    return contract::usage_error(
        "UNAUTHORIZED",
        "This server needs its token: Authorization: Bearer <token>, or open the URL it printed");
  }
  if (!tokens_equal(*token, policy.token)) {
    return contract::usage_error("UNAUTHORIZED", "The token is wrong");
  }
  return std::nullopt;
}

std::string token_cookie_name(int port) {
  return "clawperator_token_" + std::to_string(port);
}

std::string token_cookie(const AccessPolicy& policy) {
  return token_cookie_name(policy.port) + "=" + policy.token +
         "; Path=/; HttpOnly; SameSite=Strict";
}

std::optional<std::string_view> presented_token(const AccessPolicy& policy,
                                                const RequestFacts& request) {
  if (request.authorization) {
    std::string_view value = trim(*request.authorization);
    constexpr std::string_view kBearer = "bearer ";
    if (value.size() > kBearer.size() && lowercase(value.substr(0, kBearer.size())) == kBearer) {
      return trim(value.substr(kBearer.size()));
    }
  }
  if (request.cookie) {
    const std::string name = token_cookie_name(policy.port);
    std::string_view rest = *request.cookie;
    while (!rest.empty()) {
      const auto end = rest.find(';');
      const std::string_view pair = trim(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      const auto equals = pair.find('=');
      if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
        return pair.substr(equals + 1);
      }
    }
  }
  return std::nullopt;
}

}  // namespace clawperator::serve
