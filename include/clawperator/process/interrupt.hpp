// Ctrl-C and SIGTERM as a cancellation request rather than sudden death: the process runner
// must get the chance to kill and reap the adb children, which live in their own process
// groups and therefore never see the terminal's SIGINT.
#pragma once

namespace clawperator::process {

// Installs handlers for SIGINT and SIGTERM (without SA_RESTART, so blocking calls elsewhere
// return EINTR instead of hiding the request), creates the self-pipe on first use, and
// ignores SIGPIPE so that writing to a closed pipe fails with EPIPE. Safe to call again: the
// pipe is kept and the handlers are reinstalled (a test framework may have replaced them).
// Returns false, with errno set, when the pipe or a handler could not be set up.
bool install_interrupt_handlers() noexcept;

// The first interrupt signal received since start (or the last reset); 0 when none. The
// request is sticky: once set, every later run is cancelled until the program exits.
int interrupted_signal() noexcept;

// Read end of the self-pipe, readable once an interrupt arrived; put it in every poll set
// that blocks. -1 before install_interrupt_handlers().
int interrupt_fd() noexcept;

// Forgets a received interrupt and drains the pipe. Handlers stay installed.
void reset_interrupt_for_tests() noexcept;

}  // namespace clawperator::process
