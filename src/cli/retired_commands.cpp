#include "clawperator/cli/retired_commands.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace clawperator::cli {
namespace {

// The original's table of removed nested forms and the flat command of each.
struct RemovedForm {
  std::string_view group;
  std::string_view word;
  std::string_view replacement;
};

constexpr std::array<RemovedForm, 10> kRemovedForms = {{
    {"action", "click", "click"},
    {"action", "open-app", "open"},
    {"action", "open-uri", "open"},
    {"action", "type", "type"},
    {"action", "read", "read"},
    {"action", "wait", "wait"},
    {"action", "press-key", "press"},
    {"observe", "snapshot", "snapshot"},
    {"observe", "screenshot", "screenshot"},
    {"inspect", "ui", "snapshot"},
}};

// The original's command families this CLI has not built (docs/compatibility.md). Said as
// such, with no look-alike suggested: `emulator` is not `operator`.
constexpr std::array<std::string_view, 1> kFamiliesNotBuilt = {"daemon"};

// The one line a script can copy, as the original's `canonical` gives it.
constexpr std::string_view kOperatorSetupLine =
    "clawperator operator setup --apk <path> [--device <id>] [--operator-package <package>]";

contract::HostError operator_setup_redirect(std::string_view typed) {
  const std::string word(typed);
  contract::HostError error =
      contract::usage_error("USAGE", "clawperator " + word + " is not a valid " +
                                         (word == "setup" ? "top-level command" : "command") +
                                         ". Use: clawperator operator setup --apk <path>");
  error.top_level["suggestion"] = "operator setup";
  error.top_level["canonical"] = std::string(kOperatorSetupLine);
  return error;
}

// The flat commands of one removed group, in the table's order, each once.
std::string flat_commands_of(std::string_view group) {
  std::string out;
  for (const RemovedForm& form : kRemovedForms) {
    if (form.group != group) continue;
    const std::string name(form.replacement);
    if (out.find(name) != std::string::npos) continue;
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

}  // namespace

bool names_operator_setup(std::string_view word) {
  return word == "setup" || word == "install";
}

contract::Status retired_command(std::string_view first, std::string_view second) {
  if (names_operator_setup(first)) return contract::failed(operator_setup_redirect(first));
  if (std::find(kFamiliesNotBuilt.begin(), kFamiliesNotBuilt.end(), first) !=
      kFamiliesNotBuilt.end()) {
    return contract::failed(contract::usage_error(
        "UNKNOWN_COMMAND", "Unknown command: " + std::string(first) + ". The original's " +
                               std::string(first) +
                               " commands are not part of this CLI (docs/compatibility.md)."
                               " Use --help for available commands."));
  }
  const bool group = std::any_of(kRemovedForms.begin(), kRemovedForms.end(),
                                 [&](const RemovedForm& form) { return form.group == first; });
  if (!group) return {};
  const std::string typed(first);
  const auto form =
      std::find_if(kRemovedForms.begin(), kRemovedForms.end(), [&](const RemovedForm& candidate) {
        return candidate.group == first && candidate.word == second;
      });
  if (form == kRemovedForms.end()) {
    return contract::failed(contract::usage_error(
        "UNKNOWN_COMMAND", "'" + typed + "' has been removed; its commands are flat now: " +
                               flat_commands_of(first) + ". Use --help for available commands."));
  }
  const std::string replacement(form->replacement);
  // "Use 'click' instead." is the original's sentence, which scripts and its own tests match.
  contract::HostError error = contract::usage_error(
      "UNKNOWN_COMMAND", "'" + typed + " " + std::string(second) + "' has been removed. Use '" +
                             replacement + "' instead. Run 'clawperator " + replacement +
                             " --help' for usage.");
  error.top_level["suggestion"] = replacement;
  return contract::failed(std::move(error));
}

}  // namespace clawperator::cli
