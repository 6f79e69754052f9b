// `clawperator-vdevice emulator` (or the test SDK's emulator script) as a child of the test:
// a console/adb port pair the OS says is free, outside 5554-5585 (which adb servers scan for
// real emulators), a private HOME for the console's token, and an end the test waits for.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/process/runner.hpp"
#include "farm_fixture.hpp"
#include "proc_files.hpp"
#include "vdevice/farm.hpp"

namespace clawperator::testing {

inline bool port_bindable(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const int one = 1;
  // As the emulator binds: a TIME_WAIT left by an earlier case does not make the port busy.
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool ok = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

// An even console port whose next port is free too, never in 5554-5585. Drawn below the
// kernel's ephemeral range (32768-60999 here, /proc/sys/net/ipv4/ip_local_port_range): a port
// the kernel handed out once may go to the next outgoing connection, and with tests running side
// by side an adb or curl connection can take it between this choice and the emulator's bind
// (seen once in a fresh-clone CI run, stop 52: EMULATOR_START_FAILED after 0.7 s).
inline std::uint16_t free_console_port() {
  static thread_local std::mt19937 random{std::random_device{}()};
  std::uniform_int_distribution<int> pick(10000 / 2, 32766 / 2 - 1);
  for (int attempt = 0; attempt < 200; ++attempt) {
    const auto port = static_cast<std::uint16_t>(pick(random) * 2);
    if (port >= 5554 && port <= 5585) continue;
    if (port_bindable(port) && port_bindable(static_cast<std::uint16_t>(port + 1))) return port;
  }
  FAIL("no free even port pair");
  return 0;
}

// The processes that have `needle` in their command line (/proc/*/cmdline, NULs as spaces).
// A process may exit between the listing and the read: tests/support/proc_files.hpp reads it
// as empty rather than throwing, as an ifstream would (ESRCH from underflow).
inline std::vector<pid_t> processes_with(const std::string& needle) {
  std::vector<pid_t> found;
  for (const pid_t pid : all_pids()) {
    std::string cmdline = read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
    for (char& c : cmdline) c = c == '\0' ? ' ' : c;
    if (cmdline.find(needle) != std::string::npos) found.push_back(pid);
  }
  return found;
}

inline bool process_running_with(const std::string& needle) {
  return !processes_with(needle).empty();
}

// Polls `done` every 50 ms until it holds or `limit` has passed.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

class EmulatorProcess {
 public:
  // Starts argv with `environment` ("NAME=VALUE") laid over ours; REQUIREs the spawn.
  EmulatorProcess(std::vector<std::string> argv, std::vector<std::string> environment) {
    process::Started started =
        runner_->start(process::StreamSpec{std::move(argv), std::move(environment)});
    REQUIRE(started);
    stream_ = std::move(*started);
    REQUIRE(stream_ != nullptr);
  }
  ~EmulatorProcess() {
    if (stream_) stream_->terminate();
  }
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // Reads until the child has exited or `limit` has passed; true when it exited.
  bool wait_exit(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!ended_.exited) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      process::StreamEvent event = stream_->wait(left);
      out_ += event.out;
      err_ += event.err;
      if (event.exited) ended_ = event;
    }
    return true;
  }
  // Still running after `time`.
  bool runs_for(std::chrono::milliseconds time) { return !wait_exit(time); }
  void sigterm() { ::kill(stream_->pid(), SIGTERM); }
  // As the OOM killer or `kill -9` ends it: no handler, no destructor runs.
  void sigkill() { ::kill(stream_->pid(), SIGKILL); }
  pid_t pid() const { return stream_->pid(); }

  int exit_code() const { return ended_.exit_code; }
  int signal() const { return ended_.signal; }
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  std::unique_ptr<process::Runner> runner_ = process::make_system_runner();
  std::unique_ptr<process::Stream> stream_;
  process::StreamEvent ended_;
  std::string out_, err_;
};

}  // namespace clawperator::testing
