// Helpers shared by the process tests: child accounting and interrupt hygiene.
#pragma once

#include <poll.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/runner.hpp"
#include "proc_files.hpp"
#include "wait_until.hpp"

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

// Whether a child of ours, alive, runs `program` (its argv[0]): it has got past exec.
inline bool child_runs(const std::string& program) {
  for (const pid_t pid : children_of_this_process()) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::vector<std::string> fields = stat_fields(read_stat(proc + "/stat"));
    if (fields.empty() || fields[0] == "Z") continue;
    const std::string cmdline = clawperator::testing::read_proc_file(proc + "/cmdline");
    if (cmdline.substr(0, cmdline.find('\0')) == program) return true;
  }
  return false;
}

// Whether a child of ours ignores `signal_number` now (a shell past its `trap '' TERM`).
inline bool child_ignores(int signal_number) {
  for (const pid_t pid : children_of_this_process()) {
    std::istringstream status(
        clawperator::testing::read_proc_file("/proc/" + std::to_string(pid) + "/status"));
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("SigIgn:", 0) != 0) continue;
      const unsigned long long ignored = std::stoull(line.substr(7), nullptr, 16);
      if (((ignored >> (signal_number - 1)) & 1U) != 0) return true;
    }
  }
  return false;
}

// The calling thread's id, for thread_sleeps().
inline pid_t this_thread_id() {
  return static_cast<pid_t>(::syscall(SYS_gettid));
}

// Whether thread `tid` of this process sleeps in the kernel (blocked in a poll, a wait).
inline bool thread_sleeps(pid_t tid) {
  const std::vector<std::string> fields =
      stat_fields(read_stat("/proc/self/task/" + std::to_string(tid) + "/stat"));
  return !fields.empty() && fields[0] == "S";
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

// Raises a signal from another thread once `ready` holds (what it is to interrupt is under
// way: the child runs, the caller is blocked), as a user's Ctrl-C would arrive while the main
// thread is blocked in poll; then `after` later when the test measures that time. held() joins
// and says whether `ready` held (else the signal went at a 10 s limit).
class SignalWhen {
 public:
  SignalWhen(int signal_number, std::function<bool()> ready, std::chrono::milliseconds after = 0ms)
      : thread_([this, signal_number, ready = std::move(ready), after] {
          held_ = clawperator::testing::wait_until(ready, 10s);
          std::this_thread::sleep_for(after);  // the measured time, when there is one
          std::raise(signal_number);
        }) {}
  ~SignalWhen() { join(); }
  SignalWhen(const SignalWhen&) = delete;
  SignalWhen& operator=(const SignalWhen&) = delete;

  bool held() {
    join();
    return held_;
  }

 private:
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  bool held_ = false;
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
