#include "clawperator/io/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "clawperator/io/payload_input.hpp"

namespace clawperator::io {

OpenedFile open_regular_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return {-1, errno};
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    const int error = S_ISDIR(status.st_mode) ? EISDIR : EINVAL;
    ::close(fd);
    return {-1, error};
  }
  // A regular file ignores O_NONBLOCK; cleared all the same, so that no reader meets EAGAIN.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return {fd, 0};
}

std::string describe_open_error(int error) {
  return error == EINVAL ? std::string("not a regular file") : std::string(std::strerror(error));
}

Expected<void, Problem> read_regular_file(const std::filesystem::path& path, std::size_t limit,
                                          std::string& bytes) {
  const auto failure = [&](std::string message) {
    return Unexpected(Problem{path.string(), std::move(message)});
  };
  const OpenedFile opened = open_regular_file(path);
  if (opened.fd < 0) return failure(describe_open_error(opened.error));
  BoundedRead read = read_bounded(opened.fd, limit);
  ::close(opened.fd);
  if (read.error != 0) return failure(std::strerror(read.error));
  if (read.too_large) return failure("larger than " + std::to_string(limit) + " bytes");
  bytes = std::move(read.bytes);
  return {};
}

}  // namespace clawperator::io
