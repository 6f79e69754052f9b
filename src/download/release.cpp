#include "clawperator/download/release.hpp"

#include <algorithm>

#include "clawperator/contract/operator_version.hpp"
#include "clawperator/json.hpp"
#include "clawperator/text.hpp"

namespace clawperator::download {
namespace {

// Longer than any address a release needs; a bound for what is echoed in messages.
constexpr std::size_t kMaxUrlLength = 2048;

constexpr char lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

constexpr bool is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

constexpr bool is_hex(char c) noexcept {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_hex_sha256(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), is_hex);
}

// 0..255 without a sign or leading zeros beyond one digit.
bool is_octet(std::string_view text) {
  if (text.empty() || text.size() > 3 || !std::all_of(text.begin(), text.end(), is_ascii_digit)) {
    return false;
  }
  if (text.size() > 1 && text.front() == '0') return false;
  return std::stoi(std::string(text)) <= 255;
}

Unexpected<MetadataError> invalid(std::string field, std::string problem) {
  return Unexpected<MetadataError>{MetadataError{std::move(field), std::move(problem)}};
}

// A member that is text: nullopt when missing or null; an error when it is another type or
// blank. Trimmed.
Expected<std::optional<std::string>, MetadataError> text_member(const Json& document,
                                                                const char* name) {
  const auto found = document.find(name);
  if (found == document.end() || found->is_null()) return std::optional<std::string>();
  if (!found->is_string()) return invalid(name, "not a string");
  const std::string& value = found->get_ref<const std::string&>();
  if (is_blank(value)) return invalid(name, "blank");
  return std::optional<std::string>(std::string(trim(value)));
}

Expected<std::string, MetadataError> address(std::string field, std::string url) {
  if (auto checked = check_url(url); !checked) {
    return invalid(std::move(field), std::move(checked.error().message));
  }
  return url;
}

Expected<std::string, MetadataError> release_version(std::string_view text) {
  const auto parsed = contract::parse_release_version(text);
  if (!parsed) return invalid("version", "not a release version (X.Y.Z)");
  return contract::to_string(*parsed);
}

}  // namespace

std::optional<UrlParts> parse_url(std::string_view url) {
  if (url.size() > kMaxUrlLength) return std::nullopt;
  const bool printable = std::all_of(url.begin(), url.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte < 0x7f;
  });
  const std::size_t colon = url.find("://");
  if (!printable || colon == std::string_view::npos || colon == 0 || !is_letter(url.front())) {
    return std::nullopt;
  }
  const std::string_view scheme = url.substr(0, colon);
  if (!std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return is_letter(c) || is_ascii_digit(c) || c == '+' || c == '-' || c == '.';
      })) {
    return std::nullopt;
  }
  std::string_view authority = url.substr(colon + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  // Credentials in an address would be printed with it (metadataUrl, apkUrl): never taken.
  if (authority.find('@') != std::string_view::npos) return std::nullopt;
  std::string_view host;
  std::string_view rest;
  if (!authority.empty() && authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(1, close - 1);
    rest = authority.substr(close + 1);
    if (host.empty() || !std::all_of(host.begin(), host.end(),
                                     [](char c) { return is_hex(c) || c == ':' || c == '.'; })) {
      return std::nullopt;
    }
  } else {
    const std::size_t port = authority.find(':');
    host = authority.substr(0, port);
    rest = port == std::string_view::npos ? std::string_view() : authority.substr(port);
    if (host.empty() || !std::all_of(host.begin(), host.end(), [](char c) {
          return is_letter(c) || is_ascii_digit(c) || c == '.' || c == '-' || c == '_';
        })) {
      return std::nullopt;
    }
  }
  if (!rest.empty()) {
    const std::string_view port = rest.substr(1);
    if (rest.front() != ':' || port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), is_ascii_digit)) {
      return std::nullopt;
    }
  }
  return UrlParts{lowercase(scheme), lowercase(host)};
}

bool is_loopback_host(std::string_view host) {
  const std::string name = lowercase(host);
  if (name == "localhost" || name == "localhost." || name == "::1" || name == "0:0:0:0:0:0:0:1") {
    return true;
  }
  // 127.0.0.0/8, dotted quad.
  std::string_view rest = name;
  for (int part = 0; part < 4; ++part) {
    const std::size_t dot = rest.find('.');
    const std::string_view octet = rest.substr(0, dot);
    if (!is_octet(octet) || (part == 0 && octet != "127")) return false;
    if (part < 3 && dot == std::string_view::npos) return false;
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    if (part == 3 && dot != std::string_view::npos) return false;
  }
  return true;
}

Expected<void, Problem> check_url(std::string_view url) {
  const auto refused = [&](std::string why) {
    return Expected<void, Problem>(Unexpected(Problem{std::string(url), std::move(why)}));
  };
  const std::optional<UrlParts> parts = parse_url(url);
  if (!parts) return refused("not an absolute http(s) address without credentials");
  if (parts->scheme == "https") return {};
  if (parts->scheme == "http") {
    if (is_loopback_host(parts->host)) return {};
    return refused("not https (plain http only to this host: localhost, 127.0.0.0/8, ::1)");
  }
  return refused("not https (" + parts->scheme + ")");
}

Expected<ReleaseMetadata, MetadataError> parse_release_metadata(std::string_view body) {
  const Json document = parse_json(body);
  if (!document.is_object()) return invalid("", "not a JSON object");
  ReleaseMetadata metadata;

  CLAWPERATOR_TRY_ASSIGN(auto version, text_member(document, "version"));
  if (!version) return invalid("version", "missing");
  CLAWPERATOR_TRY_ASSIGN(metadata.version, release_version(*version));

  CLAWPERATOR_TRY_ASSIGN(auto apk_url, text_member(document, "apk_url"));
  if (!apk_url) return invalid("apk_url", "missing");
  CLAWPERATOR_TRY_ASSIGN(metadata.apk_url, address("apk_url", std::move(*apk_url)));

  CLAWPERATOR_TRY_ASSIGN(auto sha256, text_member(document, "sha256"));
  if (sha256) {
    if (!is_hex_sha256(*sha256)) return invalid("sha256", "not 64 hex digits");
    metadata.sha256 = lowercase(*sha256);
  }
  CLAWPERATOR_TRY_ASSIGN(auto sha256_url, text_member(document, "sha256_url"));
  if (sha256_url) {
    CLAWPERATOR_TRY_ASSIGN(metadata.sha256_url, address("sha256_url", std::move(*sha256_url)));
  } else if (!metadata.sha256) {
    return invalid("sha256_url", "missing, and no inline sha256");
  }
  return metadata;
}

std::optional<std::string> parse_sha256_text(std::string_view body) {
  body = trim(body);
  const auto end = std::find_if(body.begin(), body.end(), is_blank_char);
  const std::string_view token = body.substr(0, static_cast<std::size_t>(end - body.begin()));
  if (!is_hex_sha256(token)) return std::nullopt;
  return lowercase(token);
}

Expected<ReleaseMetadata, MetadataError> versioned_release(std::string_view metadata_url,
                                                           std::string_view version) {
  CLAWPERATOR_TRY_ASSIGN(auto canonical, release_version(trim(version)));
  // The metadata's directory: the address up to its last '/', the query and fragment left out.
  std::string_view base = metadata_url.substr(0, metadata_url.find_first_of("?#"));
  const std::size_t scheme_end = base.find("://");
  const std::size_t slash = base.rfind('/');
  if (scheme_end == std::string_view::npos || slash == std::string_view::npos ||
      slash < scheme_end + 3) {
    base = std::string_view();
  } else {
    base = base.substr(0, slash + 1);
  }
  std::string directory = base.empty() ? std::string(metadata_url) + "/" : std::string(base);
  ReleaseMetadata metadata;
  metadata.version = canonical;
  const std::string apk = directory + "v" + canonical + "/" + apk_file_name(canonical);
  CLAWPERATOR_TRY_ASSIGN(metadata.apk_url, address("apk_url", apk));
  CLAWPERATOR_TRY_ASSIGN(metadata.sha256_url, address("sha256_url", apk + ".sha256"));
  return metadata;
}

std::string apk_file_name(std::string_view version) {
  return "operator-v" + std::string(version) + ".apk";
}

}  // namespace clawperator::download
