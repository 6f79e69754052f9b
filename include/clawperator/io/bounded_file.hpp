// Reading a file a user or a shared repository names, capped: a registry, a skill file or a
// saved result cannot make us read a huge file whole.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::io {

// Opens `path` for reading only when it is a regular file (a link to one included): the open is
// non-blocking, so a FIFO nobody writes (or a link to one) is refused at once instead of
// hanging the command, and so are directories and devices. The descriptor (blocking again,
// close-on-exec), or the open's errno, EISDIR for a directory, EINVAL for anything else that is
// not a regular file (describe_open_error words it).
struct OpenedFile {
  int fd = -1;    // the caller closes it
  int error = 0;  // when fd < 0
};
OpenedFile open_regular_file(const std::filesystem::path& path);
// The words for open_regular_file's error: strerror, or "not a regular file" for EINVAL.
std::string describe_open_error(int error);

// Reads at most `limit` bytes of the regular file `path` (open_regular_file) into `bytes`, or
// says what went wrong: the problem's path is the file's, its message in words ("No such file
// or directory", "larger than 1048576 bytes").
Expected<void, Problem> read_regular_file(const std::filesystem::path& path, std::size_t limit,
                                          std::string& bytes);

}  // namespace clawperator::io
