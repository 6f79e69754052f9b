#include "clawperator/cli/help_text.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <sstream>
#include <vector>

namespace clawperator::cli {
namespace {

// `text` as one block of a help page: one blank line before it unless it is the first, none of
// its own at either end; an empty block adds nothing.
void append_block(std::string& page, std::string text) {
  while (!text.empty() && text.front() == '\n') text.erase(text.begin());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.empty()) return;
  page += (page.empty() ? "" : "\n\n") + text;
}

// The positional that takes a command's action word, when it has one.
const CLI::Option* action_positional(const CLI::App* app) {
  const auto options = app->get_options([](const CLI::Option* option) {
    return option->get_positional() && option->get_name(true, false) == "action";
  });
  return options.empty() ? nullptr : options.front();
}

// The action words its description lists: "a|b|c", "a | b DIR | c", "setup (alias: install)".
std::vector<std::string> actions_of(const CLI::App* app) {
  std::vector<std::string> actions;
  const CLI::Option* option = action_positional(app);
  if (option == nullptr) return actions;
  const std::string& text = option->get_description();
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t bar = std::min(text.find('|', at), text.size());
    std::string_view piece(text.data() + at, bar - at);
    while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
    if (!piece.empty()) actions.emplace_back(piece.substr(0, piece.find_first_of(" (")));
    at = bar + 1;
  }
  if (const std::size_t alias = text.find("alias: "); alias != std::string::npos) {
    const std::size_t start = alias + std::string_view("alias: ").size();
    actions.push_back(text.substr(start, text.find_first_of(" )", start) - start));
  }
  return actions;
}

// The footer with only the examples that use `used` ("clawperator skills run"); an Examples
// block left empty goes.
std::string footer_for_action(const std::string& footer, const std::string& used) {
  std::string out;
  for (std::size_t at = 0; at < footer.size();) {
    const std::size_t end = std::min(footer.find("\n\n", at), footer.size());
    std::string section = footer.substr(at, end - at);
    if (section.rfind("Examples:", 0) == 0) {
      std::string kept;
      std::istringstream lines(section.substr(section.find('\n') + 1));
      for (std::string line; std::getline(lines, line);) {
        const std::size_t found = line.find(used);
        const std::size_t after = found + used.size();
        if (found != std::string::npos && (after == line.size() || line[after] == ' ')) {
          kept += "\n" + line;
        }
      }
      section = kept.empty() ? std::string() : "Examples:" + kept;
    }
    append_block(out, std::move(section));
    at = end + 2;
  }
  return out;
}

// One layout for every command's --help (docs/commands.md "Help"): the usage line with the
// whole command path, the description, the arguments, each option group, the command groups,
// then the footer's sections; exactly one blank line between two blocks.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() {
    column_width(34);
    label("Positionals", "Arguments");
  }

  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    std::string out;
    append_block(out, usage_line(app));
    append_block(out, app->get_description());
    append_block(out, make_positionals(app));
    for (const std::string& group : app->get_groups()) {
      append_block(out, option_group(app, group, mode));
    }
    append_block(out, make_subcommands(app, mode));
    append_block(out, app->get_footer());
    return out + "\n";
  }

  // One action word's page (`skills run --help`): the usage with the word, the family's
  // description, the arguments after the word, the options of every action and those whose
  // description names this one, the examples that use it, then the rest of the footer.
  std::string make_action_help(const CLI::App* app, std::string_view action) const {
    const CLI::Option* action_option = action_positional(app);
    // "Usage: clawperator skills [OPTIONS] [action] [target]" becomes
    // "Usage: clawperator skills run [OPTIONS] [target]".
    const std::string head = "Usage: " + command_path(app);
    std::string rest = usage_line(app).substr(head.size());
    const std::string action_slot = " [" + action_option->get_name(true, false) + "]";
    if (const std::size_t slot = rest.find(action_slot); slot != std::string::npos) {
      rest.erase(slot, action_slot.size());
    }
    std::string out;
    append_block(out, head + " " + std::string(action) + rest);
    append_block(out, app->get_description());
    std::string arguments;
    for (const CLI::Option* opt : app->get_options([&](const CLI::Option* option) {
           return option->get_positional() && !option->get_group().empty() &&
                  option != action_option;
         })) {
      arguments += make_option(opt, true);
    }
    if (!arguments.empty()) append_block(out, get_label("Positionals") + ":\n" + arguments);
    const std::vector<std::string> actions = actions_of(app);
    for (const std::string& group : app->get_groups()) {
      append_block(
          out, option_group(app, group, CLI::AppFormatMode::Normal, [&](const CLI::Option* option) {
            return option_applies_to_action(option->get_description(), action, actions);
          }));
    }
    append_block(
        out, footer_for_action(app->get_footer(), command_path(app) + " " + std::string(action)));
    return out + "\n";
  }

 private:
  // "clawperator mcp serve": the path from the program down.
  static std::string command_path(const CLI::App* app) {
    std::string path;
    for (const CLI::App* at = app; at != nullptr; at = at->get_parent()) {
      path = at->get_name() + (path.empty() ? "" : " " + path);
    }
    return path;
  }

  // "Usage: clawperator mcp serve [OPTIONS] [ARGS] [COMMAND]".
  static std::string usage_line(const CLI::App* app) {
    std::string out = "Usage: " + command_path(app);
    if (!app->get_options([](const CLI::Option* opt) { return opt->nonpositional(); }).empty()) {
      out += " [OPTIONS]";
    }
    // Shown positionals only: a hidden one (group "") collects stray words for an error.
    for (const CLI::Option* opt : app->get_options([](const CLI::Option* option) {
           return option->get_positional() && !option->get_group().empty();
         })) {
      out += " [" + opt->get_name(true, false) + "]";
    }
    const auto named = [](const CLI::App* sub) { return !sub->get_name().empty(); };
    if (!app->get_subcommands(named).empty()) {
      out += app->get_require_subcommand_min() == 0 ? " [COMMAND]" : " COMMAND";
    }
    return out;
  }

  // The options of `group` (those `shown` keeps, when given).
  std::string option_group(const CLI::App* app, const std::string& group, CLI::AppFormatMode mode,
                           const std::function<bool(const CLI::Option*)>& shown = {}) const {
    if (group.empty()) return {};
    std::string out;
    for (const CLI::Option* opt : app->get_options([&](const CLI::Option* option) {
           return option->get_group() == group && option->nonpositional() &&
                  (mode != CLI::AppFormatMode::Sub ||
                   (app->get_help_ptr() != option && app->get_help_all_ptr() != option)) &&
                  (!shown || shown(option));
         })) {
      out += make_option(opt, false);
    }
    return out.empty() ? out : group + ":\n" + out;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> make_help_formatter() {
  return std::make_shared<HelpFormatter>();
}

std::optional<std::string> action_help(const CLI::App& command, std::string_view action) {
  const std::vector<std::string> actions = actions_of(&command);
  if (std::find(actions.begin(), actions.end(), action) == actions.end()) return std::nullopt;
  return HelpFormatter().make_action_help(&command, action);
}

bool option_applies_to_action(std::string_view description, std::string_view action,
                              const std::vector<std::string>& actions) {
  const auto is_action = [&](std::string_view word) {
    return std::find(actions.begin(), actions.end(), word) != actions.end();
  };
  // Segments "ACTION, ACTION …: text" separated by "; "; one whose prefix is not all action
  // words ("Note: …") names none.
  bool names_any = false;
  for (std::size_t at = 0; at <= description.size();) {
    const std::size_t end = std::min(description.find("; ", at), description.size());
    const std::string_view segment = description.substr(at, end - at);
    at = end + 2;
    const std::size_t colon = segment.find(':');
    if (colon == std::string_view::npos) continue;
    std::vector<std::string_view> named;
    for (std::size_t entry = 0; entry < colon;) {
      const std::size_t comma = std::min(segment.find(',', entry), colon);
      std::string_view word = segment.substr(entry, comma - entry);
      while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
      named.push_back(word.substr(0, word.find(' ')));
      entry = comma + 1;
    }
    if (!std::all_of(named.begin(), named.end(), is_action)) continue;
    names_any = true;
    if (std::find(named.begin(), named.end(), action) != named.end()) return true;
  }
  return !names_any;
}

void set_command_footer(CommandLine command, const std::string& sections,
                        const std::optional<std::string>& default_budget) {
  std::string footer = sections;
  if (default_budget) {
    footer += "\n\nBudget:\n  --timeout MS bounds the whole command (default " + *default_budget +
              "); it ends within the budget + 5 s.\n  See docs/commands.md.";
  }
  footer += "\n\n" + std::string(kGlobalOptionsPointer);
  command.app()->footer(footer);
}

std::string_view help_footer() {
  return R"(Output:
  stdout carries exactly one JSON document (compact; --output pretty indents it).
  Diagnostics go to stderr, and every failure prints one line there: clawperator: CODE: message.
  Branch on "code", "disposition" and "details", never on "message".

Exit codes:
  0    success; for checks, the check passed
  1    the device answered and reported a failure; a check failed
  2    usage or validation error; nothing was sent
  3    host, device or Operator not ready, or the device is busy; nothing was sent
  4    outcome unknown: the request may have taken effect and no valid result came back
  70   internal error (a bug); still a JSON error object with code INTERNAL_ERROR
  130  interrupted by SIGINT; 143 terminated by SIGTERM

Environment:
  ANDROID_SERIAL  the device, as --device
  CLAWPERATOR_OPERATOR_PACKAGE  the Operator's package, as --operator-package
  ADB  the adb executable, as --adb
  ADB_PATH  the adb executable when ADB is unset
  CLAWPERATOR_LOG_LEVEL  debug, info, warn or error, as --log-level
  CLAWPERATOR_LOG_DIR  the log directory (default ~/.clawperator/logs)
  CLAWPERATOR_STATE_DIR  the private directory of device locks and readiness records
  CLAWPERATOR_RESULT_TRANSPORT  logcat, direct or auto, as --result-transport
  CLAWPERATOR_ADB_RELAY  off: the logcat reader talks to the adb server directly, not through
      the in-process relay that avoids its 40 ms delayed ACKs, and every adb call is an adb
      process (docs/wire-protocol.md §6.3, §2.7)
  CLAWPERATOR_SERVE_TOKEN  serve: the bearer token, as --token
  CLAWPERATOR_OPERATOR_METADATA_URL  operator install: the release metadata, as --metadata-url
      (also the original's CLAWPERATOR_APK_METADATA_URL; docs/operator.md)
  CLAWPERATOR_DOWNLOAD_STALL_MS, CLAWPERATOR_DOWNLOAD_MAX_BYTES  operator install: how long a
      download may receive nothing (30000), the largest APK taken (268435456)
  CURL_CA_BUNDLE, https_proxy, no_proxy  operator install: the certificate authorities and
      proxies, as curl reads them
  ADB_SERVER_SOCKET  the adb server (tcp:HOST:PORT), as adb reads it; --adb-server overrides
  ANDROID_ADB_SERVER_ADDRESS  the adb server's host, as adb reads it
  ANDROID_ADB_SERVER_PORT  the adb server's port, as adb reads it
  XDG_RUNTIME_DIR  the state directory's parent
  TMPDIR  the state directory's parent when XDG_RUNTIME_DIR is unset (else /tmp)
  XDG_STATE_HOME  the fallback state directory's parent (else ~/.local/state)
  HOME  what ~ means (else the home of the passwd entry)

Files:
  ~/.clawperator/logs/  one log file a day (clawperator logs); the payload is never logged
  $XDG_RUNTIME_DIR/clawperator/  the state directory (else $TMPDIR/clawperator-UID), mode
      0700: device-*.lock (one execution per device), ready-device-*.lock (30 s readiness)
  $XDG_STATE_HOME/clawperator/  the fallback when the state directory is unsafe
  ~/.clawperator/downloads/  operator install: operator-vX.Y.Z.apk, checked, mode 0700

Examples:
  clawperator devices
  clawperator snapshot --compact
  clawperator click --text "Network & internet" --timeout 10000
  clawperator exec examples/demo-snapshot-click.json
  clawperator-vdevice with -- clawperator doctor

Run 'clawperator errors' for the catalog of error codes.
)";
}

}  // namespace clawperator::cli
