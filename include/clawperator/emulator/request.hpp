// One emulator operation, as the CLI (`clawperator emulator …`), serve's /android routes and
// mcp serve's emulator_provision ask for it: the front ends read their own input into this and
// print what run_request returns, so the three answer alike (docs/emulator.md).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/emulator/image.hpp"
#include "clawperator/emulator/lifecycle.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::emulator {

struct EmulatorRequest {
  // list, status, inspect, create, start, stop, delete, provision
  std::string action;
  std::string name;  // inspect, start, stop, delete
  ImageSpec image = default_image();
  StartOptions start;
  CreateOptions create;
  std::chrono::milliseconds stop_timeout = kStopTimeout;
};

// The bounds every front end applies (the CLI's flags, the routes' bodies, the tool's
// arguments): an API level 21..99, a --boot-timeout 1 s..1 h, a --stop-timeout 1 s..10 min.
inline constexpr int kMinApiLevel = 21;
inline constexpr int kMaxApiLevel = 99;
inline constexpr long long kMinBootTimeoutMs = 1000;
inline constexpr long long kMaxBootTimeoutMs = 3600000;
inline constexpr long long kMinStopTimeoutMs = 1000;
inline constexpr long long kMaxStopTimeoutMs = 600000;

// The flags a caller of the HTTP server or MCP may pass to the emulator (`emulatorArgs`): a
// fixed list of flags that name no host path or program, each with its value checked;
// INVALID_BODY (details.field "emulatorArgs", details.flag) for anything else.
contract::Status check_caller_emulator_args(const std::vector<std::string>& args);

// A JSON object's image and start fields (api, target, abi, profile; headless, wipe,
// keepAnimations, bootTimeoutMs; name and force for create; stopTimeoutMs for stop) over the
// defaults. Keys of another action, unknown keys and values out of bounds are INVALID_BODY
// naming the key.
contract::Outcome<EmulatorRequest> request_from_json(std::string action, std::string name,
                                                     const Json& body);

// The request run: {avds} for list, {devices} for status, the AVD for inspect and create, the
// documents of start, stop, delete and provision (lifecycle.hpp).
contract::Outcome<Json> run_request(const EmulatorRequest& request, process::Runner& runner,
                                    adb::AdbClient& adb,
                                    const std::optional<std::filesystem::path>& log_directory);

}  // namespace clawperator::emulator
