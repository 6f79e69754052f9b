// `devices`: every device the adb server knows, in every state (docs/commands.md), for the CLI,
// MCP's `devices` and serve's GET /devices alike.
#pragma once

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

// {"devices": [...]}, or ADB_NOT_FOUND / ADB_SERVER_FAILED as adb's call failed.
contract::Outcome<Json> list_devices(const adb::AdbSettings& settings);

}  // namespace clawperator::service
