#include "clawperator/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace clawperator::io {

std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::string_view bytes) {
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string temp = (directory / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return std::string(std::strerror(errno));
  auto fail = [&](int error_number) {
    ::close(fd);
    ::unlink(temp.c_str());
    return std::optional<std::string>(std::strerror(error_number));
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(errno);
    }
    written += static_cast<std::size_t>(n);
  }
  // Readable by the user's other tools like any file they create.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::fsync(fd) != 0) return fail(errno);
  if (::close(fd) != 0) {
    const int error_number = errno;
    ::unlink(temp.c_str());
    return std::string(std::strerror(error_number));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error_number = errno;
    ::unlink(temp.c_str());
    return std::string(std::strerror(error_number));
  }
  return std::nullopt;
}

}  // namespace clawperator::io
