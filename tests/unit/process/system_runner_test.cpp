#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string>

#include "clawperator/process/runner.hpp"
#include "process_test_support.hpp"

namespace {

using namespace clawperator::process;
using namespace clawperator::process::test;
using Status = Completion::Status;

Completion run(std::vector<std::string> argv, std::chrono::milliseconds timeout = 5000ms) {
  return make_system_runner()->run(command(std::move(argv), timeout));
}

}  // namespace

TEST_CASE("run captures stdout and the exit code", "[process]") {
  const Completion c = run({"/bin/echo", "hi"});
  CHECK(c.status == Status::Exited);
  CHECK(c.exit_code == 0);
  CHECK(c.signal == 0);
  CHECK(c.spawn_errno == 0);
  CHECK(c.out == "hi\n");
  CHECK(c.err.empty());
  CHECK_FALSE(c.out_truncated);
  CHECK_FALSE(c.err_truncated);
  CHECK(c.elapsed < 2000ms);
  CHECK(no_children_left());
}

TEST_CASE("run finds a bare program name in PATH", "[process]") {
  const Completion c = run({"echo", "from", "path"});
  CHECK(c.status == Status::Exited);
  CHECK(c.out == "from path\n");
  CHECK(no_children_left());
}

TEST_CASE("run captures stderr and a non-zero exit code separately", "[process]") {
  const Completion c = run({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
  CHECK(c.status == Status::Exited);
  CHECK(c.exit_code == 3);
  CHECK(c.out == "out\n");
  CHECK(c.err == "err\n");
  CHECK(no_children_left());
}

TEST_CASE("run passes arguments verbatim, without a shell", "[process]") {
  const Completion c = run({"/bin/echo", "$HOME", "*", ";", "a  b", "'q'"});
  CHECK(c.out == "$HOME * ; a  b 'q'\n");
  CHECK(no_children_left());
}

TEST_CASE("run gives the child /dev/null as stdin", "[process]") {
  // Our own stdin becomes a pipe that never ends: a child inheriting it would block in cat.
  int never_ending[2];
  REQUIRE(pipe(never_ending) == 0);
  const int saved_stdin = dup(STDIN_FILENO);
  REQUIRE(saved_stdin >= 0);
  REQUIRE(dup2(never_ending[0], STDIN_FILENO) == STDIN_FILENO);
  const Completion c = run({"/bin/sh", "-c", "cat; echo done"}, 1000ms);
  dup2(saved_stdin, STDIN_FILENO);
  close(saved_stdin);
  close(never_ending[0]);
  close(never_ending[1]);
  CHECK(c.status == Status::Exited);
  CHECK(c.out == "done\n");
  CHECK(no_children_left());
}

TEST_CASE("run passes no descriptor beyond stdin, stdout and stderr", "[process]") {
  // A descriptor without CLOEXEC, as a careless parent of ours might leave us.
  const int leaked = dup(STDERR_FILENO);
  REQUIRE(leaked > 2);
  const Completion c = run({"/bin/ls", "/proc/self/fd"});
  close(leaked);
  CHECK(c.status == Status::Exited);
  CHECK(c.out == "0\n1\n2\n3\n");  // 3 is ls's own handle on the directory
  CHECK(no_children_left());
}

TEST_CASE("run puts the child in its own process group", "[process]") {
  // Fields 1 and 5 of /proc/self/stat are the pid and the process group of `cut` itself.
  const Completion c = run({"/usr/bin/cut", "-d", " ", "-f", "1,5", "/proc/self/stat"});
  REQUIRE(c.status == Status::Exited);
  const std::size_t space = c.out.find(' ');
  REQUIRE(space != std::string::npos);
  CHECK(c.out.substr(0, space) + "\n" == c.out.substr(space + 1));
  CHECK(c.out.substr(0, space) != std::to_string(getpgrp()));
  CHECK(no_children_left());
}

TEST_CASE("run reports a missing executable as ENOENT", "[process]") {
  SECTION("a path") {
    const Completion c = run({"/nonexistent/clawperator-test-tool", "x"});
    CHECK(c.status == Status::SpawnFailed);
    CHECK(c.spawn_errno == ENOENT);
    CHECK(spawn_error_is_not_found(c.spawn_errno));
    CHECK(c.exit_code == -1);
  }
  SECTION("a name looked up in PATH") {
    const Completion c = run({"clawperator-test-no-such-tool"});
    CHECK(c.status == Status::SpawnFailed);
    CHECK(c.spawn_errno == ENOENT);
  }
  CHECK(no_children_left());
}

TEST_CASE("run reports a file that cannot be executed as EACCES", "[process]") {
  SECTION("a directory") {
    const Completion c = run({"/tmp"});
    CHECK(c.status == Status::SpawnFailed);
    CHECK(c.spawn_errno == EACCES);
  }
  SECTION("a file without execute permission") {
    char path[] = "/tmp/clawperator-noexec-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, "#!/bin/sh\necho no\n", 18) == 18);
    close(fd);
    REQUIRE(chmod(path, 0644) == 0);
    const Completion c = run({path});
    unlink(path);
    CHECK(c.status == Status::SpawnFailed);
    CHECK(c.spawn_errno == EACCES);
    CHECK(spawn_error_is_not_found(c.spawn_errno));
  }
  CHECK(no_children_left());
}

TEST_CASE("run rejects an empty argv and a non-positive timeout without spawning", "[process]") {
  const Completion empty = run({});
  CHECK(empty.status == Status::SpawnFailed);
  CHECK(empty.spawn_errno == EINVAL);
  CHECK_FALSE(spawn_error_is_not_found(empty.spawn_errno));
  const Completion zero = run({"/bin/echo", "never"}, 0ms);
  CHECK(zero.status == Status::TimedOut);
  CHECK(zero.out.empty());
  CHECK(no_children_left());
}

TEST_CASE("run reports death by signal", "[process]") {
  const Completion c = run({"/bin/sh", "-c", "echo before; kill -KILL $$"});
  CHECK(c.status == Status::Signaled);
  CHECK(c.signal == SIGKILL);
  CHECK(c.exit_code == -1);
  CHECK(c.out == "before\n");
  CHECK(no_children_left());
}

TEST_CASE("run gives the child the default SIGPIPE action although we ignore it", "[process]") {
  InterruptScope scope;  // installs SIG_IGN for SIGPIPE in this process
  REQUIRE(scope.installed());
  const Completion c = run({"/bin/sh", "-c", "kill -PIPE $$; echo survived"});
  CHECK(c.status == Status::Signaled);
  CHECK(c.signal == SIGPIPE);
  CHECK(c.out.empty());
  CHECK(no_children_left());
}

TEST_CASE("run stops a child at its deadline and reaps it", "[process]") {
  const Clock::time_point start = Clock::now();
  const Completion c = run({"/bin/sleep", "5"}, 200ms);
  CHECK(c.status == Status::TimedOut);
  CHECK(c.signal == SIGTERM);  // it obeyed SIGTERM: no SIGKILL needed
  CHECK(c.elapsed >= 200ms);
  CHECK(since(start) < 2000ms);
  CHECK(no_children_left());
}

TEST_CASE("run keeps the output written before the deadline", "[process]") {
  // The child would run 5 s, far past the deadline.
  const Completion c = run({"/bin/sh", "-c", "echo partial; echo why >&2; sleep 5"}, 300ms);
  CHECK(c.status == Status::TimedOut);
  CHECK(c.out == "partial\n");
  CHECK(c.err == "why\n");
  CHECK(no_children_left());
}

TEST_CASE("run kills a child that ignores SIGTERM after the grace period", "[process]") {
  const Clock::time_point start = Clock::now();
  // It would run 5 s, SIGTERM or not: only the SIGKILL after the grace ends it.
  const Completion c = run({"/bin/sh", "-c", "trap '' TERM; sleep 5"}, 300ms);
  CHECK(c.status == Status::TimedOut);
  CHECK(c.signal == SIGKILL);
  CHECK(c.elapsed >= 750ms);  // 300 ms deadline + 500 ms grace, with some clock slack
  CHECK(since(start) < 2000ms);
  CHECK(no_children_left());
}

TEST_CASE("run kills grandchildren in the child's process group", "[process]") {
  // Each grandchild would run 5 s, far past the deadline.
  SECTION("a grandchild that obeys SIGTERM") {
    const Completion c = run({"/bin/sh", "-c", "sleep 5 & echo $!; wait"}, 300ms);
    CHECK(c.status == Status::TimedOut);
    REQUIRE(!c.out.empty());
    CHECK(process_gone_within(static_cast<pid_t>(std::stol(c.out)), 2000ms));
  }
  SECTION("a grandchild that ignores SIGTERM while the child obeys it") {
    const Clock::time_point start = Clock::now();
    const Completion c =
        run({"/bin/sh", "-c", "/bin/sh -c 'trap \"\" TERM; echo $$; exec sleep 5' & wait"}, 300ms);
    CHECK(c.status == Status::TimedOut);
    CHECK(c.signal == SIGTERM);
    REQUIRE(!c.out.empty());
    CHECK(process_gone_within(static_cast<pid_t>(std::stol(c.out)), 2000ms));
    CHECK(since(start) < 2000ms);
  }
  CHECK(no_children_left());
}

TEST_CASE("run counts a grandchild holding stdout open as still running", "[process]") {
  // The child exits at once, but its background job keeps the pipe: the deadline decides.
  const Completion c = run({"/bin/sh", "-c", "sleep 5 & echo started"}, 400ms);
  CHECK(c.status == Status::TimedOut);
  CHECK(c.out == "started\n");
  CHECK(c.exit_code == 0);  // the child itself had exited normally
  CHECK(c.signal == 0);
  CHECK(no_children_left());
}

TEST_CASE("run waits for a child that closed its pipes but still runs", "[process]") {
  // It lives 300 ms past closing its pipes: the elapsed time shows the run waited for it.
  const Completion c = run({"/bin/sh", "-c", "exec >&- 2>&-; sleep 0.3; exit 4"});
  CHECK(c.status == Status::Exited);
  CHECK(c.exit_code == 4);
  CHECK(c.elapsed >= 300ms);
  CHECK(c.elapsed < 2000ms);
  CHECK(no_children_left());
}

TEST_CASE("run reads large output on both streams without deadlock", "[process]") {
  const std::vector<std::string> argv{
      "/bin/sh", "-c", "head -c 3000000 /dev/zero; head -c 2500000 /dev/zero >&2; exit 5"};
  SECTION("under the cap") {
    const Completion c = run(argv);
    CHECK(c.status == Status::Exited);
    CHECK(c.exit_code == 5);
    CHECK(c.out.size() == 3000000);
    CHECK(c.err.size() == 2500000);
    CHECK_FALSE(c.out_truncated);
    CHECK_FALSE(c.err_truncated);
  }
  SECTION("over the cap: truncated, and the child still runs to its end") {
    CommandSpec spec = command(argv);
    spec.max_output_bytes = std::size_t{1} << 20;
    const Completion c = make_system_runner()->run(spec);
    CHECK(c.status == Status::Exited);
    CHECK(c.exit_code == 5);
    CHECK(c.out.size() == spec.max_output_bytes);
    CHECK(c.err.size() == spec.max_output_bytes);
    CHECK(c.out_truncated);
    CHECK(c.err_truncated);
  }
  SECTION("exactly at the cap is not truncation") {
    CommandSpec spec = command({"/bin/sh", "-c", "head -c 1048576 /dev/zero"});
    spec.max_output_bytes = 1048576;
    const Completion c = make_system_runner()->run(spec);
    CHECK(c.out.size() == 1048576);
    CHECK_FALSE(c.out_truncated);
  }
  CHECK(no_children_left());
}

TEST_CASE("run interleaves stdout and stderr without losing bytes", "[process]") {
  const Completion c = run({"/bin/sh", "-c",
                            "i=0; while [ $i -lt 2000 ]; do echo o$i; echo e$i >&2; "
                            "i=$((i+1)); done"});
  REQUIRE(c.status == Status::Exited);
  std::string expected_out, expected_err;
  for (int i = 0; i < 2000; ++i) {
    expected_out += "o" + std::to_string(i) + "\n";
    expected_err += "e" + std::to_string(i) + "\n";
  }
  CHECK(c.out == expected_out);
  CHECK(c.err == expected_err);
  CHECK(no_children_left());
}

TEST_CASE("run is cancelled by SIGINT and reaps the child", "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  const Clock::time_point start = Clock::now();
  // Ctrl-C 100 ms into the child's run: the run's elapsed time covers them.
  SignalWhen ctrl_c(
      SIGINT, [] { return child_runs("/bin/sleep"); }, 100ms);
  const Completion c = run({"/bin/sleep", "5"});
  REQUIRE(ctrl_c.held());
  CHECK(c.status == Status::Cancelled);
  CHECK(c.signal == SIGTERM);
  CHECK(c.elapsed >= 100ms);
  CHECK(since(start) < 2000ms);
  CHECK(interrupted_signal() == SIGINT);
  CHECK(no_children_left());

  // The request is sticky: nothing new is started.
  const Completion next = run({"/bin/echo", "late"});
  CHECK(next.status == Status::Cancelled);
  CHECK(next.out.empty());
  CHECK(next.elapsed < 100ms);
  const Started refused = make_system_runner()->start({"/bin/echo", "late"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ECANCELED);
  CHECK(no_children_left());
}

TEST_CASE("run is cancelled by SIGTERM while the child ignores it", "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  // SIGTERM once the shell ignores it; its 5 s sleep then ends only by SIGKILL.
  SignalWhen term(SIGTERM, [] { return child_ignores(SIGTERM); });
  const Completion c = run({"/bin/sh", "-c", "trap '' TERM; sleep 5"});
  REQUIRE(term.held());
  CHECK(c.status == Status::Cancelled);
  CHECK(c.signal == SIGKILL);
  CHECK(c.elapsed < 2000ms);
  CHECK(interrupted_signal() == SIGTERM);
  CHECK(no_children_left());
}
