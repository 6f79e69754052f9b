// One execution per device at a time, across processes: an advisory flock on a
// file keyed by adb server and serial, in the verified state directory. The kernel
// releases it when we exit, however we exit, so a crash never leaves a device locked.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
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
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // Waits up to `wait` (polling) when another process holds the device; an interrupt or
  // `cancel` ends the wait (Interrupted). The lock file is
  // opened without following a link and must be a regular file of ours (else Unavailable).
  // `inherited_token` (CLAWPERATOR_DEVICE_LOCK_TOKEN; empty: none) is compared with the
  // holder's recorded token whenever the device is busy.
  Outcome acquire(const io::StateDirectory* directory, const std::string& server_key,
                  const std::string& serial, std::chrono::milliseconds wait,
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

  int fd_ = -1;
  std::filesystem::path path_;
  std::string error_;
};

// The adb server part of a lock's key: the endpoint's socket spec, so that the same serial on
// two servers are two devices.
std::string lock_server_key(const adb::AdbSettings& adb);

// EXECUTION_CONFLICT_IN_FLIGHT after Busy: the holder named when it recorded itself, and
// when to try again (recovery wait_then_retry_original).
contract::HostError lock_busy_error(const ExecutionTrace& trace, const DeviceLock& lock,
                                    long lock_wait_ms);

// A file name for (server, serial) that is safe on any filesystem.
std::string lock_file_name(const std::string& server_key, const std::string& serial);

// The CLAWPERATOR_STATE_DIR the user named is unsafe: STATE_DIRECTORY_UNSAFE, before any
// device is contacted.
contract::HostError state_directory_refused(const ExecutionTrace& trace,
                                            const io::DirectoryProblem& problem);

}  // namespace clawperator::exec
