#include "clawperator/process/detached.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <utility>

#include "clawperator/process/unique_fd.hpp"

extern char** environ;

namespace clawperator::process {

DetachedProcess::~DetachedProcess() {
  std::string ignored;
  if (pid_ > 0) (void)exited(ignored);
}

DetachedProcess::DetachedProcess(DetachedProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)) {}

DetachedProcess& DetachedProcess::operator=(DetachedProcess&& other) noexcept {
  if (this != &other) pid_ = std::exchange(other.pid_, -1);
  return *this;
}

int DetachedProcess::spawn(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  if (argv.empty() || pid_ > 0) return EINVAL;
  UniqueFd log_file(
      ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!log_file.valid()) return errno;

  posix_spawn_file_actions_t actions;
  if (const int rc = posix_spawn_file_actions_init(&actions); rc != 0) return rc;
  posix_spawnattr_t attr;
  if (const int rc = posix_spawnattr_init(&attr); rc != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return rc;
  }
  int rc = posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, log_file.get(), STDOUT_FILENO);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, log_file.get(), STDERR_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // An emulator keeps what it inherits for hours: none of our descriptors (a CI job's pipe
  // would never see its end of file).
  if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
  sigset_t no_signals;
  sigemptyset(&no_signals);
  // We ignore SIGPIPE (interrupt.hpp), and an ignored signal survives exec.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  if (rc == 0) {
    rc = posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &no_signals);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<char*> c_argv;
  c_argv.reserve(argv.size() + 1);
  // posix_spawn's signature predates const; it does not modify the strings.
  for (const std::string& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
  c_argv.push_back(nullptr);
  pid_t pid = -1;
  if (rc == 0) {
    rc = argv[0].find('/') != std::string::npos
             ? posix_spawn(&pid, c_argv[0], &actions, &attr, c_argv.data(), environ)
             : posix_spawnp(&pid, c_argv[0], &actions, &attr, c_argv.data(), environ);
  }
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return rc;
  pid_ = pid;
  return 0;
}

bool DetachedProcess::exited(std::string& how) {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t got = 0;
  do {
    got = ::waitpid(pid_, &status, WNOHANG);
  } while (got < 0 && errno == EINTR);
  if (got == 0) return false;
  if (got < 0) {
    how = "gone";  // reaped elsewhere (SIGCHLD ignored)
  } else if (WIFEXITED(status)) {
    how = "exited with code " + std::to_string(WEXITSTATUS(status));
  } else {
    how = "killed by signal " + std::to_string(WTERMSIG(status));
  }
  pid_ = -1;
  return true;
}

void DetachedProcess::stop(std::chrono::milliseconds grace) noexcept {
  if (pid_ <= 0) return;
  // The child leads its own session, so its process group id is its pid: the group reaches
  // what it started (the emulator's own helpers).
  ::kill(-pid_, SIGTERM);
  const auto until = std::chrono::steady_clock::now() + grace;
  std::string how;
  while (std::chrono::steady_clock::now() < until) {
    if (exited(how)) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

}  // namespace clawperator::process
