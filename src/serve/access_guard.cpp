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

contract::Status check_access(const AccessPolicy& policy, const RequestFacts& request) {
  if (!request.host || !own_authority(policy, *request.host)) {
    return contract::failed(forbidden("The Host header does not name this server", "Host"));
  }
  if (request.origin) {
    // Same origin only: the page must come from this server, by the name it was called by.
    constexpr std::string_view kScheme = "http://";
    const std::string origin = lowercase(*request.origin);
    if (origin.rfind(kScheme, 0) != 0 ||
        origin.substr(kScheme.size()) != lowercase(*request.host)) {
      return contract::failed(forbidden("The Origin of this request is another site", "Origin"));
    }
  }
  if (request.token_in_query) {
    // Never a credential, whatever else the request carries: a query string lands in access
    // logs, proxies and the browser's history. Refused rather than ignored, so that the
    // mistake shows at once (docs/serve.md §4, "The token").
    HostError error = contract::usage_error(
        "UNAUTHORIZED",
        "A token in the query string is never accepted (it would land in logs and history): "
        "send Authorization: Bearer <token>, or open the URL the server printed (#token=...)");
    error.details["parameter"] = "token";
    return contract::failed(std::move(error));
  }
  if (policy.token.empty() || is_public_path(request.path)) return {};
  const auto token = presented_token(request);
  if (!token) {
    return contract::failed(contract::usage_error(
        "UNAUTHORIZED",
        "This server needs its token: Authorization: Bearer <token>, or open the URL it printed"));
  }
  if (!tokens_equal(*token, policy.token)) {
    return contract::failed(contract::usage_error("UNAUTHORIZED", "The token is wrong"));
  }
  return {};
}

bool is_public_path(std::string_view path) {
  if (path == "/ping" || path == "/") return true;
  constexpr std::string_view kInspector = "/inspector/";
  return path.starts_with(kInspector) && path.size() > kInspector.size() &&
         path.substr(kInspector.size()).find('/') == std::string_view::npos;
}

std::optional<std::string_view> presented_token(const RequestFacts& request) {
  if (!request.authorization) return std::nullopt;
  std::string_view value = trim(*request.authorization);
  constexpr std::string_view kBearer = "bearer ";
  if (value.size() > kBearer.size() && lowercase(value.substr(0, kBearer.size())) == kBearer) {
    return trim(value.substr(kBearer.size()));
  }
  return std::nullopt;
}

}  // namespace clawperator::serve
