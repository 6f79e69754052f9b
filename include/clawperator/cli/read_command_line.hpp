// Reading the program's command line with CLI11 (src/cli/read_command_line.cpp): the command
// tree, the parse, and what the words typed mean. The one place besides the definitions'
// adapter (src/cli/command_line.cpp) and the help's layout (src/cli/help_text.cpp) that
// compiles CLI11, so that src/cli/app.cpp, which runs what was read, compiles in seconds
// (docs/performance.md, "CI time").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/global_options.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::cli {

// What the command line asks for: help to print, a refusal of the command line itself (USAGE,
// UNKNOWN_COMMAND), or a command to run (none when only global options were given).
struct CommandLineReading {
  CommandLineReading();
  // The tree's type is complete in the .cpp only.
  ~CommandLineReading();
  CommandLineReading(CommandLineReading&&) noexcept;

  std::optional<std::string> help;
  std::optional<contract::HostError> refusal;
  const Command* command = nullptr;  // one of `commands`
  std::string command_name;
  // What `command` and its handler's flags were bound into.
  std::unique_ptr<CLI::App> tree;
  std::vector<Command> commands;
};

// Fills `raw` with the global options typed, and the command's own flags into its state.
CommandLineReading read_command_line(int argc, const char* const* argv, RawGlobalFlags& raw);

}  // namespace clawperator::cli
