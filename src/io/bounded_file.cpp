#include "clawperator/io/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "clawperator/io/payload_input.hpp"

namespace clawperator::io {

std::optional<std::string> read_regular_file(const std::filesystem::path& path, std::size_t limit,
                                             std::string& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::string(std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return std::string("not a regular file");
  }
  BoundedRead read = read_bounded(fd, limit);
  ::close(fd);
  if (read.error != 0) return std::string(std::strerror(read.error));
  if (read.too_large) return "larger than " + std::to_string(limit) + " bytes";
  bytes = std::move(read.bytes);
  return std::nullopt;
}

}  // namespace clawperator::io
