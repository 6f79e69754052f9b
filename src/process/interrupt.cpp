#include "clawperator/process/interrupt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>

namespace clawperator::process {
namespace {

volatile std::sig_atomic_t g_signal = 0;
// Read by the handler, which may run on any thread: a lock-free atomic is async-signal-safe.
std::atomic<int> g_write_fd{-1};
std::atomic<int> g_read_fd{-1};
static_assert(std::atomic<int>::is_always_lock_free);

std::mutex g_install_mutex;

void on_interrupt(int signal_number) {
  const int saved_errno = errno;
  // Keep the first signal: it decides the exit status (130 vs 143).
  if (g_signal == 0) g_signal = signal_number;
  const int fd = g_write_fd.load(std::memory_order_relaxed);
  if (fd >= 0) {
    // A full pipe (EAGAIN) is fine: it is already readable, which is all the byte is for.
    while (write(fd, "!", 1) < 0 && errno == EINTR) {
    }
  }
  errno = saved_errno;
}

bool create_pipe_once() {
  if (g_read_fd.load() >= 0) return true;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  g_write_fd.store(fds[1]);
  g_read_fd.store(fds[0]);
  return true;
}

}  // namespace

bool install_interrupt_handlers() noexcept {
  const std::lock_guard<std::mutex> lock(g_install_mutex);
  if (!create_pipe_once()) return false;

  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  if (sigaction(SIGPIPE, &ignore, nullptr) != 0) return false;

  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: see the header
  return sigaction(SIGINT, &action, nullptr) == 0 && sigaction(SIGTERM, &action, nullptr) == 0;
}

int interrupted_signal() noexcept {
  return g_signal;
}

int interrupt_fd() noexcept {
  return g_read_fd.load(std::memory_order_relaxed);
}

void reset_interrupt_for_tests() noexcept {
  g_signal = 0;
  const int fd = g_read_fd.load();
  if (fd < 0) return;
  char buffer[256];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    break;
  }
}

}  // namespace clawperator::process
