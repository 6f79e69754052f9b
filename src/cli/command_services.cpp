// `notifications list|dismiss|action`, `media list|status|observe|play|pause|seek` and
// `on-screen-log set|clear` (docs/payload.md §8–9): each word builds one action of its row
// from the flags that word takes, and runs it through exec like every device action.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/service/actions.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

constexpr double kDefaultTimeoutMs = 30000;

enum class Value : std::uint8_t { Text, Number };

// A flag, the param it fills and how its value is read.
struct FlagSpec {
  std::string_view flag;
  std::string_view key;
  Value value;
  std::string_view value_name;
  std::string_view description;
};

// One word of a command: the row it builds and the flags it takes.
struct WordSpec {
  std::string_view word;
  contract::ActionType type;
  std::span<const std::string_view> flags;
  // The flag the word's one argument stands for: `notifications dismiss <key>` (--key),
  // `on-screen-log set <text>` (--text); empty: the word takes no argument.
  std::string_view positional = {};
  bool observe = false;  // the budget follows --duration-ms
};

struct CommandSpec {
  std::string_view name;
  std::string_view description;
  std::span<const FlagSpec> flags;
  std::span<const WordSpec> words;
  std::string_view footer;
  std::string_view argument_description = {};  // of the words' one argument, when some take one
};

constexpr std::array<FlagSpec, 10> kServiceFlags = {{
    {"--app", "applicationId", Value::Text, "<package>",
     "The app (media: only when it has exactly one session)"},
    {"--session", "mediaSessionId", Value::Text, "<id>", "Media session id (from media list)"},
    {"--limit", "limit", Value::Number, "<n>", "Most entries to return (1..100, default 25)"},
    {"--max-text-chars", "maxTextChars", Value::Number, "<n>",
     "Longest text per field (1..1024, default 256)"},
    {"--wait-timeout-ms", "waitTimeoutMs", Value::Number, "<ms>",
     "Wait this long for the change to show (0..30000, default 0)"},
    {"--action", "actionId", Value::Text, "<id>", "The notification action id (from list)"},
    {"--duration-ms", "durationMs", Value::Number, "<ms>", "How long to observe (1..30000)"},
    {"--position-ms", "positionMs", Value::Number, "<ms>", "Where to seek to"},
    {"--position-tolerance-ms", "positionToleranceMs", Value::Number, "<ms>",
     "How close counts as reached (0..60000, default 1000)"},
    {"--key", "notificationKey", Value::Text, "<key>", "The notification key (or the argument)"},
}};

constexpr std::array<std::string_view, 3> kListFlags = {"--app", "--limit", "--max-text-chars"};
constexpr std::array<std::string_view, 2> kDismissFlags = {"--key", "--wait-timeout-ms"};
constexpr std::array<std::string_view, 2> kActionFlags = {"--key", "--action"};
constexpr std::array<std::string_view, 2> kTargetFlags = {"--app", "--session"};
constexpr std::array<std::string_view, 3> kObserveFlags = {"--app", "--session", "--duration-ms"};
constexpr std::array<std::string_view, 3> kControlFlags = {"--app", "--session",
                                                           "--wait-timeout-ms"};
constexpr std::array<std::string_view, 5> kSeekFlags = {
    "--app", "--session", "--position-ms", "--wait-timeout-ms", "--position-tolerance-ms"};

constexpr std::array<WordSpec, 3> kNotificationWords = {{
    {"list", contract::ActionType::ListNotifications, kListFlags},
    {"dismiss", contract::ActionType::DismissNotification, kDismissFlags, "--key"},
    {"action", contract::ActionType::InvokeNotificationAction, kActionFlags, "--key"},
}};
constexpr std::array<WordSpec, 6> kMediaWords = {{
    {"list", contract::ActionType::ListMediaSessions, kListFlags},
    {"status", contract::ActionType::GetMediaStatus, kTargetFlags},
    {"observe", contract::ActionType::ObserveMedia, kObserveFlags, {}, true},
    {"play", contract::ActionType::MediaPlay, kControlFlags},
    {"pause", contract::ActionType::MediaPause, kControlFlags},
    {"seek", contract::ActionType::MediaSeek, kSeekFlags},
}};

constexpr std::array<FlagSpec, 11> kPanelFlags = {{
    {"--text", "text", Value::Text, "<text>", "Text to show, as written"},
    {"--template", "template", Value::Text, "<template>",
     "Text with {{placeholders}} the device fills in"},
    {"--anchor", "anchor", Value::Text, "<left|right>", "The edge the panel sits at"},
    {"--text-align", "textAlign", Value::Text, "<left|right>", "Text alignment"},
    {"--top-offset-dp", "topOffsetDp", Value::Number, "<dp>", "Distance from the top (0..1000)"},
    {"--edge-offset-dp", "edgeOffsetDp", Value::Number, "<dp>", "Distance from the edge (0..1000)"},
    {"--width-dp", "widthDp", Value::Number, "<dp>", "Width (80..600)"},
    {"--font-size-sp", "fontSizeSp", Value::Number, "<sp>", "Text size (8..24)"},
    {"--text-color", "textColor", Value::Text, "<#RRGGBB>", "#RRGGBB or #AARRGGBB"},
    {"--background-color", "backgroundColor", Value::Text, "<#AARRGGBB>", "#RRGGBB or #AARRGGBB"},
    {"--ttl-ms", "ttlMs", Value::Number, "<ms>", "How long it stays (1000..3600000)"},
}};
constexpr std::array<std::string_view, 11> kPanelSetFlags = {
    "--text",          "--template",         "--anchor",   "--text-align",
    "--top-offset-dp", "--edge-offset-dp",   "--width-dp", "--font-size-sp",
    "--text-color",    "--background-color", "--ttl-ms"};
constexpr std::array<WordSpec, 2> kPanelWords = {{
    {"set", contract::ActionType::SetOnScreenLog, kPanelSetFlags, "--text"},
    {"clear", contract::ActionType::ClearOnScreenLog, {}},
}};

constexpr std::array<CommandSpec, 3> kCommands = {{
    {"notifications", "List, dismiss or act on the device's notifications", kServiceFlags,
     kNotificationWords,
     "Words:\n"
     "  list [--app <pkg>] [--limit N] [--max-text-chars N]\n"
     "  dismiss <key> [--wait-timeout-ms N]\n"
     "  action <key> --action <id>\n\n"
     "Notes:\n"
     "  list runs without waking or unlocking the screen; dismiss and action need it.\n\n"
     "Examples:\n"
     "  clawperator notifications list --app com.example.chat\n"
     "  clawperator notifications action '0|com.example.chat|7|null|10123' --action reply",
     "The notification key (dismiss, action)"},
    {"media", "Read, observe and control the device's media sessions", kServiceFlags, kMediaWords,
     "Words:\n"
     "  list [--app <pkg>]\n"
     "  status --session <id> | --app <pkg>\n"
     "  observe --session <id> | --app <pkg> --duration-ms N\n"
     "  play|pause --session <id> | --app <pkg> [--wait-timeout-ms N]\n"
     "  seek --session <id> | --app <pkg> --position-ms N [--wait-timeout-ms N]\n"
     "       [--position-tolerance-ms N]\n\n"
     "Notes:\n"
     "  Runs screen-off and locked (no wake); the user must have unlocked once since boot.\n"
     "  --app works only when the app has exactly one session (else MEDIA_SESSION_AMBIGUOUS).\n"
     "  observe budgets --duration-ms + 10000 ms.\n\n"
     "Examples:\n"
     "  clawperator media list\n"
     "  clawperator media seek --session 7f3a --position-ms 60000 --wait-timeout-ms 3000"},
    {"on-screen-log", "Show or clear the Operator's log panel on the screen", kPanelFlags,
     kPanelWords,
     "Words:\n"
     "  set (T | --text T | --template T) [--anchor left|right] [--text-align left|right]\n"
     "      [--top-offset-dp N] [--edge-offset-dp N] [--width-dp N] [--font-size-sp N]\n"
     "      [--text-color C] [--background-color C] [--ttl-ms N]\n"
     "  clear\n\n"
     "Notes:\n"
     "  Templates take {{foreground_app.package_name}}, {{device.model}}, ... (docs/payload.md\n"
     "  §9); write {{{{ and }}}} for literal braces. Numbers are whole JSON numbers.\n\n"
     "Examples:\n"
     "  clawperator on-screen-log set --template 'CI run 42 on {{device.model}}'\n"
     "  clawperator on-screen-log set -- '--- build 42 ---'\n"
     "  clawperator on-screen-log clear",
     "The text to show (set; or --text)"},
}};

struct ServiceState : ActionState {
  std::string word;
  std::vector<std::string> arguments;
};

std::string words_of(std::string_view command) {
  std::string out;
  for (const std::string_view word : action_words(command)) {
    out += (out.empty() ? "" : ", ") + std::string(word);
  }
  return out;
}

// A whole JSON number token ("12", "12.0", "1e3"); anything else is not a number here.
std::optional<Json> number_token(const std::string& text) {
  const Json value = parse_json(text);
  if (value.is_discarded() || !value.is_number() || !std::isfinite(value.get<double>())) {
    return std::nullopt;
  }
  // 1e3 and 12.0 are the integers they name: the device gets 1000 and 12.
  const double number = value.get<double>();
  if (std::floor(number) == number && std::fabs(number) <= 9007199254740992.0) {
    return Json(static_cast<long long>(number));
  }
  return value;
}

CommandResult run_service(const CommandSpec& command, const ServiceState& state,
                          const GlobalOptions& options) {
  const std::string name(command.name);
  const WordSpec* word = nullptr;
  for (const WordSpec& candidate : command.words) {
    if (candidate.word == state.word) word = &candidate;
  }
  if (word == nullptr) {
    contract::HostError error =
        usage(state.word.empty()
                  ? name + " requires a word: " + words_of(name)
                  : "Unknown " + name + " word: " + state.word + ". Use: " + words_of(name));
    if (!state.word.empty()) error.details["argument"] = state.word;
    return failure(error);
  }
  const std::string full = name + " " + std::string(word->word);
  const std::size_t positionals = word->positional.empty() ? 0 : 1;
  // "key" for --key, "text" for --text.
  const std::string noun(
      word->positional.substr(std::min<std::size_t>(2, word->positional.size())));
  if (state.arguments.size() > positionals) {
    contract::HostError error =
        usage(full + " takes " + (positionals == 0 ? "no argument" : "one argument, the " + noun) +
              "; got " + state.arguments[positionals]);
    error.details["argument"] = state.arguments[positionals];
    return failure(error);
  }
  Json params = Json::object();
  if (positionals == 1 && !state.arguments.empty()) {
    const std::string flag(word->positional);
    if (state.flags.contains(flag)) {
      return failure(
          usage(full + " takes the " + noun + " once: as the argument or as " + flag, flag));
    }
    const auto spec =
        std::find_if(command.flags.begin(), command.flags.end(),
                     [&](const FlagSpec& candidate) { return candidate.flag == flag; });
    params[std::string(spec->key)] = state.arguments.front();
  }
  for (const FlagSpec& flag : command.flags) {
    if (!state.flags.contains(flag.flag)) continue;
    const std::string flag_name(flag.flag);
    if (std::find(word->flags.begin(), word->flags.end(), flag.flag) == word->flags.end()) {
      return failure(usage(flag_name + " does not apply to " + full, flag.flag));
    }
    const std::array<std::string_view, 1> once = {flag.flag};
    if (auto status = repeated_flag(state.flags.typed(), once); !status)
      return failure(status.error());
    const std::optional<std::string> value = state.flags.value(flag.flag);
    if (!value) return failure(usage(flag_name + " requires a value", flag.flag));
    if (flag.value == Value::Text) {
      params[std::string(flag.key)] = *value;
    } else if (auto number = number_token(*value)) {
      params[std::string(flag.key)] = std::move(*number);
    } else {
      return failure(usage(
          flag_name + " takes a whole JSON number (e.g. 1000 or 1e3), got " + *value, flag.flag));
    }
  }
  double timeout_ms = kDefaultTimeoutMs;
  if (word->observe && params.contains("durationMs")) {
    timeout_ms = service::observe_timeout_ms(params["durationMs"].get<double>());
  }
  return execute(service::build_service_action(command.name, word->word, service::make_id_stamp(),
                                               word->type, std::move(params), timeout_ms),
                 state, options, TimeoutOverride::Apply);
}

}  // namespace

void register_service_commands(CommandLine root, std::vector<Command>& commands) {
  for (const CommandSpec& spec : kCommands) {
    auto state = std::make_shared<ServiceState>();
    CommandLine app =
        add_action_command(root, std::string(spec.name), std::string(spec.description), *state);
    app.add_option("word", state->word, words_of(spec.name));
    // Collected for every command so that a stray argument is a USAGE error, not a CLI11 one;
    // shown only where a word takes one.
    const bool takes_one =
        std::any_of(spec.words.begin(), spec.words.end(),
                    [](const WordSpec& word) { return !word.positional.empty(); });
    OptionLine arguments =
        app.add_option("arguments", state->arguments, std::string(spec.argument_description));
    if (!takes_one) arguments.group("");
    for (const FlagSpec& flag : spec.flags) {
      // Only the flags some word of this command takes (media has no --key, notifications no
      // --position-ms); the others stay unknown options.
      const bool used = std::any_of(spec.words.begin(), spec.words.end(), [&](const WordSpec& w) {
        return std::find(w.flags.begin(), w.flags.end(), flag.flag) != w.flags.end();
      });
      if (!used) continue;
      state->flags
          .add(app, std::string(flag.flag), std::string(flag.value_name),
               std::string(flag.description))
          .group(kOptionsGroup);
    }
    set_footer(app, std::string(spec.footer));
    const CommandSpec* command = &spec;
    add_command(commands, app, state,
                [command](const ServiceState& current, const GlobalOptions& options) {
                  return run_service(*command, current, options);
                });
  }
}

}  // namespace clawperator::cli::actions
