#include "clawperator/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

namespace clawperator::io {
namespace {

constexpr int kNewFileAttempts = 16;

Unexpected<Problem> write_failure(const std::filesystem::path& path, int error_number) {
  return Unexpected(Problem{path.string(), std::strerror(error_number)});
}

// O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, then `bytes`: 0, or the errno (a partial file that we
// created is removed).
int write_exclusive(const std::filesystem::path& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return errno;
  int error_number = write_all(fd, bytes);
  if (::close(fd) != 0 && error_number == 0) error_number = errno;
  if (error_number != 0) ::unlink(path.c_str());  // ours: O_EXCL made it
  return error_number;
}

}  // namespace

int write_all(int fd, std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    written += static_cast<std::size_t>(n);
  }
  return 0;
}

namespace {

// `bytes` whole and synced in a new temporary file beside `path`, readable by the user's
// other tools like any file they create: its name, or why not (the problem about `path`).
Expected<std::string, Problem> write_temporary_beside(const std::filesystem::path& path,
                                                      std::string_view bytes) {
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string temp = (directory / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return write_failure(path, errno);
  auto fail = [&](int error_number) {
    ::close(fd);
    ::unlink(temp.c_str());
    return write_failure(path, error_number);
  };
  if (const int error_number = write_all(fd, bytes); error_number != 0) return fail(error_number);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::fsync(fd) != 0) return fail(errno);
  if (::close(fd) != 0) {
    const int error_number = errno;
    ::unlink(temp.c_str());
    return write_failure(path, error_number);
  }
  return temp;
}

}  // namespace

Expected<void, Problem> write_file_atomically(const std::filesystem::path& path,
                                              std::string_view bytes) {
  CLAWPERATOR_TRY_ASSIGN(const std::string temp, write_temporary_beside(path, bytes));
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error_number = errno;
    ::unlink(temp.c_str());
    return write_failure(path, error_number);
  }
  return {};
}

Expected<void, Problem> write_new_file_atomically(const std::filesystem::path& path,
                                                  std::string_view bytes) {
  CLAWPERATOR_TRY_ASSIGN(const std::string temp, write_temporary_beside(path, bytes));
  // link(2), unlike rename(2), refuses a name that exists (a symlink included): the whole file
  // appears at once, or nothing changes.
  const int error_number = ::link(temp.c_str(), path.c_str()) == 0 ? 0 : errno;
  ::unlink(temp.c_str());
  if (error_number != 0) return write_failure(path, error_number);
  return {};
}

Expected<void, Problem> write_new_file(std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path wanted = path;
  std::random_device random;
  for (int attempt = 0; attempt < kNewFileAttempts; ++attempt) {
    if (attempt > 0) {
      // Unpredictable, so that nobody can plant every name we might try next.
      char suffix[16];
      std::snprintf(suffix, sizeof suffix, "-%08x", static_cast<unsigned>(random()));
      path = wanted.parent_path() / (wanted.stem().string() + suffix + wanted.extension().string());
    }
    const int error_number = write_exclusive(path, bytes);
    if (error_number == EEXIST) continue;
    if (error_number == 0) return {};
    return write_failure(path, error_number);
  }
  return write_failure(path, EEXIST);
}

Expected<void, Problem> write_exclusive_file(const std::filesystem::path& path,
                                             std::string_view bytes) {
  const int error_number = write_exclusive(path, bytes);
  if (error_number == 0) return {};
  return write_failure(path, error_number);
}

std::string escape_file_name(std::string_view text) {
  std::string name;
  for (const char c : text) {
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
  return name;
}

}  // namespace clawperator::io
