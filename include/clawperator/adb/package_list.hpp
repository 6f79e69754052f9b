// `pm list packages` output (docs/wire-protocol.md §4.1).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::adb {

// Every `package:NAME` line, trimmed; a column a flag adds after the name is not part of it.
std::set<std::string> parse_package_list(std::string_view text);

// `pm list packages -U`: "package:NAME uid:10123" (with several users "uid:10123,1010123"):
// each package's uids, in decimal; none when the line has no uid column (docs/guardrails.md).
std::map<std::string, std::vector<std::string>> parse_package_uids(std::string_view text);

// The other build variant of an Operator package: NAME <-> NAME.dev.
std::string alternate_operator_variant(std::string_view package);

}  // namespace clawperator::adb
