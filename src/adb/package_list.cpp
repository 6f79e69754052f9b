#include "clawperator/adb/package_list.hpp"

namespace clawperator::adb {

std::set<std::string> parse_package_list(std::string_view text) {
  std::set<std::string> packages;
  constexpr std::string_view kPrefix = "package:";
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line.rfind(kPrefix, 0) == 0 && line.size() > kPrefix.size()) {
      packages.emplace(line.substr(kPrefix.size()));
    }
  }
  return packages;
}

std::string alternate_operator_variant(std::string_view package) {
  constexpr std::string_view kDebugSuffix = ".dev";
  if (package.size() > kDebugSuffix.size() &&
      package.substr(package.size() - kDebugSuffix.size()) == kDebugSuffix) {
    return std::string(package.substr(0, package.size() - kDebugSuffix.size()));
  }
  return std::string(package) + std::string(kDebugSuffix);
}

}  // namespace clawperator::adb
