// The action policy of a CLI run (docs/guardrails.md): loaded from --policy, CLAWPERATOR_POLICY
// or the default file, and the question on the controlling terminal for a step that needs a
// person's yes.
#include <unistd.h>

#include <memory>

#include "clawperator/cli/command.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/policy/policy.hpp"
#include "clawperator/process/terminal.hpp"

namespace clawperator::cli {
namespace {

// A person gets this long to answer before the answer counts as no.
constexpr std::chrono::milliseconds kAnswerTimeout{120000};

// One line from the terminal: yes for y or yes (any case), no for anything else, the end of
// input, Ctrl-C or no answer in time.
bool ask_on_terminal(int tty, const std::string& question) {
  if (!process::write_to_terminal(
          tty, "\nclawperator: the action policy asks for your confirmation\n" + question +
                   "\nSend it? [y/N] ")) {
    return false;
  }
  const std::optional<std::string> answer = process::read_terminal_line(tty, kAnswerTimeout);
  if (!answer) process::write_to_terminal(tty, "\n");
  return answer && process::is_yes(*answer);
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
  // Pipes for stdin and stdout do not matter; a controlling terminal this process may talk on
  // does. A background job or a skill's script is never held up by a question.
  auto tty = std::make_shared<process::UniqueFd>(process::open_foreground_terminal());
  if (!tty->valid()) return {};
  return [tty](const std::string& question) { return ask_on_terminal(tty->get(), question); };
}

}  // namespace clawperator::cli
