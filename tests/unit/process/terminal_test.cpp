// The controlling terminal a person answers on (process/terminal.hpp, docs/guardrails.md §5):
// found only in the terminal's foreground process group, never in a session without one or in
// a background group; a line read from it, or no answer in time.
#include "clawperator/process/terminal.hpp"

#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <functional>

using namespace clawperator;

namespace {

// `check` run in a child process: in a new session without a controlling terminal, or with the
// pseudo-terminal `slave` as its controlling terminal (in its foreground group, or in a group of
// its own that is not). Its exit status: 0 when `check` held.
enum class Place { NoTerminal, Foreground, Background };

int in_child(Place place, int slave, const std::function<bool()>& check) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setsid() < 0) ::_exit(90);
    if (place != Place::NoTerminal && ::ioctl(slave, TIOCSCTTY, 0) != 0) ::_exit(91);
    if (place == Place::Background) {
      // A group of its own: the session leader's group stays the foreground one.
      const pid_t job = ::fork();
      if (job == 0) {
        ::setpgid(0, 0);
        ::_exit(check() ? 0 : 1);
      }
      int status = 0;
      ::waitpid(job, &status, 0);
      ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 92);
    }
    ::_exit(check() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 93;
}

}  // namespace

TEST_CASE("terminal: y or yes, in any case, is yes", "[process][terminal]") {
  for (const char* yes : {"y", "Y", "yes", "YES", " yes ", "Yes\t"}) {
    CAPTURE(yes);
    CHECK(process::is_yes(yes));
  }
  for (const char* no : {"", "n", "no", "yess", "y es", "ok", "1"}) {
    CAPTURE(no);
    CHECK_FALSE(process::is_yes(no));
  }
}

TEST_CASE("terminal: only the foreground group of a controlling terminal has one",
          "[process][terminal]") {
  int master = -1;
  int slave = -1;
  REQUIRE(::openpty(&master, &slave, nullptr, nullptr, nullptr) == 0);
  const auto has_terminal = [] { return process::open_foreground_terminal().valid(); };
  CHECK(in_child(Place::NoTerminal, slave, has_terminal) == 1);
  CHECK(in_child(Place::Foreground, slave, has_terminal) == 0);
  // A background job: no terminal, and nothing stopped it (SIGTTIN/SIGTTOU).
  CHECK(in_child(Place::Background, slave, has_terminal) == 1);

  // A line typed there is read; nothing typed is no answer, within the limit.
  const auto reads_answer = [] {
    const process::UniqueFd tty = process::open_foreground_terminal();
    if (!tty.valid() || !process::write_to_terminal(tty.get(), "Approve it? [y/N] ")) {
      return false;
    }
    const auto answer = process::read_terminal_line(tty.get(), std::chrono::seconds(20));
    const auto silence = process::read_terminal_line(tty.get(), std::chrono::milliseconds(50));
    return answer == std::string("yes") && !silence;
  };
  REQUIRE(::write(master, "yes\n", 4) == 4);
  CHECK(in_child(Place::Foreground, slave, reads_answer) == 0);
  ::close(slave);
  ::close(master);
}
