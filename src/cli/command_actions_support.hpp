// What the device-interaction commands share: their flags recorded as typed,
// the global --timeout as a number, and the way out through the exec path.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/execution_output.hpp"
#include "clawperator/cli/selector_flags.hpp"
#include "clawperator/service/visual_text.hpp"

namespace clawperator::cli::actions {

inline constexpr const char* kCommandGroup = "Device Interaction";
inline constexpr const char* kOptionsGroup = "Options";

// Value flags, recorded occurrence by occurrence: CLI11 alone cannot tell
// "--text" from "--text ''", nor count the repeats of a two-value flag, and
// the original's messages depend on both.
class ValueFlags {
 public:
  ValueFlags() = default;
  // Callbacks registered with CLI11 point here.
  ValueFlags(const ValueFlags&) = delete;
  ValueFlags& operator=(const ValueFlags&) = delete;

  OptionLine add(CommandLine command, const std::string& name, const std::string& value_name,
                 const std::string& description, int arity = 1);
  const TypedFlags& typed() const { return typed_; }
  bool contains(std::string_view name) const { return typed_.contains(name); }
  // The value of a flag typed once; nullopt when it was not typed or typed
  // without a value.
  std::optional<std::string> value(std::string_view name) const;

 private:
  TypedFlags typed_;
};

// A positional argument and whether it was given at all ("" is given).
struct Positional {
  std::string value;
  std::optional<OptionLine> option = std::nullopt;
  bool given() const { return option && option->given(); }
};

// What every device-interaction command has: its flags and the two
// no-device modes.
struct ActionState {
  ValueFlags flags;
  bool validate_only = false;
  bool dry_run = false;
  // --strict (node-targeted commands only): execute() sets params.strict on the action.
  bool strict = false;
};

// A subcommand in the Device Interaction group with --validate-only and --dry-run.
CommandLine add_action_command(CommandLine root, const std::string& name,
                               const std::string& description, ActionState& state);
// The command's notes and examples, its default budget (what --timeout replaces), then where
// the global options are.
void set_footer(CommandLine app, const std::string& notes,
                const std::string& default_budget = "30 s");
// --selector, --text, ... (without --text for `type`, where it is the text).
void add_element_flags(CommandLine app, ValueFlags& flags, bool with_text = true);
void add_container_flags(CommandLine app, ValueFlags& flags);
// --strict: refuse an ambiguous target (NODE_AMBIGUOUS) instead of acting on the first match.
void add_strict_flag(CommandLine app, ActionState& state);
void add_positional(CommandLine app, Positional& positional, const std::string& name,
                    const std::string& description);

// A USAGE error; details.flag names the flag at fault, when there is one.
contract::HostError usage(std::string message, std::string_view flag = {});

// The global --timeout as a number: nullopt when absent, or the original's
// "timeoutMs must be a finite number".
using TimeoutReading = contract::Outcome<std::optional<double>>;
TimeoutReading finite_global_timeout(const GlobalOptions& options);

// Apply: --timeout is the command's budget and becomes the execution's timeoutMs (every
// command). Ignore: only where --timeout still means the wait itself (wait and wait-for-nav
// without --wait, kept for compatibility); the built timeoutMs already covers that wait.
enum class TimeoutOverride { Ignore, Apply };

// Validates the built execution (its errors stand), applies the global --timeout as the
// execution's timeoutMs, then dry-runs, validates only, or runs it within that budget.
CommandResult execute(const Json& execution, const ActionState& state, const GlobalOptions& options,
                      TimeoutOverride timeout = TimeoutOverride::Apply);

// Registers a command whose handler reads `state`, which CLI11 fills.
template <typename State, typename Run>
void add_command(std::vector<Command>& commands, CommandLine command, std::shared_ptr<State> state,
                 Run run) {
  Command entry{command.app(),
                [state, run](const GlobalOptions& options) { return run(*state, options); },
                command.flag_names(), true};
  // Named by the command: its commandId is random.
  entry.report_subject = [] { return report::Subject{}; };
  commands.push_back(std::move(entry));
}

// --visual-text, --visual-text-contains, --index, --ocr-lang, --region, --min-confidence
// (src/cli/visual_text_flags.cpp): text on the screen found by OCR instead of a selector.
void add_visual_text_flags(CommandLine app, ValueFlags& flags);
bool has_visual_text_flag(const ValueFlags& flags);
// What click and wait add to a search for text: a long press; the wait's own --wait.
struct VisualTextExtras {
  bool long_click = false;
  std::optional<double> wait_ms;
};
// The command run with the text read on the screen (service/visual_text.hpp); a selector,
// container, --coordinate or --strict beside it is refused.
CommandResult run_visual_text_command(service::VisualTextAction action, const ActionState& state,
                                      const GlobalOptions& options,
                                      const VisualTextExtras& extras = {});

// One registration function per group of commands, all called by
// register_action_commands.
void register_observe_commands(CommandLine root, std::vector<Command>& commands);
void register_element_commands(CommandLine root, std::vector<Command>& commands);
void register_navigation_commands(CommandLine root, std::vector<Command>& commands);
// notifications, media, on-screen-log (command_services.cpp)
void register_service_commands(CommandLine root, std::vector<Command>& commands);
// query, swipe, drag, toast.
void register_gesture_commands(CommandLine root, std::vector<Command>& commands);

}  // namespace clawperator::cli::actions
