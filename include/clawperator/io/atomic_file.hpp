// Writing files safely. A user's file (a path they named) is either the old content or the
// whole new content, never a torn half: temp file in the same directory, fsync, rename. A
// file we name ourselves in a shared directory (the default screenshot path in $TMPDIR) is a
// new file that nobody else can have prepared: exclusive create, no link followed, mode 0600.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::io {

// Each returns what went wrong, if anything: the problem's path is the file's, its message the
// strerror text.
Expected<void, Problem> write_file_atomically(const std::filesystem::path& path,
                                              std::string_view bytes);

// The whole file or nothing, as write_file_atomically, but only where no file is: a name that
// is taken (a link, dangling or not, included) is an error (EEXIST), never replaced (skills
// init's registry).
Expected<void, Problem> write_new_file_atomically(const std::filesystem::path& path,
                                                  std::string_view bytes);

// Creates `path` with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, and writes `bytes`. When the name
// is taken, `path` becomes "<stem>-<random><extension>" and that is tried instead (a few
// times). On success `path` names the file written; on failure, the last one tried.
Expected<void, Problem> write_new_file(std::filesystem::path& path, std::string_view bytes);
// The same exclusive create at exactly `path`, once: a name that is taken is an error (EEXIST),
// never replaced (snapshot --raw-path).
Expected<void, Problem> write_exclusive_file(const std::filesystem::path& path,
                                             std::string_view bytes);

// Writes all of `bytes` to `fd` (a short write continues, EINTR retried): 0, or the errno.
int write_all(int fd, std::string_view bytes);

// `text` as one safe file-name component: bytes other than letters, digits, '.', '-' and
// '_' become %XX, so that no '/' (nor anything a filesystem could refuse) is left.
std::string escape_file_name(std::string_view text);

}  // namespace clawperator::io
