#include "clawperator/process/interrupt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>

#include "process_test_support.hpp"

namespace {

using namespace clawperator::process;
using namespace clawperator::process::test;

}  // namespace

TEST_CASE("interrupt handlers record the first signal and wake the self-pipe", "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  const int fd = interrupt_fd();
  REQUIRE(fd >= 0);
  CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
  CHECK((fcntl(fd, F_GETFL) & O_NONBLOCK) != 0);
  CHECK(interrupted_signal() == 0);
  CHECK_FALSE(readable(fd));

  std::raise(SIGTERM);
  CHECK(interrupted_signal() == SIGTERM);
  CHECK(readable(fd));
  std::raise(SIGINT);
  CHECK(interrupted_signal() == SIGTERM);

  reset_interrupt_for_tests();
  CHECK(interrupted_signal() == 0);
  CHECK_FALSE(readable(fd));

  std::raise(SIGINT);
  CHECK(interrupted_signal() == SIGINT);
  CHECK(readable(fd));
}

TEST_CASE("interrupt handlers are installed without SA_RESTART and can be reinstalled",
          "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  const int fd = interrupt_fd();
  REQUIRE(install_interrupt_handlers());
  CHECK(interrupt_fd() == fd);
  for (const int signal_number : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    REQUIRE(sigaction(signal_number, nullptr, &current) == 0);
    CHECK(current.sa_handler != SIG_DFL);
    CHECK(current.sa_handler != SIG_IGN);
    CHECK((current.sa_flags & SA_RESTART) == 0);
  }
}

TEST_CASE("interrupt handlers make writes to a closed pipe fail with EPIPE", "[process]") {
  InterruptScope scope;
  REQUIRE(scope.installed());
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  close(fds[0]);
  errno = 0;
  CHECK(write(fds[1], "x", 1) == -1);
  CHECK(errno == EPIPE);
  close(fds[1]);
}
