// `recording pull`: one recording copied from the device to a new local file (docs/recording.md,
// "pull"). The session id is checked before the device is touched, the local file is written
// exclusively (never over an existing one unless `force`; one with the same bytes is the pull
// already done), and a pull that fails leaves nothing behind.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// A recording of hundreds of MB over USB 2, with room for a cold adb server.
inline constexpr std::chrono::milliseconds kPullTimeout{180000};

struct PullRequest {
  std::optional<std::string> session_id;  // nullopt: the device's `latest` pointer
  std::filesystem::path out_dir = "recordings";
  bool force = false;  // replace an existing local file
  std::string operator_package;
};

// The check that needs no device: the id's charset. Run before the device is resolved, so a
// mistake costs no adb call. (Whether an existing local file is in the way is known only once
// the device's file is pulled: the same bytes are not.)
contract::Status check_pull_request(const PullRequest& request);

// Pulls `<dir>/<id>.ndjson` into `out_dir/<id>.ndjson` and returns {ok, localPath, sessionId,
// deviceId, bytes, alreadyPresent} (alreadyPresent: the local file held the same bytes and was
// left as it was). Errors: RECORDING_SESSION_NOT_FOUND (no `latest` pointer, an invalid id, no
// such recording on the device), RECORDING_PULL_FAILED (adb's copy failed, a local
// file of other content is in the way without force: details.reason "exists", or the local
// directory or file: details.path, details.errno), and the adb call's own failures
// (ADB_NOT_FOUND, DEVICE_NOT_FOUND, RESULT_TRANSPORT_CANCELLED …).
contract::Outcome<Json> pull_recording(adb::AdbClient& client, const std::string& serial,
                                       const PullRequest& request);

}  // namespace clawperator::recording
