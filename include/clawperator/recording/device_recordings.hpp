// Where the Operator keeps its recordings on the device, and which session ids are safe to put
// in a path (the Operator's own rule, RecordingManager.kt's isSafeSessionId: docs/recording.md).
#pragma once

#include <string>
#include <string_view>

namespace clawperator::recording {

// The Operator's pointer file in its recordings directory: the id of the last recording that
// stopped cleanly, with no newline.
inline constexpr std::string_view kLatestPointerName = "latest";
// The Operator's limit of params.sessionId (AgentCommandParser.kt).
inline constexpr std::size_t kMaxSessionIdLength = 128;

// /sdcard/Android/data/<operatorPackage>/files/recordings: getExternalFilesDir(null) as the
// shell user reaches it.
std::string device_recordings_dir(std::string_view operator_package);

// [A-Za-z0-9_-]+, at most kMaxSessionIdLength characters: nothing that could leave the
// recordings directory or break a shell word.
bool is_safe_session_id(std::string_view id);

}  // namespace clawperator::recording
