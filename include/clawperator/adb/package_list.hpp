// `pm list packages` output (docs/wire-protocol.md §4.1).
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace clawperator::adb {

// Every `package:NAME` line, trimmed.
std::set<std::string> parse_package_list(std::string_view text);

// The other build variant of an Operator package: NAME <-> NAME.dev.
std::string alternate_operator_variant(std::string_view package);

}  // namespace clawperator::adb
