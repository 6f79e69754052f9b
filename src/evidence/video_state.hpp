// What a video session keeps in the private state directory (io/state_directory.hpp): its
// record (what the supervisor needs, and where the bundle is, for status/stop/recover from any
// later process), and the per-device lock that refuses a second recorder. The lock names its
// owner by pid and start time, so a recycled pid is never mistaken for the owner, and a lock
// whose owner is gone is reported, never taken over (docs/evidence.md, "Video sessions").
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"

namespace clawperator::evidence::video {

struct SessionRecord {
  std::string session_id;
  std::string serial;
  std::string bundle_dir;
  std::string recorder;  // screenrecord | scrcpy
  int duration_seconds = 0;
  std::optional<std::string> size;  // WxH
  std::optional<std::string> label;
  Json context = nullptr;
  std::string operator_package;
  adb::AdbSettings adb;
  std::string created_at;
  // The name of the device's video lock, fixed at start (lock_name): status, stop, recover and
  // the supervisor find the lock by it whatever environment they run in.
  std::string lock;
};

// Records and supervisor logs are named "evidence-video-session-<id>.{json,log}"; locks
// "evidence-video-lock-…": removing old records never touches a lock, whose owner may need
// recovering however old it is.
inline constexpr std::string_view kRecordPrefix = "evidence-video-session-";
inline constexpr std::chrono::hours kRecordLifetime{24 * 30};
std::string record_name(std::string_view session_id);
std::string log_name(std::string_view session_id);
// The records and logs of sessions started more than kRecordLifetime ago (their bundles stay).
void remove_old_records(const io::StateDirectory& state);
// One lock per device (adb::device_key: the adb server however it was named, and the serial),
// the key the execution lock uses: two servers may each have an emulator-5554, and one server
// named two ways is one. For the current environment: a session keeps the name it started
// with (SessionRecord::lock).
std::string lock_name(const adb::AdbSettings& adb, std::string_view serial);

bool write_record(const io::StateDirectory& state, const SessionRecord& record);
std::optional<SessionRecord> read_record(const io::StateDirectory& state,
                                         std::string_view session_id);

struct LockOwner {
  std::string session_id;
  pid_t pid = 0;
  unsigned long long start_ticks = 0;  // /proc/PID/stat field 22
  std::string serial;
  std::string created_at;
};

// The start time of a running process (field 22 of /proc/PID/stat); nullopt when it is gone.
std::optional<unsigned long long> process_start_ticks(pid_t pid);
// The owner still runs: its pid is alive and started when the lock says.
bool owner_alive(const LockOwner& owner);
LockOwner self_owner(std::string session_id, std::string serial);

enum class LockResult { Acquired, Held, Unreadable, Failed };
// O_CREAT|O_EXCL: exactly one caller gets a missing lock. Held: `found` is what it says.
LockResult create_lock(const io::StateDirectory& state, const std::string& name,
                       const LockOwner& owner, std::optional<LockOwner>& found);
std::optional<LockOwner> read_lock(const io::StateDirectory& state, const std::string& name);
// Rewrites the lock for `owner` when it still names owner.session_id and is held by `from` (the
// supervisor taking over from the `start` that spawned it): false when it names another session
// or another holder, or is gone. A supervisor run by hand never takes a live session's lock.
bool take_over_lock(const io::StateDirectory& state, const std::string& name,
                    const LockOwner& owner, pid_t from);
// Removes the lock when it still names `session_id`.
void release_lock(const io::StateDirectory& state, const std::string& name,
                  std::string_view session_id);

// The manifest a session starts with, before the supervisor fills in the device and recording.
Manifest initial_manifest(const SessionRecord& record);

bool is_session_id(std::string_view text);

}  // namespace clawperator::evidence::video
