#include "clawperator/contract/operator_version.hpp"

#include <charconv>

#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

// One decimal component without sign or leading "+"; false when absent or too large.
bool read_component(std::string_view& text, int& out) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin == end || *begin < '0' || *begin > '9') return false;
  const auto [next, error] = std::from_chars(begin, end, out);
  if (error != std::errc()) return false;
  text.remove_prefix(static_cast<std::size_t>(next - begin));
  return true;
}

}  // namespace

std::string normalize_version(std::string_view text) {
  std::string_view trimmed = trim(text);
  if (trimmed.size() > 2 && trimmed.substr(trimmed.size() - 2) == "-d") {
    trimmed.remove_suffix(2);
  }
  return std::string(trimmed);
}

std::optional<ReleaseVersion> parse_release_version(std::string_view text) {
  ReleaseVersion version;
  if (!read_component(text, version.major) || text.empty() || text.front() != '.') {
    return std::nullopt;
  }
  text.remove_prefix(1);
  if (!read_component(text, version.minor) || text.empty() || text.front() != '.') {
    return std::nullopt;
  }
  text.remove_prefix(1);
  if (!read_component(text, version.patch) || !text.empty()) return std::nullopt;
  return version;
}

std::string to_string(const ReleaseVersion& version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
         std::to_string(version.patch);
}

std::string supported_operator_range() {
  return ">=" + to_string(kMinimumOperatorVersion);
}

Compatibility operator_compatibility(std::string_view apk_version_name) {
  const auto version = parse_release_version(normalize_version(apk_version_name));
  if (!version) return Compatibility::Invalid;
  return *version < kMinimumOperatorVersion ? Compatibility::TooOld : Compatibility::Compatible;
}

}  // namespace clawperator::contract
