// The action policy of a CLI run (docs/guardrails.md): loaded from --policy, CLAWPERATOR_POLICY
// or the default file, and the terminal question for a step that needs a person's yes.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>

#include "clawperator/cli/command.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/policy/policy.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::cli {
namespace {

// A person gets this long to answer before the answer counts as no.
constexpr int kAnswerTimeoutMs = 120000;

void write_text(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

// One line from the terminal: true for y or yes (any case), false for anything else, end of
// file, Ctrl-C or no answer in time.
bool ask_on_terminal(const std::string& question) {
  const process::UniqueFd tty(::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY));
  if (!tty.valid()) return false;
  write_text(tty.get(), "\nclawperator: the action policy asks for your confirmation\n" + question +
                            "\nSend it? [y/N] ");
  std::string answer;
  for (;;) {
    pollfd fds[2] = {{tty.get(), POLLIN, 0}, {process::interrupt_fd(), POLLIN, 0}};
    const int ready = ::poll(fds, process::interrupt_fd() >= 0 ? 2 : 1, kAnswerTimeoutMs);
    if (ready < 0 && errno == EINTR) {
      if (process::interrupted_signal() != 0) return false;
      continue;
    }
    if (ready <= 0 || (fds[1].revents & POLLIN) != 0) {
      write_text(tty.get(), "\n");
      return false;
    }
    char c = 0;
    const ssize_t n = ::read(tty.get(), &c, 1);
    if (n <= 0 || c == '\n' || c == '\r') break;
    if (answer.size() < 16) answer.push_back(static_cast<char>(std::tolower(c)));
  }
  return answer == "y" || answer == "yes";
}

}  // namespace

contract::Outcome<std::shared_ptr<const policy::Policy>> load_action_policy(
    const GlobalOptions& options) {
  auto loaded = policy::load_policy(options.policy, io::process_state_environment());
  if (!loaded) return contract::failed(loaded.error());
  if (!*loaded) return std::shared_ptr<const policy::Policy>();
  return std::shared_ptr<const policy::Policy>(
      std::make_shared<policy::Policy>(std::move(**loaded)));
}

skills::ScriptGuard script_guard(const GlobalOptions& options,
                                 const std::shared_ptr<const policy::Policy>& policy) {
  skills::ScriptGuard guard;
  if (policy) guard.policy_file = policy->file;
  guard.require_authentic_result = options.require_authentic_result;
  guard.result_transport = options.result_transport;
  return guard;
}

std::function<bool(const std::string&)> terminal_confirmation() {
  // A script's run (stdin or stderr not a terminal) is never held up by a question.
  if (::isatty(STDIN_FILENO) != 1 || ::isatty(STDERR_FILENO) != 1) return {};
  return ask_on_terminal;
}

}  // namespace clawperator::cli
