// Which device a command talks to (docs/wire-protocol.md §2.3).
#pragma once

#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::adb {

// The serial to use: the requested one as it is (adb itself then says whether it exists,
// saving a round trip), or the single usable device of `adb devices -l`.
contract::Outcome<std::string> resolve_device(AdbClient& client,
                                              const std::optional<std::string>& requested);

}  // namespace clawperator::adb
