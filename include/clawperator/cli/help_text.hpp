// Help text shared by every command: the formatter, the footer every command ends with, and
// the top-level footer with the exit-code table.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/cli/command_line.hpp"

namespace CLI {
class App;
class Formatter;
}  // namespace CLI

namespace clawperator::cli {

// The one layout of every --help (docs/commands.md "Help").
std::shared_ptr<CLI::Formatter> make_help_formatter();

// The page of one action word of a command that takes one (`skills run --help`, `help
// operator setup`), in the same layout: only the options of every action and those whose
// description names this one ("run: …"), and only the examples that use it. nullopt when
// `command` takes no such word.
std::optional<std::string> action_help(const CLI::App& command, std::string_view action);

// Whether an option whose description is `description` belongs on `action`'s page, `actions`
// being every action word of its command. Pure; for the tests.
bool option_applies_to_action(std::string_view description, std::string_view action,
                              const std::vector<std::string>& actions);

// The last line of every command's help.
inline constexpr std::string_view kGlobalOptionsPointer =
    "Global options (--device, --operator-package, --output, --log-level, ...): "
    "clawperator --help";

// A command's footer: `sections` ("Words:", "Notes:", "Examples:", in that order, blocks
// separated by one blank line, lines indented by two spaces), then for a command that takes
// --timeout the Budget block with its default budget, then kGlobalOptionsPointer.
void set_command_footer(CommandLine command, const std::string& sections,
                        const std::optional<std::string>& default_budget = std::nullopt);

// The exit-code contract (docs/contract.md §7), printed under the top-level help.
std::string_view help_footer();

}  // namespace clawperator::cli
