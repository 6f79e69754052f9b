// Managed video sessions (docs/evidence.md, "Video sessions"): `evidence video
// start|status|stop|recover`, mcp serve's evidence_video_* tools and serve's /evidence/video
// routes. start returns at once with a session id; a detached supervisor (this program,
// `evidence video supervise ID`) runs the recorder, finalises the MP4 at the time limit or on
// stop, checks it with ffprobe and writes the bundle's manifest. One session per device: the
// lock lives in the private state directory, and a lock whose owner is gone is reported
// (EVIDENCE_RECOVERY_REQUIRED) until `recover` clears it, never taken over.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/evidence/report.hpp"
#include "clawperator/evidence/video_dependencies.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::evidence {

inline constexpr int kMinVideoSeconds = 1;
inline constexpr int kMaxVideoSeconds = 180;
// How long stop waits for the supervisor to finalise (the newest original's 15 s).
inline constexpr std::chrono::milliseconds kStopWait{15000};

struct VideoStartRequest {
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  adb::AdbSettings adb;
  io::StateSelection state;
  int duration_seconds = 0;         // kMinVideoSeconds..kMaxVideoSeconds
  std::optional<std::string> size;  // WxH (checked by check_video_size)
  std::optional<std::string> label;
  Json context = nullptr;
  Recorder recorder = Recorder::Screenrecord;
  // The program the supervisor runs as (this executable); empty: /proc/self/exe.
  std::string self_executable;
};

// A --size value: "WxH", each 16..4096 and even (the H.264 encoders' 4:2:0 frames). Why not, if
// it is not (no path: the caller names the flag or field).
Expected<void, Problem> check_video_size(std::string_view size);

// Checks the host programs (HOST_DEPENDENCY_MISSING), the device, the lock
// (EVIDENCE_RECORDING_ACTIVE / EVIDENCE_RECOVERY_REQUIRED) and the storage
// (EVIDENCE_STORAGE_UNWRITABLE) before anything is spawned, then starts the supervisor and
// returns once the recorder runs: {ok, sessionId, status:"recording", deviceId, recorder,
// durationSeconds, bundleDir, manifestPath, manifest}.
EvidenceReport start_video(const VideoStartRequest& request, process::Runner& runner);

// The session's manifest status. starting/recording/finalizing/complete: {ok:true, sessionId,
// status, …}; partial/failed: EVIDENCE_CAPTURE_FAILED with the same fields; a session whose
// owner is gone before it finished: EVIDENCE_RECOVERY_REQUIRED; an unknown or malformed id:
// EVIDENCE_SESSION_NOT_FOUND.
EvidenceReport video_status(const std::string& session_id, const io::StateSelection& state);

// Asks the supervisor to finalise now and waits up to `wait` for it; then as video_status
// (status "finalizing" when the wait ended first). A finished session is answered as it is.
EvidenceReport stop_video(const std::string& session_id, const io::StateSelection& state,
                          std::chrono::milliseconds wait = kStopWait);

// For a session whose owner is gone: stops the device's recorder if it still runs, marks the
// bundle failed with what was retained, and removes the lock. A live owner is
// EVIDENCE_RECORDING_ACTIVE (stop it instead); a finished session is answered as it is.
EvidenceReport recover_video(const std::string& session_id, const io::StateSelection& state,
                             process::Runner& runner);

// The detached supervisor's body (`evidence video supervise ID`): the exit status.
int run_video_supervisor(const std::string& session_id, const io::StateSelection& state);

}  // namespace clawperator::evidence
