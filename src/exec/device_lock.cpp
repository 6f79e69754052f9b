#include "device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::exec {
namespace {

constexpr std::chrono::milliseconds kPollInterval{25};
// holder() reads this much; a longer file is not a record of ours.
constexpr std::size_t kMaxHolderBytes = 1024;
constexpr std::string_view kLockFilePrefix = "device-";
constexpr std::string_view kLockFileSuffix = ".lock";

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

std::string lock_file_name(const std::string& device_key) {
  return std::string(kLockFilePrefix) + device_key + std::string(kLockFileSuffix);
}

std::size_t remove_idle_lock_files(const io::StateDirectory& directory, std::size_t keep) {
  const std::vector<std::string> names = directory.names_with(kLockFilePrefix, kLockFileSuffix);
  if (names.size() <= keep) return 0;
  std::size_t removed = 0;
  for (const std::string& name : names) {
    // Never created here (no O_CREAT): a name gone since the listing stays gone.
    auto opened = directory.open_file(name, O_RDWR);
    if (!opened) continue;
    // Held by a live execution: it stays. Free: the same protocol as a holder's release, under
    // the flock and only while the name is still this file's, so that nobody can be holding a
    // lock on the file that has the name when it goes.
    if (::flock(opened->fd, LOCK_EX | LOCK_NB) == 0) {
      const std::optional<struct stat> named = directory.status_of(name);
      if (named && same_file(*named, opened->status) && directory.remove(name)) ++removed;
    }
    ::close(opened->fd);  // releases the flock
  }
  return removed;
}

contract::HostError state_directory_refused(const ExecutionTrace& trace,
                                            const io::DirectoryError& problem) {
  Json details = Json::object();
  details["stateDir"] = problem.path.string();
  details["problem"] = problem.problem;
  return trace.fail("STATE_DIRECTORY_UNSAFE",
                    "CLAWPERATOR_STATE_DIR is not a private directory of this user (" +
                        problem.path.string() + ": " + problem.problem + ")",
                    details);
}

contract::HostError lock_busy_error(const ExecutionTrace& trace, const DeviceLock& lock,
                                    long lock_wait_ms) {
  // A second is about what a short execution takes; the holder may be a long one.
  constexpr std::chrono::milliseconds kLockRetryAfter{1000};
  Json details = Json::object();
  details["lockPath"] = lock.path().string();
  details["lockWaitMs"] = lock_wait_ms;
  std::string message = "Another execution is in flight on this device";
  if (const std::optional<Json> holder = lock.holder()) {
    message += " (pid " + dump_json((*holder)["pid"]) + ", commandId " +
               dump_json((*holder)["commandId"]) + ")";
    details["holder"] = *holder;
  }
  contract::HostError error = trace.fail("EXECUTION_CONFLICT_IN_FLIGHT", message, details);
  error.retry_after_ms = static_cast<int>(kLockRetryAfter.count());
  return error;
}

DeviceLock::~DeviceLock() {
  if (fd_ < 0) return;
  // Removed while still locked, so that nobody finds the name free and the file locked. A
  // process waiting on this file gets its flock once we close it, sees that the file has lost
  // its name (names_lock_file) and opens the name again.
  if (held_) directory_->remove(name_);
  ::close(fd_);  // closing releases the flock
  if (held_) remove_idle_lock_files(*directory_);
}

bool DeviceLock::names_lock_file() const {
  struct stat opened {};
  if (::fstat(fd_, &opened) != 0) return false;
  const std::optional<struct stat> named = directory_->status_of(name_);
  return named && same_file(*named, opened);
}

DeviceLock::Outcome DeviceLock::acquire(std::shared_ptr<const io::StateDirectory> directory,
                                        const std::string& device_key,
                                        std::chrono::milliseconds wait,
                                        const process::CancelToken& cancel,
                                        std::string_view inherited_token) {
  if (directory == nullptr) return Outcome::NoDirectory;
  directory_ = std::move(directory);
  name_ = lock_file_name(device_key);
  path_ = directory_->path() / name_;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    if (fd_ < 0) {
      auto opened = directory_->open_file(name_, O_RDWR | O_CREAT);
      if (!opened) {
        error_ = std::move(opened.error().message);  // the lock's path is reported beside it
        return Outcome::Unavailable;
      }
      fd_ = opened->fd;
    }
    const bool locked = ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
    if (!locked && errno != EWOULDBLOCK && errno != EINTR) {
      error_ = std::strerror(errno);
      return Outcome::Unavailable;
    }
    // The file lost its name since we opened it (its holder released it, or a release over the
    // cap removed it): the lock is whatever the name holds now. Another process had to remove
    // it in between, so this loop goes on only as long as others make progress.
    if (!names_lock_file()) {
      ::close(fd_);
      fd_ = -1;
      continue;
    }
    if (locked) {
      held_ = true;
      return Outcome::Acquired;
    }
    if (!inherited_token.empty()) {
      if (const std::optional<Json> record = holder_record()) {
        const auto token = record->find("token");
        if (token != record->end() && token->is_string() &&
            token->get_ref<const std::string&>() == inherited_token) {
          return Outcome::Inherited;
        }
      }
    }
    if (process::stop_requested(cancel)) return Outcome::Interrupted;
    if (std::chrono::steady_clock::now() >= deadline) return Outcome::Busy;
    std::this_thread::sleep_for(kPollInterval);
  }
}

void DeviceLock::record_holder(const std::string& command_id, std::string_view token) const {
  if (fd_ < 0) return;
  Json record{{"pid", static_cast<long long>(::getpid())}, {"commandId", command_id}};
  if (!token.empty()) record["token"] = std::string(token);
  std::string text = dump_json(record);
  // Over the last holder's record, padded with spaces (JSON's own) to its length, so that
  // nothing is left of it and the file never shrinks: truncating it frees its block, which on
  // a busy ext4 took up to 10 ms, every one of them before the reader started.
  struct stat status {};
  const bool sized = ::fstat(fd_, &status) == 0;
  const auto previous = sized ? static_cast<std::size_t>(status.st_size) : std::size_t{0};
  if (previous > text.size() && previous <= kMaxHolderBytes) text.resize(previous, ' ');
  if (::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) return;
  if (!sized || previous > text.size()) {
    [[maybe_unused]] const int truncated = ::ftruncate(fd_, static_cast<off_t>(text.size()));
  }
}

std::optional<Json> DeviceLock::holder() const {
  std::optional<Json> record = holder_record();
  // The token lets the holder's own children through; a refused caller is not one of them.
  if (record) record->erase("token");
  return record;
}

std::optional<Json> DeviceLock::holder_record() const {
  if (fd_ < 0) return std::nullopt;
  char buffer[kMaxHolderBytes];
  const ssize_t got = ::pread(fd_, buffer, sizeof buffer, 0);
  if (got <= 0) return std::nullopt;
  Json parsed = parse_json(std::string_view(buffer, static_cast<std::size_t>(got)));
  if (!parsed.is_object() || !parsed.contains("pid") || !parsed.contains("commandId")) {
    return std::nullopt;
  }
  return parsed;
}

contract::Outcome<DeviceLock::Outcome> lock_for_execution(
    DeviceLock& lock, std::shared_ptr<const io::StateDirectory> directory,
    const std::string& device_key, std::chrono::milliseconds wait, long lock_wait_ms,
    const process::CancelToken& cancel, std::string_view inherited_token,
    const ExecutionTrace& trace, const std::string& command_id, std::string_view holder_token) {
  const DeviceLock::Outcome outcome =
      lock.acquire(std::move(directory), device_key, wait, cancel, inherited_token);
  switch (outcome) {
    case DeviceLock::Outcome::Acquired:
      lock.record_holder(command_id, holder_token);
      break;
    case DeviceLock::Outcome::Inherited:
      // A skill's script: its `skills run` holds the device for it (and keeps the record).
    case DeviceLock::Outcome::NoDirectory:
      break;
    case DeviceLock::Outcome::Busy:
      return contract::failed(lock_busy_error(trace, lock, lock_wait_ms));
    case DeviceLock::Outcome::Interrupted:
      return contract::failed(interrupted(trace, "Interrupted while waiting for the device lock"));
    case DeviceLock::Outcome::Unavailable:
      // Fail open: a read-only state directory must not stop automation.
      io::warn("cannot lock {} ({}); continuing unlocked", lock.path().string(), lock.error());
      break;
  }
  return outcome;
}

}  // namespace clawperator::exec
