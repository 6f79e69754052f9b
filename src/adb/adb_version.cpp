#include "clawperator/adb/adb_version.hpp"

#include <charconv>
#include <vector>

#include "clawperator/text.hpp"

namespace clawperator::adb {
namespace {

std::string_view value_after(std::string_view line, std::string_view prefix) {
  if (line.substr(0, prefix.size()) != prefix) return {};
  return trim(line.substr(prefix.size()));
}

std::optional<std::vector<long>> numeric_parts(std::string_view version) {
  std::vector<long> parts;
  while (true) {
    long value = 0;
    const auto [next, error] =
        std::from_chars(version.data(), version.data() + version.size(), value);
    if (error != std::errc() || next == version.data()) return std::nullopt;
    parts.push_back(value);
    version.remove_prefix(static_cast<std::size_t>(next - version.data()));
    if (version.empty()) return parts;
    if (version.front() != '.') return std::nullopt;
    version.remove_prefix(1);
  }
}

}  // namespace

std::optional<AdbVersion> parse_adb_version(std::string_view text) {
  std::optional<AdbVersion> found;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (auto protocol = value_after(line, "Android Debug Bridge version "); !protocol.empty()) {
      found.emplace();
      found->protocol = std::string(protocol);
    } else if (!found) {
      continue;
    } else if (auto release = value_after(line, "Version "); !release.empty()) {
      found->release = std::string(release);
    } else if (auto path = value_after(line, "Installed as "); !path.empty()) {
      found->installed_as = std::string(path);
    }
  }
  return found;
}

bool version_at_least(std::string_view version, std::string_view minimum) {
  const auto have = numeric_parts(version);
  const auto want = numeric_parts(minimum);
  if (!have || !want) return false;
  return *have >= *want;
}

}  // namespace clawperator::adb
