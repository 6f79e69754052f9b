#include "clawperator/cli/help_text.hpp"

#include <CLI/CLI.hpp>

namespace clawperator::cli {
namespace {

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
    auto block = [&out](std::string text) {
      while (!text.empty() && text.front() == '\n') text.erase(text.begin());
      while (!text.empty() && text.back() == '\n') text.pop_back();
      if (text.empty()) return;
      out += (out.empty() ? "" : "\n\n") + text;
    };
    block(usage_line(app));
    block(app->get_description());
    block(make_positionals(app));
    for (const std::string& group : app->get_groups()) block(option_group(app, group, mode));
    block(make_subcommands(app, mode));
    block(app->get_footer());
    return out + "\n";
  }

 private:
  // "Usage: clawperator mcp serve [OPTIONS] [ARGS] [COMMAND]": the path from the program down.
  static std::string usage_line(const CLI::App* app) {
    std::string path;
    for (const CLI::App* at = app; at != nullptr; at = at->get_parent()) {
      path = at->get_name() + (path.empty() ? "" : " " + path);
    }
    std::string out = "Usage: " + path;
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

  std::string option_group(const CLI::App* app, const std::string& group,
                           CLI::AppFormatMode mode) const {
    if (group.empty()) return {};
    std::string out;
    for (const CLI::Option* opt : app->get_options([&](const CLI::Option* option) {
           return option->get_group() == group && option->nonpositional() &&
                  (mode != CLI::AppFormatMode::Sub ||
                   (app->get_help_ptr() != option && app->get_help_all_ptr() != option));
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
      the in-process relay that avoids its 40 ms delayed ACKs (docs/wire-protocol.md §6.3)
  CLAWPERATOR_SERVE_TOKEN  serve: the bearer token, as --token
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
