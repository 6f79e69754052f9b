// Helpers shared by the process tests: child accounting and interrupt hygiene.
#pragma once

#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/runner.hpp"
#include "proc_files.hpp"

namespace clawperator::process {

// Readable failure messages in Catch.
inline std::ostream& operator<<(std::ostream& os, Completion::Status status) {
  return os << to_string(status);
}

}  // namespace clawperator::process

namespace clawperator::process::test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Whether `fd` has input waiting, without waiting for any (an interrupt or cancel self-pipe).
inline bool readable(int fd) {
  pollfd entry{fd, POLLIN, 0};
  return ::poll(&entry, 1, 0) == 1 && (entry.revents & POLLIN) != 0;
}

inline std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

// Fields of /proc/PID/stat after the command name, which may itself contain spaces.
inline std::vector<std::string> stat_fields(const std::string& stat_line) {
  std::vector<std::string> fields;
  const std::size_t close = stat_line.rfind(')');
  if (close == std::string::npos) return fields;
  std::istringstream rest(stat_line.substr(close + 1));
  for (std::string field; rest >> field;) fields.push_back(field);
  return fields;  // [0] = state, [1] = ppid
}

inline std::string read_stat(const std::filesystem::path& stat_path) {
  const std::string content = clawperator::testing::read_proc_file(stat_path.string());
  return content.substr(0, content.find('\n'));
}

// The pids of our children, running or zombie, found the way `ps` does it.
inline std::vector<pid_t> children_of_this_process() {
  std::vector<pid_t> children;
  for (const pid_t pid : clawperator::testing::all_pids()) {
    const std::vector<std::string> fields =
        stat_fields(read_stat("/proc/" + std::to_string(pid) + "/stat"));
    if (fields.size() > 1 && std::stol(fields[1]) == getpid()) children.push_back(pid);
  }
  return children;
}

// No child left, zombie or alive: waitid without WNOWAIT would reap and hide a leak.
inline bool no_children_left() {
  siginfo_t info{};
  const int rc = waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT);
  return rc == -1 && errno == ECHILD && children_of_this_process().empty();
}

// A process is gone once it no longer exists or is a zombie waiting for its new parent.
inline bool process_gone(pid_t pid) {
  const std::string line = read_stat("/proc/" + std::to_string(pid) + "/stat");
  if (line.empty()) return true;
  const std::vector<std::string> fields = stat_fields(line);
  return !fields.empty() && fields[0] == "Z";
}

inline bool process_gone_within(pid_t pid, std::chrono::milliseconds limit) {
  const Clock::time_point start = Clock::now();
  while (!process_gone(pid)) {
    if (since(start) > limit) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// Installs the handlers for one test and leaves no pending interrupt behind, even when an
// assertion fails midway.
class InterruptScope {
 public:
  InterruptScope() {
    installed_ = install_interrupt_handlers();
    reset_interrupt_for_tests();
  }
  ~InterruptScope() { reset_interrupt_for_tests(); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  bool installed() const { return installed_; }

 private:
  bool installed_ = false;
};

// Raises a signal from another thread after a delay, as a user's Ctrl-C would arrive while
// the main thread is blocked in poll.
class DelayedSignal {
 public:
  DelayedSignal(int signal_number, std::chrono::milliseconds delay)
      : thread_([signal_number, delay] {
          std::this_thread::sleep_for(delay);
          std::raise(signal_number);
        }) {}
  ~DelayedSignal() { thread_.join(); }
  DelayedSignal(const DelayedSignal&) = delete;
  DelayedSignal& operator=(const DelayedSignal&) = delete;

 private:
  std::thread thread_;
};

inline CommandSpec command(std::vector<std::string> argv,
                           std::chrono::milliseconds timeout = 5000ms) {
  CommandSpec spec;
  spec.argv = std::move(argv);
  spec.timeout = timeout;
  return spec;
}

}  // namespace clawperator::process::test
