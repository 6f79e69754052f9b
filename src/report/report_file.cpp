#include "clawperator/report/report_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "clawperator/io/atomic_file.hpp"

namespace clawperator::report {
namespace {

namespace fs = std::filesystem;

// A report read back to be appended to: larger than this is no report of ours.
constexpr std::size_t kMaxExistingBytes = std::size_t{256} << 20;
constexpr std::chrono::milliseconds kLockPoll{10};

Unexpected<FileError> failure(std::string reason, int error_number = 0) {
  if (error_number != 0) reason += " (" + std::string(std::strerror(error_number)) + ")";
  return Unexpected<FileError>(FileError{std::move(reason), error_number});
}

// Closes the descriptor it holds (and so releases an flock on it).
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// The file's bytes; empty when there is no file yet.
Expected<std::string, FileError> read_existing(const fs::path& path) {
  // O_NONBLOCK: a FIFO put in its place is refused by fstat below, not waited on.
  const Descriptor file(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (file.get() < 0) {
    if (errno == ENOENT) return std::string();
    return failure("it cannot be read to append to", errno);
  }
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return failure("it cannot be read to append to", errno);
  if (!S_ISREG(status.st_mode)) return failure("it is not a regular file");
  if (static_cast<std::size_t>(status.st_size) > kMaxExistingBytes) {
    return failure("it is larger than " + std::to_string(kMaxExistingBytes) +
                   " bytes: no report to append to");
  }
  std::string bytes;
  char buffer[65536];
  while (true) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failure("it cannot be read to append to", errno);
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
    if (bytes.size() > kMaxExistingBytes) {
      return failure("it is larger than " + std::to_string(kMaxExistingBytes) +
                     " bytes: no report to append to");
    }
  }
  return bytes;
}

// The flock of "<path>.lock", held while the descriptor lives. Bounded: a run waits at most
// `wait` for another that appends to the same file.
Expected<int, FileError> lock_for_append(const fs::path& path, std::chrono::milliseconds wait) {
  const fs::path lock_path = fs::path(path.string() + ".lock");
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return failure("its lock file " + lock_path.string() + " cannot be opened", errno);
  const auto until = std::chrono::steady_clock::now() + wait;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error_number = errno;
    if (error_number != EWOULDBLOCK && error_number != EINTR) {
      ::close(fd);
      return failure("its lock file " + lock_path.string() + " cannot be locked", error_number);
    }
    if (std::chrono::steady_clock::now() >= until) {
      ::close(fd);
      return failure("another run kept it locked for " + std::to_string(wait.count()) + " ms");
    }
    // A poll step, not a timing: the lock is held for a read and a write only.
    std::this_thread::sleep_for(kLockPoll);
  }
  return fd;
}

}  // namespace

Expected<void, FileError> check_report_path(const fs::path& path) {
  if (path.empty()) return failure("no file is named");
  if (!path.has_filename()) return failure("it names a directory, not a file");
  const fs::path directory = path.has_parent_path() ? path.parent_path() : fs::path(".");
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) {
    const int error_number = errno;
    return failure(error_number == ENOENT
                       ? "its directory " + directory.string() + " does not exist"
                       : "its directory " + directory.string() + " cannot be reached",
                   error_number);
  }
  if (!S_ISDIR(status.st_mode)) {
    return failure("its directory " + directory.string() + " is not a directory", ENOTDIR);
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    return failure("its directory " + directory.string() + " may not be written in", errno);
  }
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return {};
    return failure("it cannot be examined", errno);
  }
  if (S_ISLNK(status.st_mode)) {
    return failure("it is a symbolic link: a report is never written through one");
  }
  if (S_ISDIR(status.st_mode)) return failure("it is a directory", EISDIR);
  if (!S_ISREG(status.st_mode)) return failure("it is not a regular file");
  return {};
}

Expected<void, FileError> write_report(const fs::path& path, Format format,
                                       const std::vector<Suite>& suites, bool append,
                                       std::chrono::milliseconds lock_wait) {
  if (auto usable = check_report_path(path); !usable) return usable;
  std::string text;
  std::optional<Descriptor> lock;
  std::size_t next = 0;
  if (append) {
    auto locked = lock_for_append(path, lock_wait);
    if (!locked) return Unexpected<FileError>(std::move(locked).error());
    lock.emplace(*locked);
    auto existing = read_existing(path);
    if (!existing) return Unexpected<FileError>(std::move(existing).error());
    text = std::move(*existing);
  } else if (!suites.empty()) {
    text = render(format, suites.front());
    next = 1;
  }
  for (; next < suites.size(); ++next) {
    auto appended = report::append(format, text, suites[next]);
    if (!appended) return failure(std::move(appended).error().message + "; it was left as it was");
    text = std::move(*appended);
  }
  if (auto written = io::write_file_atomically(path, text); !written) {
    return failure("it could not be written: " + written.error().message);
  }
  return {};
}

}  // namespace clawperator::report
