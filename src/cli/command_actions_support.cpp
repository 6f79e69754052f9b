#include "command_actions_support.hpp"

#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/selector_flags.hpp"
#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/utf8.hpp"

namespace clawperator::cli::actions {
OptionLine ValueFlags::add(CommandLine command, const std::string& name,
                           const std::string& value_name, const std::string& description,
                           int arity) {
  return command.add_occurrence_option(
      name, value_name, description, arity,
      [this, name](FlagOccurrence occurrence) { typed_[name].push_back(std::move(occurrence)); });
}

std::optional<std::string> ValueFlags::value(std::string_view name) const {
  const auto it = typed_.find(name);
  if (it == typed_.end() || it->second.front().empty()) return std::nullopt;
  return it->second.front().front();
}

CommandLine add_action_command(CommandLine root, const std::string& name,
                               const std::string& description, ActionState& state) {
  CommandLine app = root.add_subcommand(name, description);
  app.group(kCommandGroup);
  app.add_flag("--validate-only", state.validate_only,
               "Validate and print the execution this command builds; contact no device")
      .group(kOptionsGroup);
  app.add_flag("--dry-run", state.dry_run,
               "Validate and print the plan (ids, types, params); contact no device")
      .group(kOptionsGroup);
  return app;
}

void set_footer(CommandLine app, const std::string& notes, const std::string& default_budget) {
  set_command_footer(app, notes, default_budget);
}

void add_element_flags(CommandLine app, ValueFlags& flags, bool with_text) {
  const std::string group = "Element selector (combine for AND)";
  flags
      .add(app, "--selector", "<json>", "Raw NodeMatcher JSON (advanced; not with the flags below)")
      .group(group);
  for (const contract::MatcherField field : shorthand_fields()) {
    const contract::MatcherFieldRow& row = contract::matcher_field_row(field);
    if (!with_text && field == contract::MatcherField::TextEquals) continue;
    flags.add(app, std::string(row.flag), std::string(row.value_name), std::string(row.help))
        .group(group);
  }
}

void add_container_flags(CommandLine app, ValueFlags& flags) {
  const std::string group = "Container selector (optional; combine for AND)";
  flags
      .add(app, "--container-selector", "<json>",
           "Container as raw NodeMatcher JSON (not with the below)")
      .group(group);
  for (const contract::MatcherField field : shorthand_fields()) {
    const contract::MatcherFieldRow& row = contract::matcher_field_row(field);
    flags
        .add(app, std::string(row.container_flag), std::string(row.value_name),
             std::string(row.container_help))
        .group(group);
  }
}

void add_strict_flag(CommandLine app, ActionState& state) {
  app.add_flag("--strict", state.strict,
               "Refuse an ambiguous target (NODE_AMBIGUOUS) instead of acting on the first match")
      .group(kOptionsGroup);
}

void add_positional(CommandLine app, Positional& positional, const std::string& name,
                    const std::string& description) {
  positional.option = app.add_option(name, positional.value, description);
}

contract::HostError usage(std::string message, std::string_view flag) {
  contract::HostError error = contract::usage_error("USAGE", std::move(message));
  if (!flag.empty()) error.details["flag"] = flag;
  return error;
}

TimeoutReading finite_global_timeout(const GlobalOptions& options) {
  if (!options.timeout) return std::optional<double>{};
  if (auto value = contract::parse_milliseconds(*options.timeout)) {
    return std::optional<double>{*value};
  }
  Json details = Json::object();
  details["path"] = "timeoutMs";
  return contract::failed(contract::validation_error(
      "EXECUTION_VALIDATION_FAILED", "timeoutMs must be a finite number", std::move(details)));
}

CommandResult execute(const Json& execution, const ActionState& state, const GlobalOptions& options,
                      TimeoutOverride timeout) {
  // The arguments went into the execution unparsed: a bad byte would reach the device replaced.
  if (auto invalid = find_invalid_utf8_string(execution)) {
    Json details = Json::object();
    details["source"] = "argv";
    details["path"] = invalid->path;
    details["byteOffset"] = invalid->offset;
    return failure(contract::validation_error(
        "EXECUTION_VALIDATION_FAILED",
        "Argument for " + invalid->path + " is not valid UTF-8 (" + invalid->description + ")",
        std::move(details)));
  }
  auto admitted = contract::admit_execution(
      state.strict ? service::with_selection(execution, true, std::nullopt) : execution,
      timeout == TimeoutOverride::Apply ? options.timeout : std::nullopt);
  if (!admitted) return failure(admitted.error());
  return finish_execution(std::move(*admitted), execution_mode(state.validate_only, state.dry_run),
                          options);
}

}  // namespace clawperator::cli::actions
