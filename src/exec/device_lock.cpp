#include "device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::exec {
namespace {

constexpr std::chrono::milliseconds kPollInterval{25};

}  // namespace

std::string lock_file_name(const std::string& server_key, const std::string& serial) {
  return "device-" + io::escape_file_name(server_key + "-" + serial) + ".lock";
}

contract::HostError state_directory_refused(const ExecutionTrace& trace,
                                            const io::DirectoryProblem& problem) {
  Json details = Json::object();
  details["stateDir"] = problem.path.string();
  details["problem"] = problem.problem;
  return trace.fail("STATE_DIRECTORY_UNSAFE",
                    "CLAWPERATOR_STATE_DIR is not a private directory of this user (" +
                        problem.path.string() + ": " + problem.problem + ")",
                    details);
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

DeviceLock::Outcome DeviceLock::acquire(const io::StateDirectory* directory,
                                        const std::string& server_key, const std::string& serial,
                                        std::chrono::milliseconds wait,
                                        const process::CancelToken& cancel) {
  if (directory == nullptr) return Outcome::NoDirectory;
  const std::string name = lock_file_name(server_key, serial);
  path_ = directory->path() / name;
  auto opened = directory->open_file(name, O_RDWR | O_CREAT);
  if (!opened) {
    error_ = std::move(opened.error());
    return Outcome::Unavailable;
  }
  fd_ = opened->fd;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return Outcome::Acquired;
    if (errno != EWOULDBLOCK && errno != EINTR) {
      error_ = std::strerror(errno);
      return Outcome::Unavailable;
    }
    if (process::stop_requested(cancel)) return Outcome::Interrupted;
    if (std::chrono::steady_clock::now() >= deadline) return Outcome::Busy;
    std::this_thread::sleep_for(kPollInterval);
  }
}

void DeviceLock::record_holder(const std::string& command_id) const {
  if (fd_ < 0) return;
  const std::string text =
      dump_json(Json{{"pid", static_cast<long long>(::getpid())}, {"commandId", command_id}});
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd_, text.data(), text.size(), 0);
  }
}

std::optional<Json> DeviceLock::holder() const {
  if (fd_ < 0) return std::nullopt;
  char buffer[1024];
  const ssize_t got = ::pread(fd_, buffer, sizeof buffer, 0);
  if (got <= 0) return std::nullopt;
  Json parsed = parse_json(std::string_view(buffer, static_cast<std::size_t>(got)));
  if (!parsed.is_object() || !parsed.contains("pid") || !parsed.contains("commandId")) {
    return std::nullopt;
  }
  return parsed;
}

}  // namespace clawperator::exec
