// A run of `clawperator` with a person at its controlling terminal, for the tests of what only a
// person confirms (docs/guardrails.md §5): tests/integration/policy_test.cpp, the WebView's
// judged actions (webview_commands_test.cpp).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "farm_fixture.hpp"
#include "test_files.hpp"

namespace clawperator::testing {

// A run of the binary under tty_session (tests/support/tty_session.cpp): a new session whose
// controlling terminal is a pseudo-terminal, stdin /dev/null and stdout a pipe as always; each
// `answers` entry typed at a "[y/N] " prompt. `terminal` is what the program wrote there.
struct AtTerminal {
  RunResult run;
  std::string terminal;
};

inline AtTerminal at_terminal(const Farm& farm, const std::vector<std::string>& args,
                              const std::vector<std::string>& answers, bool background = false) {
  static std::atomic<int> runs{0};
  const TemporaryDirectory directory("tty");
  const std::string transcript =
      (directory.path() / ("terminal-" + std::to_string(++runs))).string();
  std::vector<std::string> helper = {"--transcript", transcript};
  for (const std::string& answer : answers) helper.insert(helper.end(), {"--answer", answer});
  if (background) helper.push_back("--background");
  helper.insert(helper.end(), {"--", kBinary});
  helper.insert(helper.end(), args.begin(), args.end());
  AtTerminal result{run_binary(TTY_SESSION, helper, farm.environment()), {}};
  result.terminal = read_file(transcript);
  return result;
}

}  // namespace clawperator::testing
