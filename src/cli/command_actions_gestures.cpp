// `query`, `swipe`, `drag` and `toast`: the newest Operator's observation and gesture
// commands (docs/payload.md §10), built and sent like every device command.
#include <array>
#include <memory>

#include "clawperator/cli/snapshot_text.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/text.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

using contract::HostError;

// A flag that takes one value and may be typed once (query's --visibility and --limit).
using SingleValue = contract::Outcome<std::optional<std::string>>;
SingleValue single_flag(const ValueFlags& flags, std::string_view flag) {
  const auto it = flags.typed().find(flag);
  if (it == flags.typed().end()) return std::optional<std::string>{};
  const std::string name(flag);
  if (it->second.size() > 1) {
    return contract::failed(usage(name + " must not appear more than once", flag));
  }
  auto value = flags.value(flag);
  if (!value) return contract::failed(usage(name + " requires a value", flag));
  return value;
}

// A whole number of milliseconds typed once, for the gesture flags; its range is the
// payload's (validation reports it with the param's path).
using DurationReading = contract::Outcome<long long>;
DurationReading duration_flag(const ValueFlags& flags, std::string_view flag) {
  const std::string name(flag);
  const auto it = flags.typed().find(flag);
  if (it == flags.typed().end()) {
    return contract::failed(invalid_flags(name + " <ms> is required", flag));
  }
  if (it->second.size() > 1) {
    return contract::failed(invalid_flags(name + " must not appear more than once", flag));
  }
  const auto value = flags.value(flag);
  const auto number = value ? contract::parse_milliseconds(*value) : std::nullopt;
  if (!number || *number != static_cast<double>(static_cast<long long>(*number))) {
    return contract::failed(invalid_flags(name + " requires a whole number of milliseconds", flag));
  }
  return static_cast<long long>(*number);
}

using PointReading = contract::Outcome<service::Coordinate>;
PointReading point_flag(const ValueFlags& flags, std::string_view flag) {
  const CoordinateResolution point = resolve_point(flags.typed(), flag);
  if (!point) return contract::failed(point.error());
  const auto& value = *point;
  if (!value)
    return contract::failed(invalid_flags(std::string(flag) + " <x> <y> is required", flag));
  return *value;
}

CommandResult run_query(const ActionState& state, const GlobalOptions& options) {
  if (has_visual_text_flag(state.flags)) {
    for (const std::string_view node_flag : {"--visibility", "--limit", "--matcher-json"}) {
      if (state.flags.contains(node_flag)) {
        return failure(usage(std::string(node_flag) + " filters nodes; --visual-text lists every "
                                                      "place the text is drawn",
                             node_flag));
      }
    }
    return run_visual_text_command(service::VisualTextAction::Query, state, options);
  }
  service::QueryRequest request;
  const SingleValue visibility = single_flag(state.flags, "--visibility");
  if (!visibility) return failure(visibility.error());
  request.visibility = *visibility;
  if (request.visibility && *request.visibility != "on_screen" && *request.visibility != "all") {
    return failure(usage("--visibility must be on_screen or all", "--visibility"));
  }
  const SingleValue limit = single_flag(state.flags, "--limit");
  if (!limit) return failure(limit.error());
  if (const auto& text = *limit) {
    const auto number = contract::parse_milliseconds(*text);
    if (!number || *number < 1 || *number > 1000 ||
        *number != static_cast<double>(static_cast<long long>(*number))) {
      return failure(usage("--limit must be an integer from 1 to 1000", "--limit"));
    }
    request.limit = static_cast<long long>(*number);
  }
  // --matcher-json is query's name for --selector; it cannot be mixed with the simple flags.
  TypedFlags typed = state.flags.typed();
  if (auto json = typed.extract("--matcher-json")) {
    if (typed.contains("--selector")) {
      return failure(invalid_flags("use --matcher-json OR --selector, not both", "--matcher-json"));
    }
    typed["--selector"] = std::move(json.mapped());
  }
  const SelectorResolution matcher = resolve_selector(typed, SelectorScope::Element);
  if (!matcher) return failure(matcher.error());
  request.matcher = *matcher;
  if (request.matcher && request.matcher->empty()) {
    return failure(invalid_flags(
        "--matcher-json {} matches nothing; to list every node, run query without a matcher",
        "--matcher-json"));
  }
  CommandResult result = execute(service::build_query(service::make_id_stamp(), request), state,
                                 options, TimeoutOverride::Apply);
  // Each match once, as a list: the JSON holds them twice (the Operator's string in the
  // envelope, parsed as `query`).
  if (options.output == OutputFormat::Pretty) {
    result.pretty_text = render_query_document(result.document);
  }
  return result;
}

CommandResult run_swipe(const ActionState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const PointReading start = point_flag(state.flags, "--start");
  if (!start) return failure(start.error());
  const PointReading end = point_flag(state.flags, "--end");
  if (!end) return failure(end.error());
  const DurationReading duration = duration_flag(state.flags, "--duration-ms");
  if (!duration) return failure(duration.error());
  return execute(service::build_swipe(service::make_id_stamp(), *start, *end, *duration, *timeout),
                 state, options);
}

CommandResult run_drag(const ActionState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const PointReading start = point_flag(state.flags, "--start");
  if (!start) return failure(start.error());
  const PointReading end = point_flag(state.flags, "--end");
  if (!end) return failure(end.error());
  const DurationReading hold = duration_flag(state.flags, "--hold-duration-ms");
  if (!hold) return failure(hold.error());
  const DurationReading move = duration_flag(state.flags, "--move-duration-ms");
  if (!move) return failure(move.error());
  const service::DragRequest request{*start, *end, *hold, *move};
  return execute(service::build_drag(service::make_id_stamp(), request, *timeout), state, options);
}

struct ToastState : ActionState {
  Positional text;
  bool cancel = false;
};

CommandResult run_toast(const ToastState& state, const GlobalOptions& options) {
  const SingleValue duration = single_flag(state.flags, "--duration");
  if (!duration) return failure(duration.error());
  const auto& duration_value = *duration;
  if (state.cancel) {
    if (state.text.given() || duration_value) {
      return failure(
          contract::usage_error("USAGE", "toast --cancel takes no text and no --duration"));
    }
    return execute(service::build_toast(service::make_id_stamp(), std::nullopt, std::nullopt),
                   state, options, TimeoutOverride::Apply);
  }
  if (!state.text.given()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "toast requires the text to show, or --cancel.\n\nExamples:\n  clawperator toast "
        "\"Build finished\" --duration long\n  clawperator toast --cancel"));
  }
  if (duration_value && *duration_value != "short" && *duration_value != "long") {
    return failure(usage("--duration must be short or long", "--duration"));
  }
  // The text goes as typed (surrounding whitespace included); validation judges it.
  return execute(service::build_toast(service::make_id_stamp(), state.text.value, duration_value),
                 state, options, TimeoutOverride::Apply);
}

}  // namespace

void register_gesture_commands(CommandLine root, std::vector<Command>& commands) {
  auto query_state = std::make_shared<ActionState>();
  CommandLine query = add_action_command(
      root, "query", "List the UI nodes that match, counted and bounded (acts on none)",
      *query_state);
  add_element_flags(query, query_state->flags);
  add_visual_text_flags(query, query_state->flags);
  query_state->flags.add(query, "--matcher-json", "<json>", "NodeMatcher JSON (as --selector)")
      .group("Element selector (combine for AND)");
  query_state->flags
      .add(query, "--visibility", "<on_screen|all>",
           "on_screen (default): what actions can reach; all: scrolled away too")
      .group(kOptionsGroup);
  query_state->flags.add(query, "--limit", "<1..1000>", "Most nodes returned (default 100)")
      .group(kOptionsGroup);
  set_footer(query,
             "Notes:\n"
             "  No selector lists every eligible node. The parsed result is the output's\n"
             "  `query`.\n\n"
             "Examples:\n"
             "  clawperator query --id android:id/title --limit 20\n"
             "  clawperator query --matcher-json '{\"role\":\"switch\"}' --visibility all");
  add_command(commands, query, query_state, run_query);

  auto swipe_state = std::make_shared<ActionState>();
  CommandLine swipe =
      add_action_command(root, "swipe", "Swipe between two screen points", *swipe_state);
  swipe_state->flags.add(swipe, "--start", "<x> <y>", "Where the finger lands (pixels)", 2)
      .group(kOptionsGroup);
  swipe_state->flags.add(swipe, "--end", "<x> <y>", "Where it lifts (pixels)", 2)
      .group(kOptionsGroup);
  swipe_state->flags.add(swipe, "--duration-ms", "<ms>", "How long the swipe takes (1..10000)")
      .group(kOptionsGroup);
  set_footer(swipe,
             "Notes:\n"
             "  All three flags are required.\n\n"
             "Examples:\n"
             "  clawperator swipe --start 540 1800 --end 540 600 --duration-ms 300");
  add_command(commands, swipe, swipe_state, run_swipe);

  auto drag_state = std::make_shared<ActionState>();
  CommandLine drag =
      add_action_command(root, "drag", "Press, hold, move and release (Android 8.0+)", *drag_state);
  drag_state->flags.add(drag, "--start", "<x> <y>", "Where the finger lands (pixels)", 2)
      .group(kOptionsGroup);
  drag_state->flags.add(drag, "--end", "<x> <y>", "Where it is released (pixels)", 2)
      .group(kOptionsGroup);
  drag_state->flags.add(drag, "--hold-duration-ms", "<ms>", "Hold before moving (1..10000)")
      .group(kOptionsGroup);
  drag_state->flags.add(drag, "--move-duration-ms", "<ms>", "How long the move takes (1..10000)")
      .group(kOptionsGroup);
  set_footer(drag,
             "Notes:\n"
             "  All four flags are required; below Android API 26 the command is refused\n"
             "  (GESTURE_UNSUPPORTED) before anything is sent.\n\n"
             "Examples:\n"
             "  clawperator drag --start 200 900 --end 800 900 --hold-duration-ms 600 "
             "--move-duration-ms 400");
  add_command(commands, drag, drag_state, run_drag);

  auto toast_state = std::make_shared<ToastState>();
  CommandLine toast = add_action_command(root, "toast", "Show a toast, or cancel it", *toast_state);
  add_positional(toast, toast_state->text, "text", "The text to show (verbatim)");
  toast_state->flags.add(toast, "--duration", "<short|long>", "How long it shows (default short)")
      .group(kOptionsGroup);
  toast.add_flag("--cancel", toast_state->cancel, "Hide the toast the Operator showed")
      .group(kOptionsGroup);
  set_footer(toast,
             "Notes:\n"
             "  A text that starts with '-' follows --: clawperator toast -- \"-1 left\"\n\n"
             "Examples:\n"
             "  clawperator toast \"Build finished\" --duration long\n"
             "  clawperator toast --cancel");
  add_command(commands, toast, toast_state, run_toast);
}

}  // namespace clawperator::cli::actions
