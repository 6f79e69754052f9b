#include "clawperator/process/terminal.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"
#include "clawperator/text.hpp"

namespace clawperator::process {
namespace {

// SIGTTIN and SIGTTOU held back on this thread for as long as it talks on the terminal: a
// process that is (or becomes) a background job then gets EIO from the terminal instead of
// being stopped.
class TerminalSignalsHeld {
 public:
  TerminalSignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGTTIN);
    sigaddset(&held, SIGTTOU);
    ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~TerminalSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  TerminalSignalsHeld(const TerminalSignalsHeld&) = delete;
  TerminalSignalsHeld& operator=(const TerminalSignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

bool in_foreground(int fd) {
  const pid_t foreground = ::tcgetpgrp(fd);
  return foreground > 0 && foreground == ::getpgrp();
}

}  // namespace

UniqueFd open_foreground_terminal() {
  // O_NOCTTY: a process without a controlling terminal never gains one here (it has no
  // /dev/tty to open anyway: ENXIO).
  UniqueFd tty(::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY));
  if (!tty.valid() || !in_foreground(tty.get())) return UniqueFd();
  return tty;
}

bool write_to_terminal(int fd, std::string_view text) {
  const TerminalSignalsHeld held;
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> read_terminal_line(int fd, std::chrono::milliseconds limit,
                                              std::size_t max_length) {
  const TerminalSignalsHeld held;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::string line;
  for (;;) {
    if (interrupted_signal() != 0) return std::nullopt;
    const int wait_ms = poll_timeout_ms(deadline, std::chrono::steady_clock::now());
    if (wait_ms == 0) return std::nullopt;
    pollfd fds[2] = {{fd, POLLIN, 0}, {interrupt_fd(), POLLIN, 0}};
    const int ready = ::poll(fds, interrupt_fd() >= 0 ? 2 : 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return std::nullopt;
    if (ready == 0) continue;  // the deadline is looked at again above
    if ((fds[1].revents & POLLIN) != 0) return std::nullopt;
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    char c = 0;
    const ssize_t n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // the end of input, or EIO: not our terminal any more
    if (c == '\n' || c == '\r') return line;
    if (line.size() < max_length) line.push_back(c);
  }
}

bool is_yes(std::string_view answer) {
  const std::string_view trimmed = trim(answer);
  std::string lower;
  for (const char c : trimmed) {
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return lower == "y" || lower == "yes";
}

}  // namespace clawperator::process
