// A report's file (--report FORMAT=FILE, docs/commands.md, "Reports"): a file the user named,
// so it is checked before the run and written whole or not at all, never through a symbolic
// link, appended to under a lock.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "clawperator/expected.hpp"
#include "clawperator/report/report.hpp"

namespace clawperator::report {

struct FileError {
  std::string reason;    // for people: "its directory does not exist", …
  int error_number = 0;  // the errno behind it, when there is one
};

// Whether `path` can take a report, asked before the run so that a mistake costs no run: its
// directory exists, is a directory, and may be written in; `path` itself is no symbolic link
// (dangling or not) and, when it exists, a regular file.
Expected<void, FileError> check_report_path(const std::filesystem::path& path);

// How long an appending run waits for another one appending to the same file.
inline constexpr std::chrono::milliseconds kAppendLockWait{10000};

// Writes `suites` (one run's: one, or a sequence's, one per payload) to `path` in `format`: the
// file is replaced, or with `append` the suites are added to the runs already in it (report.hpp's
// append), under an flock on "<path>.lock" so that two runs appending at once both land. Written
// atomically (a temp file beside it, fsync, rename; io::write_file_atomically): the file is the old
// or the new document, never half of one, mode 0666 less the umask (0644 under the usual 022). The
// checks of check_report_path are made again first.
Expected<void, FileError> write_report(const std::filesystem::path& path, Format format,
                                       const std::vector<Suite>& suites, bool append,
                                       std::chrono::milliseconds lock_wait = kAppendLockWait);

}  // namespace clawperator::report
