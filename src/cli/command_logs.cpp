// `logs`: print today's log file and follow it, like `tail -f`, until Ctrl-C.
// The one command whose stdout is a stream (NDJSON lines) rather than one
// document: it forwards the log file as it is.
#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::cli {
namespace {

constexpr int kPollMs = 200;

// Writes everything; false when stdout is gone (a closed pipe: `| head`).
bool write_all(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(STDOUT_FILENO, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

enum class Copy { Ok, StdoutClosed };

// Copies from `fd` (at its offset) to stdout until its current end.
Copy copy_available(int fd) {
  char buffer[64 * 1024];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return Copy::Ok;
    if (!write_all(buffer, static_cast<std::size_t>(got))) return Copy::StdoutClosed;
  }
}

// True when an interrupt arrived during the wait.
bool wait_interruptible(int milliseconds) {
  pollfd interrupt{process::interrupt_fd(), POLLIN, 0};
  const int ready = ::poll(&interrupt, interrupt.fd >= 0 ? 1 : 0, milliseconds);
  return (ready > 0 && (interrupt.revents & POLLIN) != 0) || process::interrupted_signal() != 0;
}

CommandResult done() {
  CommandResult result{Json(nullptr), contract::exit_code::kSuccess};
  result.already_written = true;
  return result;
}

CommandResult run_logs(bool follow, const GlobalOptions& options) {
  if (options.log_dir.empty()) {
    fmt::print(stderr, "No log file: {}; CLAWPERATOR_LOG_DIR names the log directory\n",
               io::kNoLogHome);
    return done();
  }
  std::filesystem::path path = io::daily_log_path(options.log_dir);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fmt::print(stderr, "No log file found at {}\n", path.string());
    return done();
  }
  process::install_interrupt_handlers();
  if (copy_available(fd) == Copy::StdoutClosed || !follow) {
    ::close(fd);
    return done();
  }
  while (!wait_interruptible(kPollMs)) {
    struct stat now {};
    const off_t offset = ::lseek(fd, 0, SEEK_CUR);
    if (::fstat(fd, &now) == 0 && now.st_size < offset) {
      ::lseek(fd, 0, SEEK_SET);  // truncated: start again from its beginning
    }
    if (copy_available(fd) == Copy::StdoutClosed) break;
    // At midnight (UTC) the log moves to the next day's file.
    const std::filesystem::path today = io::daily_log_path(options.log_dir);
    if (today != path) {
      const int next = ::open(today.c_str(), O_RDONLY | O_CLOEXEC);
      if (next >= 0) {
        copy_available(fd);
        ::close(fd);
        fd = next;
        path = today;
      }
    }
  }
  ::close(fd);
  // Ctrl-C is how one stops following: a success, not an interruption.
  return done();
}

}  // namespace

void register_log_commands(CommandLine root, std::vector<Command>& commands) {
  auto no_follow = std::make_shared<bool>(false);
  CommandLine logs =
      root.add_subcommand("logs", "Print today's log file (NDJSON) and follow it until Ctrl-C");
  logs.group("Utilities");
  logs.add_flag("--no-follow", *no_follow, "Print the log and exit instead of following it");
  set_command_footer(
      logs,
      "Notes:\n"
      "  The log directory is $CLAWPERATOR_LOG_DIR (default ~/.clawperator/logs).\n\n"
      "Examples:\n"
      "  clawperator logs --no-follow | jq -c 'select(.level == \"error\")'");
  commands.push_back(
      Command{logs.app(),
              [no_follow](const GlobalOptions& options) { return run_logs(!*no_follow, options); },
              {"--no-follow"}});
}

}  // namespace clawperator::cli
