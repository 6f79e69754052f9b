// tty_session: runs a program in a new session whose controlling terminal is a new
// pseudo-terminal, as a person's shell would, while its stdin, stdout and stderr stay what this
// helper was given (pipes stay pipes): for the tests of what clawperator asks on /dev/tty
// (docs/guardrails.md §5).
//
//   tty_session [--transcript FILE] [--prompt TEXT] [--answer TEXT]... [--background]
//               -- PROGRAM [ARG...]
//
// Everything the program writes to the terminal is appended to FILE as it arrives. Each time the
// terminal shows PROMPT (default "[y/N] ") the next --answer is typed, then Enter; with none
// left, nothing is typed. --background: the program runs in a process group of its own that is
// not the terminal's foreground group (a background job, a skill's script). SIGINT, SIGTERM and
// SIGHUP sent to the helper are passed on. The exit status is the program's (128 + N when a
// signal N ended it); 125 when the helper could not start it.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace {

volatile sig_atomic_t g_child = 0;

void forward(int signal_number) {
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), signal_number);
}

int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 125;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: tty_session [--transcript FILE] [--prompt TEXT] [--answer TEXT]... "
               "[--background] -- PROGRAM [ARG...]\n");
  std::_Exit(125);
}

std::size_t count_of(std::string_view text, std::string_view part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// In the new session: the program, in the foreground or (background) in a group of its own,
// whose status this process then takes as its own.
[[noreturn]] void run_program(char** program, bool background) {
  if (!background) {
    ::execvp(program[0], program);
    std::_Exit(125);
  }
  const pid_t job = ::fork();
  if (job < 0) std::_Exit(125);
  if (job == 0) {
    ::setpgid(0, 0);
    ::execvp(program[0], program);
    std::_Exit(125);
  }
  ::setpgid(job, job);
  g_child = job;
  struct sigaction pass {};
  pass.sa_handler = forward;
  sigemptyset(&pass.sa_mask);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    ::sigaction(signal_number, &pass, nullptr);
  }
  int status = 0;
  while (::waitpid(job, &status, 0) < 0 && errno == EINTR) {
  }
  std::_Exit(exit_status_of(status));
}

}  // namespace

int main(int argc, char** argv) {
  std::string transcript_path;
  std::string prompt = "[y/N] ";
  std::deque<std::string> answers;
  bool background = false;
  int at = 1;
  for (; at < argc; ++at) {
    const std::string_view arg = argv[at];
    if (arg == "--") {
      ++at;
      break;
    }
    if (arg == "--background") {
      background = true;
    } else if (at + 1 < argc && arg == "--transcript") {
      transcript_path = argv[++at];
    } else if (at + 1 < argc && arg == "--prompt") {
      prompt = argv[++at];
    } else if (at + 1 < argc && arg == "--answer") {
      answers.emplace_back(argv[++at]);
    } else {
      usage();
    }
  }
  if (at >= argc) usage();

  int master = -1;
  int slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
    std::perror("tty_session: openpty");
    return 125;
  }
  ::fcntl(master, F_SETFD, FD_CLOEXEC);
  std::FILE* transcript =
      transcript_path.empty() ? nullptr : std::fopen(transcript_path.c_str(), "ae");

  const pid_t child = ::fork();
  if (child < 0) return 125;
  if (child == 0) {
    ::close(master);
    // A session of its own, with the terminal as its controlling terminal; stdin, stdout and
    // stderr are left as they were.
    if (::setsid() < 0 || ::ioctl(slave, TIOCSCTTY, 0) != 0) std::_Exit(125);
    ::close(slave);
    run_program(argv + at, background);
  }
  g_child = child;
  struct sigaction pass {};
  pass.sa_handler = forward;
  sigemptyset(&pass.sa_mask);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    ::sigaction(signal_number, &pass, nullptr);
  }
  // The slave stays open here too, so that reading the master never fails between two opens of
  // /dev/tty by the program.
  ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
  std::string shown;
  std::size_t typed = 0;
  int status = 0;
  bool done = false;
  for (;;) {
    pollfd entry{master, POLLIN, 0};
    ::poll(&entry, 1, done ? 0 : 50);
    char buffer[4096];
    ssize_t got = 0;
    while ((got = ::read(master, buffer, sizeof buffer)) > 0) {
      shown.append(buffer, static_cast<std::size_t>(got));
      if (transcript != nullptr) {
        std::fwrite(buffer, 1, static_cast<std::size_t>(got), transcript);
        std::fflush(transcript);
      }
    }
    // Typed once per prompt shown, in order.
    while (!answers.empty() && count_of(shown, prompt) > typed) {
      const std::string line = answers.front() + "\n";
      answers.pop_front();
      ++typed;
      if (::write(master, line.data(), line.size()) < 0) break;
    }
    if (done) break;
    const pid_t ended = ::waitpid(child, &status, WNOHANG);
    if (ended == child) done = true;  // one more pass reads what it wrote last
  }
  if (transcript != nullptr) std::fclose(transcript);
  ::close(slave);
  ::close(master);
  return exit_status_of(status);
}
