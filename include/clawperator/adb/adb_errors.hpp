// adb's own failure texts, classified into catalog codes (docs/wire-protocol.md §2.6, §3).
// Matching is by stable fragments, so newer adb wordings around them still work.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

std::optional<std::string> classify_adb_failure(std::string_view output);

// adb's client refused its own command line before it asked its server for anything (a usage
// error: "adb: unknown command X", "adb: -s requires an argument", "adb: usage: …",
// "adb: invalid transport id", or its help text, which it prints for a command line it cannot
// read): the line that says so, or nullopt.
std::optional<std::string> adb_usage_error(std::string_view output);

}  // namespace clawperator::adb
