#include "clawperator/adb/package_dump.hpp"

#include <charconv>

#include "clawperator/text.hpp"

namespace clawperator::adb {
namespace {

// The value of `key=` in a line of space-separated key=value pairs.
std::optional<std::string_view> field(std::string_view line, std::string_view key) {
  std::size_t at = 0;
  while ((at = line.find(key, at)) != std::string_view::npos) {
    const bool starts_word = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
    if (starts_word && at + key.size() < line.size() && line[at + key.size()] == '=') {
      std::string_view value = line.substr(at + key.size() + 1);
      // versionName may contain spaces ("1.2 beta"): it is always alone on its line.
      if (key != "versionName") value = value.substr(0, value.find(' '));
      return trim(value);
    }
    at += key.size();
  }
  return std::nullopt;
}

PackageVersion scan(std::string_view text) {
  PackageVersion version;
  while (!text.empty() && (!version.version_name || !version.version_code)) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!version.version_name) {
      if (auto name = field(line, "versionName")) version.version_name = std::string(*name);
    }
    if (!version.version_code) {
      if (auto code = field(line, "versionCode")) {
        long long value = 0;
        const auto [next, error] =
            std::from_chars(code->data(), code->data() + code->size(), value);
        if (error == std::errc() && next == code->data() + code->size()) {
          version.version_code = value;
        }
      }
    }
  }
  return version;
}

}  // namespace

PackageVersion parse_package_version(std::string_view dump, std::string_view package) {
  const std::string header = "Package [" + std::string(package) + "]";
  const auto block = dump.find(header);
  if (block == std::string_view::npos) return scan(dump);
  std::string_view rest = dump.substr(block + header.size());
  // The block ends where the next package's begins.
  if (const auto next = rest.find("Package ["); next != std::string_view::npos) {
    rest = rest.substr(0, next);
  }
  return scan(rest);
}

}  // namespace clawperator::adb
