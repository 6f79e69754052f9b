// The commands that move around the device: open, press, back, close, sleep,
// scroll, scroll-until and scroll-and-click.
#include <algorithm>
#include <array>
#include <memory>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/text.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

using contract::HostError;

constexpr std::array<std::string_view, 4> kDirections = {"down", "up", "left", "right"};
constexpr const char* kDirectionList = "down, up, left, right";

bool is_direction(std::string_view direction) {
  return std::find(kDirections.begin(), kDirections.end(), direction) != kDirections.end();
}

// A command whose one argument is a positional or a flag (open --app, press --key, ...).
struct TargetState : ActionState {
  Positional positional;
};

// The value of `flag` or the positional; the original's "not both" error when both
// are given. A flag typed without a value counts as absent, as in the original.
contract::Outcome<std::string> positional_or_flag(const TargetState& state, std::string_view flag,
                                                  const std::string& conflict) {
  const std::array<std::string_view, 1> names = {flag};
  CLAWPERATOR_TRY(repeated_flag(state.flags.typed(), names));
  const std::optional<std::string> flag_value = state.flags.value(flag);
  if (flag_value && state.positional.given()) return contract::failed(invalid_flags(conflict));
  return flag_value.value_or(state.positional.value);
}

CommandResult run_open(const TargetState& state, const GlobalOptions& options) {
  const auto target = positional_or_flag(
      state, "--app",
      "open: pass the target as a positional argument or via --app, not both.\n\n"
      "See: clawperator open --help");
  if (!target) return failure(target.error());
  const std::string& value = *target;
  if (trim(value).empty()) {
    return failure(
        contract::usage_error("MISSING_ARGUMENT",
                              "open requires a target.\n\nUsage:\n"
                              "  clawperator open <package-id>       Open an Android app\n"
                              "  clawperator open <url>              Open a URL in browser\n"
                              "  clawperator open <uri>              Open a deep link\n\n"
                              "Examples:\n  clawperator open com.android.settings\n"
                              "  clawperator open https://example.com"));
  }
  return execute(service::build_open(service::make_id_stamp(), value), state, options);
}

CommandResult run_press(const TargetState& state, const GlobalOptions& options) {
  const auto key =
      positional_or_flag(state, "--key",
                         "press: pass the key as a positional argument or via --key, not both.\n\n"
                         "See: clawperator press --help");
  if (!key) return failure(key.error());
  const std::string& value = *key;
  // Which keys exist is the payload validator's call.
  if (value.empty()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "press requires a key name.\n\nValid keys: back, home, recents\n\nExample:\n"
        "  clawperator press back"));
  }
  return execute(service::build_press_key(service::make_id_stamp(), value), state, options);
}

CommandResult run_back(const ActionState& state, const GlobalOptions& options) {
  return execute(service::build_press_key(service::make_id_stamp(), "back"), state, options);
}

CommandResult run_close(const TargetState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const auto package = positional_or_flag(
      state, "--app",
      "close: pass the package as a positional argument or via --app, not both.\n\n"
      "See: clawperator close --help");
  if (!package) return failure(package.error());
  const std::string& value = *package;
  if (trim(value).empty()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "close requires a package name.\n\nUsage:\n  clawperator close <package>\n"
        "  clawperator close --app <package>\n\nExamples:\n"
        "  clawperator close com.android.settings\n"
        "  clawperator close com.google.android.apps.chromecast.app --json"));
  }
  return execute(service::build_close(service::make_id_stamp(), value, *timeout), state, options);
}

CommandResult run_sleep(const TargetState& state, const GlobalOptions& options) {
  const std::string& text = state.positional.value;
  if (text.empty()) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        "sleep requires a duration in milliseconds.\n\nUsage:\n  clawperator sleep <ms>\n\n"
        "Example:\n  clawperator sleep 2000"));
  }
  const auto duration = contract::parse_milliseconds(text);
  if (!duration || *duration < 0) {
    return failure(invalid_flags("Duration must be a non-negative number (got: " + text + ")"));
  }
  if (*duration > contract::limits::kMaxSleepMs) {
    return failure(invalid_flags("Duration must be <= 120000ms (got: " +
                                 dump_json(service::milliseconds_json(*duration)) + "ms)"));
  }
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  return execute(service::build_sleep(service::make_id_stamp(), *duration, *timeout), state,
                 options);
}

CommandResult run_scroll(const TargetState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const auto direction = positional_or_flag(
      state, "--direction",
      "scroll: pass direction as a positional argument or via --direction, not both.\n\n"
      "See: clawperator scroll --help");
  if (!direction) return failure(direction.error());
  const std::string& value = *direction;
  if (!value.empty() && !is_direction(value)) {
    // A direction was given: saying it is missing would send the user looking for the wrong fix.
    return failure(invalid_flags("Invalid scroll direction '" + value +
                                     "'.\n\nValid directions: " + kDirectionList +
                                     "\n\nExamples:\n  clawperator scroll down\n"
                                     "  clawperator scroll up",
                                 "--direction"));
  }
  if (!is_direction(value)) {
    return failure(contract::usage_error(
        "MISSING_ARGUMENT",
        std::string("scroll requires a direction.\n\nValid directions: ") + kDirectionList +
            "\n\nExamples:\n  clawperator scroll down\n  clawperator scroll up"));
  }
  const SelectorResolution container =
      resolve_selector(state.flags.typed(), SelectorScope::Container);
  if (!container) return failure(container.error());
  return execute(service::build_scroll(service::make_id_stamp(), value, *container, *timeout),
                 state, options);
}

struct ScrollUntilState : TargetState {
  std::string command;       // as named in messages: scroll-until or scroll-and-click
  bool click_after = false;  // --click, always for scroll-and-click
};

CommandResult run_scroll_until(const ScrollUntilState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const TypedFlags& typed = state.flags.typed();
  if (!has_selector_flag(typed, SelectorScope::Element)) {
    return failure(missing_selector(state.command, SelectorChoices::Standard));
  }

  const std::array<std::string_view, 1> direction_flag = {"--direction"};
  if (auto status = repeated_flag(typed, direction_flag); !status) return failure(status.error());
  std::optional<std::string> flag_direction;
  if (state.flags.contains("--direction")) {
    flag_direction = state.flags.value("--direction");
    if (!flag_direction || flag_direction->rfind('-', 0) == 0) {
      return failure(invalid_flags(state.command + " --direction requires a value.\n\nSee: " +
                                       "clawperator " + state.command + " --help",
                                   "--direction"));
    }
    if (state.positional.given()) {
      return failure(invalid_flags(
          state.command +
          ": pass direction as a positional argument or via --direction, not both.\n\nSee: "
          "clawperator " +
          state.command + " --help"));
    }
  }
  service::ScrollUntilRequest request;
  if (flag_direction) {
    request.direction = *flag_direction;
  } else if (state.positional.given()) {
    request.direction = state.positional.value;
  }
  if (!is_direction(request.direction)) {
    // Given and invalid, not missing: the code of scroll's (and of the payload's) invalid
    // direction, not the original's MISSING_ARGUMENT (docs/compatibility.md).
    return failure(invalid_flags(
        "Invalid direction: " + request.direction + ". Valid directions: " + kDirectionList,
        "--direction"));
  }

  const SelectorResolution element = resolve_selector(typed, SelectorScope::Element);
  if (!element) return failure(element.error());
  const SelectorResolution container = resolve_selector(typed, SelectorScope::Container);
  if (!container) return failure(container.error());
  request.matcher = **element;
  request.container = *container;
  request.click_after = state.click_after;
  request.timeout_ms = *timeout;
  return execute(service::build_scroll_until(service::make_id_stamp(), request), state, options);
}

void register_scroll_until(CommandLine root, std::vector<Command>& commands, bool click) {
  auto state = std::make_shared<ScrollUntilState>();
  state->command = click ? "scroll-and-click" : "scroll-until";
  state->click_after = click;
  CommandLine app = add_action_command(root, state->command,
                                       click ? "Scroll until an element is visible, then click it"
                                             : "Scroll until an element is visible",
                                       *state);
  add_positional(app, state->positional, "direction",
                 "down (default), up, left or right (or --direction)");
  state->flags.add(app, "--direction", "<direction>", "down (default), up, left or right")
      .group(kOptionsGroup);
  if (!click) {
    app.add_flag("--click", state->click_after,
                 "Click the element once visible (a scroll_and_click action)")
        .group(kOptionsGroup);
  }
  add_element_flags(app, state->flags);
  add_container_flags(app, state->flags);
  add_strict_flag(app, *state);
  const std::string example = "\n  clawperator " + state->command;
  set_footer(app,
             "Notes:\n"
             "  A selector is required. Tuning (maxScrolls, ...) is available through exec.\n\n"
             "Examples:" +
                 example + " --text \"About phone\"" + example +
                 " up --text \"Settings\" --container-id com.foo:id/list");
  add_command(commands, app, state, run_scroll_until);
}

}  // namespace

void register_navigation_commands(CommandLine root, std::vector<Command>& commands) {
  auto open_state = std::make_shared<TargetState>();
  CommandLine open =
      add_action_command(root, "open", "Open an app, a URL or a deep link", *open_state);
  open.alias("open-uri");
  open.alias("open-url");
  add_positional(open, open_state->positional, "target",
                 "Package id, or a URI with scheme:// (or --app)");
  open_state->flags.add(open, "--app", "<target>", "Same as the positional target")
      .group(kOptionsGroup);
  set_footer(open,
             "Notes:\n"
             "  A target starting with scheme: (tel:123, mailto:a@b.c) or holding scheme:// opens\n"
             "  as a URI (open_uri); anything else as a package (open_app).\n\n"
             "Examples:\n"
             "  clawperator open com.android.settings\n"
             "  clawperator open https://example.com\n"
             "  clawperator open tel:123",
             "15 s");
  add_command(commands, open, open_state, run_open);

  auto press_state = std::make_shared<TargetState>();
  CommandLine press =
      add_action_command(root, "press", "Press a key: back, home or recents", *press_state);
  press.alias("press-key");
  add_positional(press, press_state->positional, "key", "back, home or recents (or --key)");
  press_state->flags.add(press, "--key", "<key>", "Same as the positional key")
      .group(kOptionsGroup);
  set_footer(press,
             "Examples:\n"
             "  clawperator press home",
             "10 s");
  add_command(commands, press, press_state, run_press);

  auto back_state = std::make_shared<ActionState>();
  CommandLine back = add_action_command(root, "back", "Press the back key", *back_state);
  set_footer(back,
             "Notes:\n"
             "  Same as 'clawperator press back'.\n\n"
             "Examples:\n"
             "  clawperator back --device emulator-5554",
             "10 s");
  add_command(commands, back, back_state, run_back);

  auto close_state = std::make_shared<TargetState>();
  CommandLine close = add_action_command(root, "close", "Force-stop an application", *close_state);
  close.alias("close-app");
  add_positional(close, close_state->positional, "package", "Package id (or --app)");
  close_state->flags.add(close, "--app", "<package>", "Same as the positional package")
      .group(kOptionsGroup);
  set_footer(close,
             "Examples:\n"
             "  clawperator close com.android.settings");
  add_command(commands, close, close_state, run_close);

  auto sleep_state = std::make_shared<TargetState>();
  CommandLine sleep = add_action_command(root, "sleep", "Pause on the device", *sleep_state);
  add_positional(sleep, sleep_state->positional, "ms", "Duration in milliseconds (0..120000)");
  set_footer(sleep,
             "Notes:\n"
             "  A --timeout shorter than the sleep ends it with RESULT_ENVELOPE_TIMEOUT.\n\n"
             "Examples:\n"
             "  clawperator sleep 2000",
             "MS + 5 s, at least 30 s");
  add_command(commands, sleep, sleep_state, run_sleep);

  auto scroll_state = std::make_shared<TargetState>();
  CommandLine scroll =
      add_action_command(root, "scroll", "Scroll once in a direction", *scroll_state);
  add_positional(scroll, scroll_state->positional, "direction",
                 "down, up, left or right (or --direction)");
  scroll_state->flags.add(scroll, "--direction", "<direction>", "Same as the positional")
      .group(kOptionsGroup);
  add_container_flags(scroll, scroll_state->flags);
  add_strict_flag(scroll, *scroll_state);
  set_footer(scroll,
             "Notes:\n"
             "  Without container flags the default scrollable container scrolls.\n\n"
             "Examples:\n"
             "  clawperator scroll down\n"
             "  clawperator scroll up --container-id com.example:id/list");
  add_command(commands, scroll, scroll_state, run_scroll);

  register_scroll_until(root, commands, false);
  register_scroll_until(root, commands, true);
}

}  // namespace clawperator::cli::actions
