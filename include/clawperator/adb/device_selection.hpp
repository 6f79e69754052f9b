// Choosing the one device an execution targets (docs/wire-protocol.md §2.3).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/device_list.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::adb {

// The requested serial (from --device or ANDROID_SERIAL) or the single usable
// device; otherwise the precise readiness error.
contract::Outcome<DeviceEntry> select_device(const std::vector<DeviceEntry>& devices,
                                             const std::optional<std::string>& requested);

Json device_to_json(const DeviceEntry& device);

}  // namespace clawperator::adb
