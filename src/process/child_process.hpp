// One spawned child: its pipes, its process group, and the guarantee that it is reaped.
// Shared by the blocking run() and by streams.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "clawperator/process/cancel.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::process {

struct ExitStatus {
  int exit_code = -1;
  int signal = 0;
};

class ChildProcess {
 public:
  // How long a child may take to exit after SIGTERM before the group gets SIGKILL.
  static constexpr std::chrono::milliseconds kTerminateGrace{500};

  ChildProcess() = default;
  // Terminates the group and reaps if that has not happened yet, whatever the exit path.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Returns 0 or an errno. stdin is /dev/null (or `stdin_fd` when it is one), stdout/stderr
  // are non-blocking pipes on our side, and the child leads a new process group. argv must not
  // be empty. `environment` holds "NAME=VALUE" entries that replace NAME in the inherited
  // environment. With `dies_with_parent` the kernel SIGKILLs the child when the thread that
  // spawned it ends (PR_SET_PDEATHSIG), however this process ends, SIGKILL included.
  int spawn(const std::vector<std::string>& argv, const std::vector<std::string>& environment = {},
            int stdin_fd = -1, bool dies_with_parent = false);

  pid_t pid() const noexcept { return pid_; }
  UniqueFd& out() noexcept { return out_; }
  UniqueFd& err() noexcept { return err_; }
  bool pipes_closed() const noexcept { return !out_.valid() && !err_.valid(); }

  enum class Wait { Exited, TimedOut, Interrupted };
  // Waits for the child to exit without reaping it: the zombie keeps its pid, and so the
  // group id, from being reused until we are done signalling the group. With `cancel`, an
  // interrupt or that token's cancellation ends the wait (Interrupted); without, only the
  // deadline does.
  Wait wait_exit(std::chrono::steady_clock::time_point deadline,
                 const CancelToken* cancel) noexcept;

  // Blocking waitpid; call once the child has exited or been sent SIGKILL.
  ExitStatus reap() noexcept;

  // SIGTERM to the group, up to `grace` for the child to exit, SIGKILL to the group (also
  // reaching descendants that outlived it), then reap.
  ExitStatus terminate_group(std::chrono::milliseconds grace = kTerminateGrace) noexcept;

  // Whether the child has exited, without reaping it.
  bool has_exited() noexcept;

  // SIGTERM (and SIGCONT, for a stopped child) to the group, nothing waited for nor reaped:
  // its output can still be read while it cleans up (skills run's deadline, skill_run.cpp).
  void ask_group_to_terminate() const noexcept;
  // SIGKILL to the group, before the child is reaped (the zombie keeps the group id ours).
  void kill_group() const noexcept;

 private:
  void signal_group(int signal_number) const noexcept;
  int adopt(pid_t pid, UniqueFd& out_read, UniqueFd& err_read) noexcept;

  pid_t pid_ = -1;
  bool reaped_ = false;
  ExitStatus status_;
  UniqueFd out_, err_;
  // Readable when the child exits; -1 where pidfd_open is unavailable (then we poll).
  UniqueFd pidfd_;
};

}  // namespace clawperator::process
