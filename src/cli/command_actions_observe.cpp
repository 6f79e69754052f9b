// `snapshot` and `screenshot`: look at the screen without changing it.
#include <CLI/CLI.hpp>
#include <array>
#include <memory>

#include "clawperator/cli/action_builders.hpp"
#include "clawperator/cli/snapshot_text.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

CommandResult run_snapshot(const ActionState& state, const GlobalOptions& options) {
  // The global --timeout overrides the execution timeout, range-checked there.
  CommandResult result =
      execute(build_snapshot(make_id_stamp()), state, options, TimeoutOverride::Apply);
  if (options.output == OutputFormat::Pretty) {
    result.pretty_text = render_snapshot_document(result.document);
  }
  return result;
}

CommandResult run_screenshot(const ActionState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (const auto* error = error_in(timeout)) return failure(*error);
  const std::array<std::string_view, 1> path_flag = {"--path"};
  if (auto error = repeated_flag(state.flags.typed(), path_flag)) return failure(*error);
  std::optional<std::string> path;
  if (state.flags.contains("--path")) {
    path = state.flags.value("--path");
    if (!path) {
      contract::HostError error = contract::usage_error("USAGE", "--path requires a value");
      error.details["flag"] = "--path";
      return failure(error);
    }
  }
  return execute(build_screenshot(make_id_stamp(), path, std::get<std::optional<double>>(timeout)),
                 state, options);
}

}  // namespace

void register_observe_commands(CLI::App& root, std::vector<Command>& commands) {
  auto snapshot_state = std::make_shared<ActionState>();
  CLI::App* snapshot = add_action_command(
      root, "snapshot", "Print the current UI hierarchy (XML in envelope.stepResults)",
      *snapshot_state);
  set_footer(*snapshot,
             "Notes:\n"
             "  --timeout MS overrides the execution timeout (1000..120000, default 30000).\n\n"
             "Examples:\n"
             "  clawperator snapshot\n"
             "  clawperator snapshot --device emulator-5554 --output pretty");
  add_command(commands, snapshot, snapshot_state, run_snapshot);

  auto screenshot_state = std::make_shared<ActionState>();
  CLI::App* screenshot =
      add_action_command(root, "screenshot", "Capture a PNG of the screen", *screenshot_state);
  screenshot_state->flags
      .add(*screenshot, "--path", "<file>",
           "Where to write the PNG (default: a new file in the temp directory)")
      ->group(kOptionsGroup);
  set_footer(*screenshot,
             "Notes:\n"
             "  --timeout MS sets the execution timeout (1000..120000, default 30000).\n\n"
             "Examples:\n"
             "  clawperator screenshot --path screen.png");
  add_command(commands, screenshot, screenshot_state, run_screenshot);
}

}  // namespace clawperator::cli::actions
