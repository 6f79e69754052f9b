#include "run_binary.hpp"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace clawperator::testing {

RunResult run_binary(const std::string& path, const std::vector<std::string>& args,
                     const RunOptions& options) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  std::vector<std::string> env_storage;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string item = *entry;
    const std::string key = item.substr(0, item.find('='));
    const bool unset = std::find(options.unset_env.begin(), options.unset_env.end(), key) !=
                       options.unset_env.end();
    if (options.extra_env.count(key) == 0 && !unset) env_storage.push_back(item);
  }
  for (const auto& [key, value] : options.extra_env) env_storage.push_back(key + "=" + value);
  std::vector<char*> env;
  for (std::string& item : env_storage) env.push_back(item.data());
  env.push_back(nullptr);
  std::vector<std::string> argv_storage = {path};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& item : argv_storage) argv.push_back(item.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // A session of its own, without a controlling terminal: the program finds no /dev/tty to
    // ask on (docs/guardrails.md §5) even when the tests run from a person's terminal, as in CI.
    // A test that wants a terminal gives it one (tests/support/tty_session.cpp).
    setsid();
    const std::string input = options.stdin_path.value_or("/dev/null");
    const int in = open(input.c_str(), O_RDONLY);
    if (in < 0) _exit(125);
    dup2(in, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    if (options.working_directory && chdir(options.working_directory->c_str()) != 0) _exit(124);
    if (options.drop_privileges && geteuid() == 0) {
      if (setgroups(0, nullptr) != 0 || setgid(options.drop_to_uid) != 0 ||
          setuid(options.drop_to_uid) != 0) {
        _exit(126);
      }
    }
    // A bare name is looked up in PATH, as a shell would.
    execvpe(path.c_str(), argv.data(), env.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  RunResult result;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_streams = 2;
  char buffer[65536];
  const auto started = std::chrono::steady_clock::now();
  bool signalled = options.signal == 0;
  while (open_streams > 0) {
    int wait_ms = options.silence_limit_ms;
    if (!signalled) {
      const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - started)
                               .count();
      const bool reached =
          (options.signal_when_exists && access(options.signal_when_exists->c_str(), F_OK) == 0) ||
          (options.signal_when && options.signal_when(result.out));
      if (reached || elapsed >= options.signal_after_ms) {
        kill(pid, options.signal);
        signalled = true;
      } else {
        wait_ms = static_cast<int>(options.signal_after_ms - elapsed);
        if (options.signal_when_exists || options.signal_when) {
          wait_ms = std::min(wait_ms, 20);  // look again soon
        }
      }
    }
    const int ready = poll(fds, 2, wait_ms);
    if (ready == 0 && !signalled) continue;
    if (ready <= 0) break;  // a hung binary fails the test, not the suite
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP)) == 0) continue;
      const ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(got));
        if (i == 0 && options.on_out) options.on_out(result.out);
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_streams;
      }
    }
  }
  for (const pollfd& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  if (open_streams > 0) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace clawperator::testing
