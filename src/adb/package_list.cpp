#include "clawperator/adb/package_list.hpp"

namespace clawperator::adb {

namespace {

// Calls `visit(name, rest)` for every "package:NAME[ rest]" line, trimmed.
template <typename Visit>
void for_each_package_line(std::string_view text, Visit visit) {
  constexpr std::string_view kPrefix = "package:";
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line.rfind(kPrefix, 0) != 0 || line.size() == kPrefix.size()) continue;
    line.remove_prefix(kPrefix.size());
    // A package name holds no blank: what follows one is a flag's column (-U's "uid:N").
    const auto blank = line.find_first_of(" \t");
    if (blank == 0) continue;
    visit(line.substr(0, blank),
          blank == std::string_view::npos ? std::string_view() : line.substr(blank + 1));
  }
}

}  // namespace

std::set<std::string> parse_package_list(std::string_view text) {
  std::set<std::string> packages;
  for_each_package_line(text,
                        [&](std::string_view name, std::string_view) { packages.emplace(name); });
  return packages;
}

std::map<std::string, std::vector<std::string>> parse_package_uids(std::string_view text) {
  std::map<std::string, std::vector<std::string>> packages;
  for_each_package_line(text, [&](std::string_view name, std::string_view rest) {
    std::vector<std::string>& uids = packages[std::string(name)];
    constexpr std::string_view kUid = "uid:";
    const auto at = rest.find(kUid);
    if (at == std::string_view::npos || (at > 0 && rest[at - 1] != ' ' && rest[at - 1] != '\t')) {
      return;
    }
    std::string_view list = rest.substr(at + kUid.size());
    list = list.substr(0, list.find_first_of(" \t"));
    // Several users: "uid:10123,1010123". Only decimal numbers are uids.
    while (!list.empty()) {
      const auto comma = list.find(',');
      const std::string_view uid = list.substr(0, comma);
      if (!uid.empty() && uid.size() <= 10 &&
          uid.find_first_not_of("0123456789") == std::string_view::npos) {
        uids.emplace_back(uid);
      }
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  });
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
