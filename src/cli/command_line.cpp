#include "clawperator/cli/command_line.hpp"

#include <CLI/CLI.hpp>

namespace clawperator::cli {
namespace {

// What CLI11 stores for an occurrence typed without a value; no one types it.
const std::string kNoValue = "\x1f<none>";

}  // namespace

OptionLine& OptionLine::group(const std::string& name) {
  option_->group(name);
  return *this;
}

OptionLine& OptionLine::each(std::function<void(const std::string&)> seen) {
  option_->each(std::move(seen));
  return *this;
}

OptionLine& OptionLine::value_name(std::string_view name) {
  option_->type_name(std::string(name));
  return *this;
}

bool OptionLine::given() const {
  return option_->count() > 0;
}

CommandLine CommandLine::add_subcommand(const std::string& name, const std::string& description) {
  return CommandLine(*app_->add_subcommand(name, description));
}

CommandLine& CommandLine::alias(const std::string& name) {
  app_->alias(name);
  return *this;
}

CommandLine& CommandLine::group(const std::string& name) {
  app_->group(name);
  return *this;
}

CommandLine& CommandLine::require_subcommand(int min, int max) {
  app_->require_subcommand(min, max);
  return *this;
}

OptionLine CommandLine::add_option(const std::string& names, std::string& target,
                                   const std::string& description) {
  return OptionLine(app_->add_option(names, target, description));
}

OptionLine CommandLine::add_option(const std::string& names, std::optional<std::string>& target,
                                   const std::string& description) {
  return OptionLine(app_->add_option(names, target, description));
}

OptionLine CommandLine::add_option(const std::string& names, std::vector<std::string>& target,
                                   const std::string& description) {
  return OptionLine(app_->add_option(names, target, description));
}

OptionLine CommandLine::add_flag(const std::string& names, bool& target,
                                 const std::string& description) {
  return OptionLine(app_->add_flag(names, target, description));
}

OptionLine CommandLine::add_occurrence_option(
    const std::string& name, const std::string& value_name, const std::string& description,
    int max_values, std::function<void(std::vector<std::string>)> record) {
  // Called once per occurrence (trigger_on_parse), with that occurrence's values.
  auto each_occurrence = [record = std::move(record)](const CLI::results_t& results) {
    std::vector<std::string> values;
    for (const std::string& value : results) {
      if (value != kNoValue) values.push_back(value);
    }
    record(std::move(values));
    return true;
  };
  CLI::Option* option = app_->add_option(name, CLI::callback_t(each_occurrence), description);
  option->expected(0, max_values)
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str(kNoValue)
      ->option_text(value_name)
      // What the completions read (tools/generate_cli_docs.cpp): "<file>" offers file names.
      ->type_name(value_name);
  return OptionLine(option);
}

std::vector<std::string> CommandLine::flag_names() const {
  std::vector<std::string> names;
  for (const CLI::Option* option : app_->get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

}  // namespace clawperator::cli
