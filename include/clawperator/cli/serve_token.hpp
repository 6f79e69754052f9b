// How `serve` takes its token without putting it in any process's argv (docs/serve.md §4,
// "How the token reaches the server"). /proc/<pid>/cmdline is readable by every local user for
// the whole life of a process, so `clawperator serve` removes --token and --token-file from the
// arguments it executes clawperator-serve with (src/cli/command_serve.cpp) and hands the token
// over through an inherited pipe instead, whose descriptor number (not secret) is in
// CLAWPERATOR_SERVE_TOKEN_FD.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::cli {

// The descriptor of the pipe `clawperator serve` wrote the token into, for clawperator-serve.
inline constexpr const char* kServeTokenFdVariable = "CLAWPERATOR_SERVE_TOKEN_FD";

// A token is at most this long, however it is given (a header line holds it: 16 KiB in all,
// docs/serve.md §4, "Bounds").
inline constexpr std::size_t kMaxServeTokenBytes = 4096;

// What makes `token` unusable, if anything, however it was given: empty, over
// kMaxServeTokenBytes, or a control character (a line break would end the header line that
// carries it). No path: the caller names where the token came from.
Expected<void, Problem> check_serve_token(const std::string& token);

// The token in `path` for --token-file: a regular file (a FIFO, directory or device is refused
// before it is opened, so nothing blocks and no driver is touched), owned by the effective uid,
// with no permission for group or others, at most kMaxServeTokenBytes, one line (its trailing
// newline trimmed), not empty. A link is followed: what is checked is the file opened. The
// error's path is `path`, its message the problem in words ("mode 0640: group or others may
// read it; chmod 600 it").
Expected<std::string, Problem> read_token_file(const std::string& path);

// The token in the pipe `fd` (CLAWPERATOR_SERVE_TOKEN_FD): read without blocking up to its
// end (the writer closed it before the exec), bounded, then closed. Anything but a pipe, a
// pipe still open for writing, an empty or oversized token is an error (no path).
Expected<std::string, Problem> read_token_pipe(int fd);

// `arguments` without --token VALUE, --token=VALUE, --token-file FILE and --token-file=FILE:
// the argv clawperator-serve is executed with.
std::vector<std::string> without_token_arguments(const std::vector<std::string>& arguments);

// A pipe holding `token`, its write end closed: the read end, inheritable (no FD_CLOEXEC), for
// the exec of clawperator-serve; or the errno text (no path).
Expected<int, Problem> token_pipe(const std::string& token);

}  // namespace clawperator::cli
