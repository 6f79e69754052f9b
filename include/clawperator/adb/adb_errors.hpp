// adb's own failure texts, classified into catalog codes (docs/wire-protocol.md §2.6, §3).
// Matching is by stable fragments, so newer adb wordings around them still work.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

std::optional<std::string> classify_adb_failure(std::string_view output);

}  // namespace clawperator::adb
