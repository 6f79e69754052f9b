// One execution per device at a time, across processes: an advisory flock on a
// file keyed by adb server and serial. The kernel releases it when we exit,
// however we exit, so a crash never leaves a device locked.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace clawperator::exec {

class DeviceLock {
 public:
  enum class Outcome { Acquired, Busy, Unavailable, Interrupted };

  DeviceLock() = default;
  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // Waits up to `wait` (polling) when another process holds the device.
  Outcome acquire(const std::filesystem::path& state_dir, const std::string& server_key,
                  const std::string& serial, std::chrono::milliseconds wait);
  const std::filesystem::path& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::filesystem::path path_;
  std::string error_;
};

// A file name for (server, serial) that is safe on any filesystem.
std::string lock_file_name(const std::string& server_key, const std::string& serial);

}  // namespace clawperator::exec
