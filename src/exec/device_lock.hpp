// One execution per device at a time, across processes: an advisory flock on a file keyed by
// the device (adb::device_key: the adb server however it was named, and the serial), in the
// verified state directory. The kernel releases it when we exit, however we exit, so a crash
// never leaves a device locked. The holder removes the file as it releases it, and a release
// that finds more than kMaxIdleLockFiles lock files removes those nobody holds (what killed
// runs left), so the directory never fills up with them (docs/wire-protocol.md §4.3).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/cancel.hpp"
#include "trace.hpp"

namespace clawperator::exec {

class DeviceLock {
 public:
  // NoDirectory: the run has no state directory and goes without a lock (its one warning
  // was given when the directory was chosen). Inherited: the holder recorded the token this
  // caller was given (a skill's script, run while `skills run` holds the device,
  // docs/wire-protocol.md §4.3): it goes on under its parent's lock, without one of its own.
  enum class Outcome { Acquired, Inherited, Busy, Unavailable, Interrupted, NoDirectory };

  DeviceLock() = default;
  // Releases the lock: when held, the file is removed first (under the lock), then closed.
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // `device_key`: adb::device_key. Waits up to `wait` (polling) when another process holds the
  // device; an interrupt or `cancel` ends the wait (Interrupted). The lock file is opened
  // without following a link and must be a regular file of ours (else Unavailable).
  // `inherited_token` (CLAWPERATOR_DEVICE_LOCK_TOKEN; empty: none) is compared with the
  // holder's recorded token whenever the device is busy.
  Outcome acquire(std::shared_ptr<const io::StateDirectory> directory,
                  const std::string& device_key, std::chrono::milliseconds wait,
                  const process::CancelToken& cancel = {}, std::string_view inherited_token = {});
  const std::filesystem::path& path() const { return path_; }
  // After Acquired: the file says who holds the device ({"pid", "commandId"}), so that a
  // refused caller can name the holder, and, when given, the token its own children may pass
  // (the file is in the private state directory). Best effort: a write that fails leaves it
  // unnamed.
  void record_holder(const std::string& command_id, std::string_view token = {}) const;
  // After Busy: what the holder recorded, without its token; nullopt when it has not (yet) or
  // it is unreadable.
  std::optional<Json> holder() const;
  const std::string& error() const { return error_; }

 private:
  std::optional<Json> holder_record() const;
  // Whether the open file is still the one at the lock's name. A holder removes its file as it
  // releases it, so a lock taken on a file that has lost its name excludes nobody: whoever
  // finds that opens the name again.
  bool names_lock_file() const;

  std::shared_ptr<const io::StateDirectory> directory_;
  std::string name_;
  int fd_ = -1;
  bool held_ = false;
  std::filesystem::path path_;
  std::string error_;
};

// Lock files nobody holds that may stay (a killed run leaves its file): a release that counts
// more lock files than this in the directory removes every one nobody holds.
inline constexpr std::size_t kMaxIdleLockFiles = 32;

// The lock file's name for an adb::device_key: "device-KEY.lock".
std::string lock_file_name(const std::string& device_key);

// When `directory` holds more than `keep` lock files, removes those nobody holds; how many it
// removed. Each one under its own flock, and only while its name still names the file it
// locked, so that a file another process has just made (and locked) keeps its name.
std::size_t remove_idle_lock_files(const io::StateDirectory& directory,
                                   std::size_t keep = kMaxIdleLockFiles);

// EXECUTION_CONFLICT_IN_FLIGHT after Busy: the holder named when it recorded itself, and
// when to try again (recovery wait_then_retry_original).
contract::HostError lock_busy_error(const ExecutionTrace& trace, const DeviceLock& lock,
                                    long lock_wait_ms);

// An execution's turn on the device (docs/wire-protocol.md §4.3): `lock` acquired (the holder
// recorded as `command_id`, with `holder_token` for its children when given), inherited from a
// parent's token, or none (no state directory; or an unusable one, warned: a read-only state
// directory must not stop automation). Refused: EXECUTION_CONFLICT_IN_FLIGHT when another holds
// it past the wait, RESULT_TRANSPORT_CANCELLED when interrupted meanwhile.
contract::Outcome<DeviceLock::Outcome> lock_for_execution(
    DeviceLock& lock, std::shared_ptr<const io::StateDirectory> directory,
    const std::string& device_key, std::chrono::milliseconds wait, long lock_wait_ms,
    const process::CancelToken& cancel, std::string_view inherited_token,
    const ExecutionTrace& trace, const std::string& command_id, std::string_view holder_token = {});

// The CLAWPERATOR_STATE_DIR the user named is unsafe: STATE_DIRECTORY_UNSAFE, before any
// device is contacted.
contract::HostError state_directory_refused(const ExecutionTrace& trace,
                                            const io::DirectoryError& problem);

}  // namespace clawperator::exec
