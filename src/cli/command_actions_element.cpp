// The commands that find one element first: click, type, read, wait,
// wait-for-nav and read-value.
#include <array>
#include <memory>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/text.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

// The element the flags name: MISSING_SELECTOR when there are none.
SelectorResolution required_element(const TypedFlags& typed, std::string_view command,
                                    SelectorChoices choices) {
  if (!has_selector_flag(typed, SelectorScope::Element)) {
    return contract::failed(missing_selector(command, choices));
  }
  return resolve_selector(typed, SelectorScope::Element);
}

struct ClickState : ActionState {
  bool long_click = false;
  bool focus = false;
};

CommandResult run_click(const ClickState& state, const GlobalOptions& options) {
  if (has_visual_text_flag(state.flags)) {
    if (state.focus) {
      return failure(
          invalid_flags("--focus needs a node; text read on the screen is a point", "--focus"));
    }
    return run_visual_text_command(service::VisualTextAction::Click, state, options,
                                   {state.long_click, std::nullopt});
  }
  const TypedFlags& typed = state.flags.typed();
  const CoordinateResolution coordinate_reading = resolve_coordinate(typed);
  if (!coordinate_reading) return failure(coordinate_reading.error());
  const auto& coordinate = *coordinate_reading;

  std::optional<Json> matcher;
  if (!coordinate) {
    const SelectorResolution element =
        required_element(typed, "click", SelectorChoices::WithCoordinate);
    if (!element) return failure(element.error());
    matcher = *element;
  } else if (has_selector_flag(typed, SelectorScope::Element)) {
    return failure(invalid_flags("use --coordinate OR a selector, not both"));
  }

  if (state.long_click && state.focus) {
    return failure(
        invalid_flags("--long and --focus are mutually exclusive.\n\nUse --long for a long press, "
                      "or --focus to set input focus."));
  }
  if (coordinate && state.focus) {
    return failure(invalid_flags("--focus is not supported with --coordinate", "--focus"));
  }
  const service::ClickType click_type = state.long_click ? service::ClickType::LongClick
                                        : state.focus    ? service::ClickType::Focus
                                                         : service::ClickType::Default;
  const SelectorResolution container = resolve_selector(typed, SelectorScope::Container);
  if (!container) return failure(container.error());
  return execute(service::with_selection(service::build_click(service::make_id_stamp(), matcher,
                                                              coordinate, click_type),
                                         false, *container),
                 state, options);
}

struct TypeState : ActionState {
  Positional text;
  bool submit = false;
  bool clear = false;
};

CommandResult run_type(const TypeState& state, const GlobalOptions& options) {
  const std::array<std::string_view, 1> text_flag = {"--text"};
  if (auto status = repeated_flag(state.flags.typed(), text_flag); !status)
    return failure(status.error());
  const std::optional<std::string> flag_text = state.flags.value("--text");
  if (state.flags.contains("--text") && !flag_text) {
    // `type --text --role textfield`: the value is missing, as every selector flag reports it
    // (and as the original does), not the text of a command that had none.
    return failure(invalid_flags("--text requires a value", "--text"));
  }
  if (flag_text && state.text.given()) {
    return failure(
        invalid_flags("type: pass text as a positional argument or via --text, not both.\n\n"
                      "See: clawperator type --help"));
  }
  const std::string text = flag_text.value_or(state.text.value);
  if (text.empty()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "type requires text to type. Pass text as a positional argument or via --text <text>."));
  }
  // --text is the text to type here, never part of the selector.
  TypedFlags selector_flags = state.flags.typed();
  selector_flags.erase("--text");
  const SelectorResolution element =
      required_element(selector_flags, "type", SelectorChoices::TypeTarget);
  if (!element) return failure(element.error());
  const SelectorResolution container = resolve_selector(selector_flags, SelectorScope::Container);
  if (!container) return failure(container.error());
  return execute(service::with_selection(service::build_type(service::make_id_stamp(), **element,
                                                             text, state.submit, state.clear),
                                         false, *container),
                 state, options);
}

struct ReadState : ActionState {
  bool all = false;
};

CommandResult run_read(const ReadState& state, const GlobalOptions& options) {
  if (has_visual_text_flag(state.flags)) {
    if (state.all) {
      return failure(invalid_flags(
          "read --all reads nodes; every place a text is drawn is `query --visual-text`", "--all"));
    }
    return run_visual_text_command(service::VisualTextAction::Read, state, options);
  }
  const TypedFlags& typed = state.flags.typed();
  const SelectorResolution element = required_element(typed, "read", SelectorChoices::Standard);
  if (!element) return failure(element.error());
  const SelectorResolution container = resolve_selector(typed, SelectorScope::Container);
  if (!container) return failure(container.error());
  return execute(service::build_read(service::make_id_stamp(), **element, *container, state.all),
                 state, options);
}

// How long wait and wait-for-nav wait: --wait MS; without it the global --timeout, as in the
// original (kept for compatibility: then --timeout is the wait and the execution's timeoutMs is
// derived from it). With --wait, --timeout is the command's budget as everywhere else.
struct WaitFlag {
  std::optional<std::string> raw;  // nullopt: not given
  std::string flag;                // as named in messages
  TimeoutOverride timeout;
};

WaitFlag wait_flag(const ValueFlags& flags, const GlobalOptions& options) {
  if (flags.contains("--wait")) {
    return {flags.value("--wait").value_or(""), "--wait", TimeoutOverride::Apply};
  }
  return {options.timeout, options.timeout_flag, TimeoutOverride::Ignore};
}

CommandResult run_wait(const ActionState& state, const GlobalOptions& options) {
  const WaitFlag wait = wait_flag(state.flags, options);
  std::optional<double> wait_ms;
  if (wait.raw) {
    wait_ms = contract::parse_milliseconds(*wait.raw);
    if (!wait_ms || *wait_ms <= 0) {
      return failure(invalid_flags(wait.flag +
                                       " must be a positive number of milliseconds when "
                                       "specified. Omit " +
                                       wait.flag + " to use the default wait cap.",
                                   wait.flag));
    }
  }
  if (has_visual_text_flag(state.flags)) {
    return run_visual_text_command(service::VisualTextAction::Wait, state, options,
                                   {false, wait_ms});
  }
  const SelectorResolution element =
      required_element(state.flags.typed(), "wait", SelectorChoices::Standard);
  if (!element) return failure(element.error());
  const SelectorResolution container =
      resolve_selector(state.flags.typed(), SelectorScope::Container);
  if (!container) return failure(container.error());
  return execute(
      service::with_selection(service::build_wait(service::make_id_stamp(), **element, wait_ms),
                              false, *container),
      state, options, wait.timeout);
}

constexpr const char* kWaitForNavUsage =
    "\n\nUsage:\n"
    "  clawperator wait-for-nav --app <package> --timeout <ms>\n"
    "  clawperator wait-for-nav --text <text> --timeout <ms>\n\n"
    "Example:\n"
    "  clawperator wait-for-nav --app com.google.home --timeout 5000";

CommandResult run_wait_for_nav(const ActionState& state, const GlobalOptions& options) {
  const std::array<std::string_view, 1> app_flag = {"--app"};
  if (auto status = repeated_flag(state.flags.typed(), app_flag); !status)
    return failure(status.error());
  std::optional<std::string> package;
  if (state.flags.contains("--app")) {
    // An empty package would silently drop the filter the caller asked for.
    package = state.flags.value("--app");
    if (!package || trim(*package).empty() || package->rfind("--", 0) == 0) {
      return failure(
          invalid_flags("wait-for-nav --app requires a non-empty package id.\n\nExample:\n"
                        "  clawperator wait-for-nav --app com.android.settings --timeout 5000",
                        "--app"));
    }
  }

  const WaitFlag wait = wait_flag(state.flags, options);
  if (!wait.raw) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        std::string("wait-for-nav requires --timeout <ms>.") + kWaitForNavUsage));
  }
  const auto timeout = contract::parse_milliseconds(*wait.raw);
  if (!timeout || *timeout <= 0) {
    return failure(invalid_flags(
        "wait-for-nav " + wait.flag + " must be a positive number of milliseconds", wait.flag));
  }
  if (*timeout > contract::limits::kMaxWaitForNavigationMs) {
    return failure(
        invalid_flags("wait-for-nav " + wait.flag + " must not exceed 30000ms", wait.flag));
  }

  const SelectorResolution node = resolve_selector(state.flags.typed(), SelectorScope::Element);
  if (!node) return failure(node.error());
  const auto& expected_node = *node;
  if (!package && !expected_node) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        std::string("wait-for-nav requires --app or a selector, and --timeout.") +
            kWaitForNavUsage));
  }
  return execute(service::build_wait_for_navigation(service::make_id_stamp(), package,
                                                    expected_node, *timeout),
                 state, options, wait.timeout);
}

struct ReadValueState : ActionState {
  bool all = false;
};

struct LabelFlag {
  std::string_view flag;
  std::string_view matcher_key;
};

constexpr std::array<LabelFlag, 3> kLabelFlags = {{
    {"--label", "textEquals"},
    {"--label-id", "resourceId"},
    {"--label-desc", "contentDescEquals"},
}};

CommandResult run_read_value(const ReadValueState& state, const GlobalOptions& options) {
  const std::array<std::string_view, 3> names = {"--label", "--label-id", "--label-desc"};
  if (auto status = repeated_flag(state.flags.typed(), names); !status)
    return failure(status.error());
  Json label_matcher = Json::object();
  for (const LabelFlag& label : kLabelFlags) {
    const auto value = state.flags.value(label.flag);
    if (!value) continue;
    if (is_blank(*value)) {
      return failure(invalid_flags(
          "read-value " + std::string(label.flag) + " value must not be empty", label.flag));
    }
    label_matcher[std::string(label.matcher_key)] = *value;
  }
  if (label_matcher.empty()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "read-value requires a label selector.\n\nUsage:\n  clawperator read-value --label <text> "
        "--json\n\nExample:\n  clawperator read-value --label \"Battery\" --json"));
  }
  // The global --timeout overrides the execution timeout, range-checked there.
  return execute(service::build_read_value(service::make_id_stamp(), label_matcher, state.all),
                 state, options, TimeoutOverride::Apply);
}

}  // namespace

void register_element_commands(CommandLine root, std::vector<Command>& commands) {
  auto click_state = std::make_shared<ClickState>();
  CommandLine click =
      add_action_command(root, "click", "Tap the first matching UI element", *click_state);
  click.alias("tap");
  add_element_flags(click, click_state->flags);
  add_container_flags(click, click_state->flags);
  add_strict_flag(click, *click_state);
  add_visual_text_flags(click, click_state->flags);
  click_state->flags
      .add(click, "--coordinate", "<x> <y>", "Tap these screen pixels instead of an element", 2)
      .group(kOptionsGroup);
  click.add_flag("--long", click_state->long_click, "Long press").group(kOptionsGroup);
  click.add_flag("--focus", click_state->focus, "Give the element input focus instead of tapping")
      .group(kOptionsGroup);
  set_footer(click,
             "Notes:\n"
             "  One selector (flags combine with AND) or --coordinate is required.\n\n"
             "Examples:\n"
             "  clawperator click --text \"Wi-Fi\"\n"
             "  clawperator click --id com.example:id/submit --long\n"
             "  clawperator click --coordinate 540 1200\n"
             "  clawperator click --visual-text \"Buy now\"   # text drawn, not in the tree");
  add_command(commands, click, click_state, run_click);

  auto type_state = std::make_shared<TypeState>();
  CommandLine type =
      add_action_command(root, "type", "Type text into the first matching UI element", *type_state);
  type.alias("fill");
  add_positional(type, type_state->text, "text", "The text to type (or --text)");
  type_state->flags
      .add(type, "--text", "<text>", "The text to type (not a selector here; or the positional)")
      .group(kOptionsGroup);
  add_element_flags(type, type_state->flags, false);
  add_container_flags(type, type_state->flags);
  add_strict_flag(type, *type_state);
  type.add_flag("--submit", type_state->submit, "Press Enter after typing").group(kOptionsGroup);
  type.add_flag("--clear", type_state->clear, "Ask to clear the field first (Operator may ignore)")
      .group(kOptionsGroup);
  set_footer(type,
             "Notes:\n"
             "  --text is the text to type; find the field with --id, --desc, --desc-contains,\n"
             "  --role, --text-contains or --selector. A text that starts with '-' follows --.\n\n"
             "Examples:\n"
             "  clawperator type \"hello world\" --role textfield\n"
             "  clawperator type --text \"query\" --id com.example:id/search --submit");
  add_command(commands, type, type_state, run_type);

  auto read_state = std::make_shared<ReadState>();
  CommandLine read =
      add_action_command(root, "read", "Read text from the first matching UI element", *read_state);
  add_element_flags(read, read_state->flags);
  add_container_flags(read, read_state->flags);
  add_strict_flag(read, *read_state);
  add_visual_text_flags(read, read_state->flags);
  read.add_flag("--all", read_state->all, "Read every matching element").group(kOptionsGroup);
  set_footer(read,
             "Examples:\n"
             "  clawperator read --id com.example:id/battery_level\n"
             "  clawperator read --text-contains \"%\" --all");
  add_command(commands, read, read_state, run_read);

  auto wait_state = std::make_shared<ActionState>();
  CommandLine wait =
      add_action_command(root, "wait", "Wait until a matching UI element appears", *wait_state);
  wait_state->flags.add(wait, "--wait", "<ms>", "How long to wait for the element (> 0)")
      .group(kOptionsGroup);
  add_element_flags(wait, wait_state->flags);
  add_container_flags(wait, wait_state->flags);
  add_strict_flag(wait, *wait_state);
  add_visual_text_flags(wait, wait_state->flags);
  set_footer(wait,
             "Notes:\n"
             "  --wait MS is how long to wait for the element; the budget (--timeout) is then\n"
             "  at least 5 s more, 30 s by default. Without --wait, --timeout MS is the wait, as\n"
             "  in the original CLI (kept for compatibility).\n\n"
             "Examples:\n"
             "  clawperator wait --text \"Done\" --wait 10000",
             "the wait + 5 s, at least 30 s");
  add_command(commands, wait, wait_state, run_wait);

  auto nav_state = std::make_shared<ActionState>();
  CommandLine nav = add_action_command(root, "wait-for-nav",
                                       "Wait until an app or a screen is in front", *nav_state);
  nav.alias("wait-for-navigation");
  nav_state->flags.add(nav, "--app", "<package>", "Package expected in the foreground")
      .group(kOptionsGroup);
  nav_state->flags.add(nav, "--wait", "<ms>", "How long to wait (1..30000)").group(kOptionsGroup);
  add_element_flags(nav, nav_state->flags);
  set_footer(nav,
             "Notes:\n"
             "  --app or a selector is required, and --wait MS (1..30000): how long to wait.\n"
             "  The budget (--timeout) is then at least 5 s more, 30 s by default. Without\n"
             "  --wait, --timeout MS is the wait, as in the original CLI (compatibility).\n\n"
             "Examples:\n"
             "  clawperator wait-for-nav --app com.android.settings --wait 5000\n"
             "  clawperator wait-for-nav --text \"Network & internet\" --wait 8000",
             "the wait + 5 s, at least 30 s");
  add_command(commands, nav, nav_state, run_wait_for_nav);

  auto value_state = std::make_shared<ReadValueState>();
  CommandLine value =
      add_action_command(root, "read-value", "Read the value shown beside a label", *value_state);
  value.alias("read-kv");
  value_state->flags.add(value, "--label", "<text>", "Label with this exact text")
      .group("Label selector (combine for AND)");
  value_state->flags.add(value, "--label-id", "<resource-id>", "Label with this resource ID")
      .group("Label selector (combine for AND)");
  value_state->flags.add(value, "--label-desc", "<text>", "Label with this content description")
      .group("Label selector (combine for AND)");
  value.add_flag("--all", value_state->all, "Read every matching pair").group(kOptionsGroup);
  set_footer(value,
             "Examples:\n"
             "  clawperator read-value --label \"Battery\" --json");
  add_command(commands, value, value_state, run_read_value);
}

}  // namespace clawperator::cli::actions
