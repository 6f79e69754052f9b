// A child that outlives us: an emulator started by `clawperator emulator start` keeps running
// after the command returns. It leads a session of its own (no terminal's Ctrl-C or hang-up
// reaches it), reads /dev/null and writes to a log file.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace clawperator::process {

class DetachedProcess {
 public:
  DetachedProcess() = default;
  // A child still ours (not released) that has exited is reaped here, never left a zombie.
  ~DetachedProcess();
  DetachedProcess(DetachedProcess&& other) noexcept;
  DetachedProcess& operator=(DetachedProcess&& other) noexcept;
  DetachedProcess(const DetachedProcess&) = delete;
  DetachedProcess& operator=(const DetachedProcess&) = delete;

  // Returns 0 or an errno (ENOENT: no such program). stdout and stderr go to `log`, created
  // (mode 0600) or appended to. argv[0] with a '/' is used as is, else looked up in PATH.
  int spawn(const std::vector<std::string>& argv, const std::filesystem::path& log);

  pid_t pid() const noexcept { return pid_; }
  // Whether the child has exited (reaping it then); its exit code or signal in `how`.
  bool exited(std::string& how);
  // SIGTERM to its session's process group, SIGKILL after `grace`, and reaped: a start that
  // did not finish takes back what it started.
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(2000)) noexcept;
  // The child is left running on purpose: no longer ours to reap or stop.
  void release() noexcept { pid_ = -1; }

 private:
  pid_t pid_ = -1;
};

}  // namespace clawperator::process
