#include "device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "clawperator/process/interrupt.hpp"

namespace clawperator::exec {
namespace {

constexpr std::chrono::milliseconds kPollInterval{25};

}  // namespace

std::string lock_file_name(const std::string& server_key, const std::string& serial) {
  std::string name = "device-";
  for (const char c : server_key + "-" + serial) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    if (safe) {
      name += c;
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(c));
      name += escaped;
    }
  }
  return name + ".lock";
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

DeviceLock::Outcome DeviceLock::acquire(const std::filesystem::path& state_dir,
                                        const std::string& server_key, const std::string& serial,
                                        std::chrono::milliseconds wait) {
  std::error_code ec;
  std::filesystem::create_directories(state_dir, ec);
  path_ = state_dir / lock_file_name(server_key, serial);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    error_ = std::strerror(errno);
    return Outcome::Unavailable;
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return Outcome::Acquired;
    if (errno != EWOULDBLOCK && errno != EINTR) {
      error_ = std::strerror(errno);
      return Outcome::Unavailable;
    }
    if (process::interrupted_signal() != 0) return Outcome::Interrupted;
    if (std::chrono::steady_clock::now() >= deadline) return Outcome::Busy;
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace clawperator::exec
