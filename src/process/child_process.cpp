#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string_view>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"

extern char** environ;

namespace clawperator::process {
namespace {

using Clock = std::chrono::steady_clock;

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define CLAWPERATOR_HAVE_ADDCLOSEFROM 1
#endif

class FileActions {
 public:
  FileActions() noexcept : rc_(posix_spawn_file_actions_init(&actions_)) {}
  ~FileActions() {
    if (rc_ == 0) posix_spawn_file_actions_destroy(&actions_);
  }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  int init_error() const noexcept { return rc_; }
  posix_spawn_file_actions_t* get() noexcept { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
  int rc_;
};

class SpawnAttr {
 public:
  SpawnAttr() noexcept : rc_(posix_spawnattr_init(&attr_)) {}
  ~SpawnAttr() {
    if (rc_ == 0) posix_spawnattr_destroy(&attr_);
  }
  SpawnAttr(const SpawnAttr&) = delete;
  SpawnAttr& operator=(const SpawnAttr&) = delete;
  int init_error() const noexcept { return rc_; }
  posix_spawnattr_t* get() noexcept { return &attr_; }

 private:
  posix_spawnattr_t attr_;
  int rc_;
};

// Our pipe ends must not be 0, 1 or 2 (possible when the parent was started with those
// closed): the child's dup2 onto 0-2 would then clobber one pipe with another.
int keep_above_stdio(UniqueFd& fd) {
  if (fd.get() > STDERR_FILENO) return 0;
  const int moved = fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (moved < 0) return errno;
  fd.reset(moved);
  return 0;
}

// CLOEXEC so that children spawned concurrently by other threads never inherit our ends.
int make_pipe(UniqueFd& read_end, UniqueFd& write_end) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return errno;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  if (int e = keep_above_stdio(read_end); e != 0) return e;
  if (int e = keep_above_stdio(write_end); e != 0) return e;
  // Only our end is non-blocking: the flag lives in the shared open file description, and the
  // child expects ordinary blocking writes.
  const int flags = fcntl(read_end.get(), F_GETFL);
  if (flags < 0 || fcntl(read_end.get(), F_SETFL, flags | O_NONBLOCK) != 0) return errno;
  return 0;
}

int open_pidfd(pid_t pid) noexcept {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// environ with each NAME of `overrides` ("NAME=VALUE") replaced. The strings stay owned by
// environ and `overrides`, which outlive the spawn.
std::vector<char*> child_environment(const std::vector<std::string>& overrides) {
  std::vector<char*> envp;
  const auto overridden = [&overrides](std::string_view entry) {
    const std::string_view name = entry.substr(0, entry.find('='));
    return std::any_of(overrides.begin(), overrides.end(), [name](const std::string& o) {
      return o.size() > name.size() && o.compare(0, name.size(), name) == 0 &&
             o[name.size()] == '=';
    });
  };
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    if (!overridden(*entry)) envp.push_back(*entry);
  }
  // posix_spawn's signature predates const; it does not modify the strings.
  for (const std::string& entry : overrides) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  return envp;
}

ExitStatus decode(int wait_status) noexcept {
  ExitStatus status;
  if (WIFEXITED(wait_status)) status.exit_code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) status.signal = WTERMSIG(wait_status);
  return status;
}

// What posix_spawnp would run for `name`: the name itself when it holds a '/', else the first
// executable regular file of that name along PATH; empty when there is none. Resolved before
// fork, as execvp's own search is not async-signal-safe.
std::string resolve_executable(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr && *path != '\0' ? path : "/bin:/usr/bin";
  for (;;) {
    const std::size_t colon = rest.find(':');
    const std::string_view directory = rest.substr(0, colon);
    std::string candidate =
        (directory.empty() ? std::string(".") : std::string(directory)) + "/" + name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

// Closes every descriptor above stderr except `keep` (the exec report pipe, CLOEXEC itself).
void close_inherited_descriptors(int keep) noexcept {
#ifdef SYS_close_range
  if (keep > STDERR_FILENO + 1) {
    (void)syscall(SYS_close_range, STDERR_FILENO + 1, keep - 1, 0);
  }
  (void)syscall(SYS_close_range, keep + 1, ~0U, 0);
#else
  (void)keep;
#endif
}

// fork and exec with the child's death tied to its parent's (PR_SET_PDEATHSIG, which posix_spawn
// cannot set): otherwise the same child as the posix_spawn path, in a new process group, with
// `stdin_fd` (or /dev/null), `out_fd`, `err_fd` as 0-2, an empty signal mask and SIGPIPE back
// to its default. 0 and the pid, or the errno of the failed fork or exec.
int fork_dying_with_parent(const std::string& executable, char* const* argv, char* const* envp,
                           int stdin_fd, int out_fd, int err_fd, pid_t& pid) {
  UniqueFd report_read, report_write;
  {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    report_read.reset(fds[0]);
    report_write.reset(fds[1]);
    if (int e = keep_above_stdio(report_write); e != 0) return e;
  }
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) return errno;
  if (child == 0) {
    // Only async-signal-safe calls from here on: the parent has other threads.
    int failure = 0;
    const auto fail = [&](int error) {
      failure = error;
      (void)!::write(report_write.get(), &failure, sizeof failure);
      ::_exit(127);
    };
    if (::setpgid(0, 0) != 0) fail(errno);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) fail(errno);
    // The parent died before the prctl: nobody is left to deliver the signal for.
    if (::getppid() != parent) ::_exit(127);
    sigset_t no_signals;
    sigemptyset(&no_signals);
    struct sigaction defaults {};
    defaults.sa_handler = SIG_DFL;
    sigemptyset(&defaults.sa_mask);
    (void)::sigaction(SIGPIPE, &defaults, nullptr);
    if (stdin_fd >= 0) {
      if (::dup2(stdin_fd, STDIN_FILENO) < 0) fail(errno);
    } else {
      const int null_fd = ::open("/dev/null", O_RDONLY);
      if (null_fd < 0) fail(errno);
      if (null_fd != STDIN_FILENO && ::dup2(null_fd, STDIN_FILENO) < 0) fail(errno);
    }
    if (::dup2(out_fd, STDOUT_FILENO) < 0 || ::dup2(err_fd, STDERR_FILENO) < 0) fail(errno);
    close_inherited_descriptors(report_write.get());
    if (::sigprocmask(SIG_SETMASK, &no_signals, nullptr) != 0) fail(errno);
    ::execve(executable.c_str(), argv, envp);
    fail(errno);
  }
  report_write.reset();
  int exec_error = 0;
  ssize_t got;
  do {
    got = ::read(report_read.get(), &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    int ignored = 0;
    while (::waitpid(child, &ignored, 0) < 0 && errno == EINTR) {
    }
    return exec_error;
  }
  pid = child;
  return 0;
}

}  // namespace

ChildProcess::~ChildProcess() {
  terminate_group();
}

int ChildProcess::spawn(const std::vector<std::string>& argv,
                        const std::vector<std::string>& environment, int stdin_fd,
                        bool dies_with_parent) {
  if (argv.empty() || pid_ > 0) return EINVAL;
  UniqueFd out_read, out_write, err_read, err_write;
  if (int e = make_pipe(out_read, out_write); e != 0) return e;
  if (int e = make_pipe(err_read, err_write); e != 0) return e;

  std::vector<char*> c_argv;
  c_argv.reserve(argv.size() + 1);
  // posix_spawn's signature predates const; it does not modify the strings.
  for (const std::string& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
  c_argv.push_back(nullptr);

  std::vector<char*> envp;
  if (!environment.empty()) envp = child_environment(environment);
  char* const* child_env = environment.empty() ? environ : envp.data();
  pid_t pid = -1;
  int rc = 0;
  if (dies_with_parent) {
    const std::string executable = resolve_executable(argv[0]);
    if (executable.empty()) return ENOENT;
    rc = fork_dying_with_parent(executable, c_argv.data(), child_env, stdin_fd, out_write.get(),
                                err_write.get(), pid);
    if (rc != 0) return rc;
    return adopt(pid, out_read, err_read);
  }

  FileActions actions;
  if (actions.init_error() != 0) return actions.init_error();
  rc = stdin_fd >= 0 ? posix_spawn_file_actions_adddup2(actions.get(), stdin_fd, STDIN_FILENO)
                     : posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null",
                                                        O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(actions.get(), out_write.get(), STDOUT_FILENO);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(actions.get(), err_write.get(), STDERR_FILENO);
#ifdef CLAWPERATOR_HAVE_ADDCLOSEFROM
  // Descriptors our own parent leaked to us without CLOEXEC would otherwise reach adb and then
  // the adb server it forks, which keeps them open for hours (a CI job waiting on a pipe
  // would hang).
  if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(actions.get(), STDERR_FILENO + 1);
#endif
  if (rc != 0) return rc;

  SpawnAttr attr;
  if (attr.init_error() != 0) return attr.init_error();
  sigset_t no_signals;
  sigemptyset(&no_signals);
  // We ignore SIGPIPE (see interrupt.hpp) and an ignored signal survives exec: give the child
  // the default back. Caught signals are reset by exec itself.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  const short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  rc = posix_spawnattr_setflags(attr.get(), flags);
  if (rc == 0) rc = posix_spawnattr_setpgroup(attr.get(), 0);
  if (rc == 0) rc = posix_spawnattr_setsigmask(attr.get(), &no_signals);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(attr.get(), &defaults);
  if (rc != 0) return rc;

  // glibc reports exec failures (ENOENT, EACCES, ...) as the return value. A name with a '/'
  // is a path and must not be searched in PATH.
  const bool is_path = argv[0].find('/') != std::string::npos;
  rc = is_path ? posix_spawn(&pid, c_argv[0], actions.get(), attr.get(), c_argv.data(), child_env)
               : posix_spawnp(&pid, c_argv[0], actions.get(), attr.get(), c_argv.data(), child_env);
  if (rc != 0) return rc;
  return adopt(pid, out_read, err_read);
}

int ChildProcess::adopt(pid_t pid, UniqueFd& out_read, UniqueFd& err_read) noexcept {
  pid_ = pid;
  reaped_ = false;
  out_ = std::move(out_read);
  err_ = std::move(err_read);
  pidfd_.reset(open_pidfd(pid));
  return 0;  // the caller's write ends close on return: EOF then means every writer is gone
}

bool ChildProcess::has_exited() noexcept {
  if (reaped_) return true;
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
      return info.si_pid != 0;
    }
    if (errno == EINTR) continue;
    // ECHILD: someone reaped it behind our back (SIGCHLD set to SIG_IGN); nothing to wait for.
    reaped_ = true;
    return true;
  }
}

ChildProcess::Wait ChildProcess::wait_exit(Clock::time_point deadline,
                                           const CancelToken* cancel) noexcept {
  // Without a pidfd, poll for the exit with a backoff: the wait after EOF is normally short.
  int tick_ms = 1;
  for (;;) {
    if (has_exited()) return Wait::Exited;
    if (cancel != nullptr && stop_requested(*cancel)) return Wait::Interrupted;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return Wait::TimedOut;
    int timeout_ms = poll_timeout_ms(deadline, now);
    std::array<pollfd, 3> fds{};
    nfds_t count = 0;
    if (pidfd_.valid()) {
      fds[count++] = pollfd{pidfd_.get(), POLLIN, 0};
    } else {
      timeout_ms = std::min(timeout_ms, tick_ms);
      tick_ms = std::min(tick_ms * 2, 16);
    }
    if (cancel != nullptr && interrupt_fd() >= 0) fds[count++] = pollfd{interrupt_fd(), POLLIN, 0};
    if (cancel != nullptr && cancel->fd() >= 0) fds[count++] = pollfd{cancel->fd(), POLLIN, 0};
    // EINTR or a failure just leads to the checks above again.
    (void)poll(fds.data(), count, timeout_ms);
  }
}

ExitStatus ChildProcess::reap() noexcept {
  if (reaped_ || pid_ <= 0) return status_;
  int wait_status = 0;
  pid_t rc;
  do {
    rc = waitpid(pid_, &wait_status, 0);
  } while (rc < 0 && errno == EINTR);
  if (rc == pid_) status_ = decode(wait_status);
  reaped_ = true;
  pidfd_.reset();
  return status_;
}

void ChildProcess::signal_group(int signal_number) const noexcept {
  // The child may have moved itself to another group; then at least reach the child.
  if (kill(-pid_, signal_number) != 0) (void)kill(pid_, signal_number);
}

void ChildProcess::ask_group_to_terminate() const noexcept {
  if (pid_ <= 0 || reaped_) return;
  signal_group(SIGTERM);
  signal_group(SIGCONT);
}

void ChildProcess::kill_group() const noexcept {
  if (pid_ > 0 && !reaped_) signal_group(SIGKILL);
}

ExitStatus ChildProcess::terminate_group(std::chrono::milliseconds grace) noexcept {
  if (pid_ <= 0 || reaped_) return status_;
  signal_group(SIGTERM);
  // A stopped child would hold SIGTERM pending for ever.
  signal_group(SIGCONT);
  (void)wait_exit(Clock::now() + grace, nullptr);
  // Also when the child obeyed: descendants in its group may not have.
  if (!reaped_) signal_group(SIGKILL);
  return reap();
}

}  // namespace clawperator::process

// Not for the file after this one in a unity batch (cmake/ClawperatorUnity.cmake).
#undef CLAWPERATOR_HAVE_ADDCLOSEFROM
