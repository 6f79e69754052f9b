// The controlling terminal, where a person answers (docs/guardrails.md §5): as sudo and ssh ask,
// on /dev/tty, whatever stdin and stdout are. Only a process in the terminal's foreground
// process group talks on it: a background job, or a skill's script in a process group of its
// own, is never stopped by SIGTTIN or SIGTTOU; for it there is no terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/process/unique_fd.hpp"

namespace clawperator::process {

// /dev/tty, opened read-write, when this process has a controlling terminal and its process
// group is the terminal's foreground group (tcgetpgrp(tty) == getpgrp()); invalid otherwise (no
// controlling terminal: a new session, a daemon, CI; a background job; a group of its own).
UniqueFd open_foreground_terminal();

// Writes all of `text` to the terminal; false when it could not (a terminal this process lost
// the foreground of refuses: SIGTTOU is held back while writing, so the write fails instead of
// stopping the process).
bool write_to_terminal(int fd, std::string_view text);

// One line typed on the terminal (without its end of line, at most `max_length` characters
// kept), read within `limit`; nullopt for no answer in time, the end of input, Ctrl-C (the
// process-wide interrupt, when its handlers are installed), or a terminal this process lost the
// foreground of (SIGTTIN is held back while reading: the read fails instead of stopping it).
std::optional<std::string> read_terminal_line(int fd, std::chrono::milliseconds limit,
                                              std::size_t max_length = 64);

// "y" or "yes", in any case, white space around it ignored.
bool is_yes(std::string_view answer);

}  // namespace clawperator::process
