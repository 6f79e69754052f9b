// How a command file defines its command line: subcommands, options, flags and positionals,
// without including CLI11. Every file that includes <CLI/CLI.hpp> compiles its header-only
// implementation again (4-7 s of g++ -O3 each: its global validators and the App code the file
// uses; docs/performance.md, "CI time"), so only src/cli/command_line.cpp (these handles),
// src/cli/read_command_line.cpp (the parse) and src/cli/help_text.cpp (the help's layout)
// include it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace clawperator::cli {

// One option, flag or positional of a command, as it was defined.
class OptionLine {
 public:
  explicit OptionLine(CLI::Option* option) : option_(option) {}

  // The help block it is listed in; "" hides it from the help.
  OptionLine& group(const std::string& name);
  // Called with each value as it is parsed.
  OptionLine& each(std::function<void(const std::string&)> seen);
  // The value's name in the help ("--out <file>"); kFileValue and kDirectoryValue
  // (action_words.hpp) also make the shell completions offer paths.
  OptionLine& value_name(std::string_view name);
  // Typed at least once (a positional given as "" counts).
  bool given() const;

 private:
  CLI::Option* option_;
};

// A command (or the program itself) being defined. A handle: copies refer to the same command,
// which CLI11's App owns.
class CommandLine {
 public:
  explicit CommandLine(CLI::App& app) : app_(&app) {}

  CommandLine add_subcommand(const std::string& name, const std::string& description);
  CommandLine& alias(const std::string& name);
  // The block of the program's help the command is listed in.
  CommandLine& group(const std::string& name);
  CommandLine& require_subcommand(int min, int max);

  // A name starting with "-" is an option ("--out,-o"), any other a positional.
  OptionLine add_option(const std::string& names, std::string& target,
                        const std::string& description);
  OptionLine add_option(const std::string& names, std::optional<std::string>& target,
                        const std::string& description);
  OptionLine add_option(const std::string& names, std::vector<std::string>& target,
                        const std::string& description);
  OptionLine add_flag(const std::string& names, bool& target, const std::string& description);
  // An option taking 0..max_values values, `record` called once per occurrence with that
  // occurrence's values (none when it was typed bare); listed as `name value_name`.
  OptionLine add_occurrence_option(const std::string& name, const std::string& value_name,
                                   const std::string& description, int max_values,
                                   std::function<void(std::vector<std::string>)> record);

  // Every long name of its options ("--out"), for "did you mean".
  std::vector<std::string> flag_names() const;
  CLI::App* app() const { return app_; }

 private:
  CLI::App* app_;
};

}  // namespace clawperator::cli
