#include "clawperator/cli/read_command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string_view>

#include "clawperator/cli/app.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/retired_commands.hpp"
#include "clawperator/cli/serve_command.hpp"
#include "clawperator/path_values.hpp"
#include "clawperator/suggest.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

const std::vector<std::string> kGlobalFlags = {
    "--device",  "--device-id", "--operator-package", "--receiver-package", "--json",
    "--output",  "--format",    "--timeout",          "--timeout-ms",       "--log-level",
    "--verbose", "--adb",       "--adb-server",       "--lock-wait",        "--result-transport",
    "--policy",  "--confirm",   "--report",           "--report-append",    "--help",
    "--version",
};

void add_global_options(CLI::App& app, RawGlobalFlags& flags) {
  app.add_option("--device,--device-id", flags.device,
                 "Target adb serial (default: $ANDROID_SERIAL, else the only device)")
      ->group("Global options");
  app.add_option("--operator-package,--receiver-package", flags.operator_package,
                 "Operator package (default: $CLAWPERATOR_OPERATOR_PACKAGE, else " +
                     std::string(kDefaultOperatorPackage) + ")")
      ->group("Global options");
  app.add_flag("--json", flags.json, "Compact JSON output (the default)")->group("Global options");
  app.add_option("--output,--format", flags.output, "Output format: json (default) or pretty")
      ->group("Global options");
  app.add_option("--timeout,--timeout-ms", flags.timeout,
                 "Budget of a device command in ms (1000..120000): its timeoutMs; it ends within "
                 "the budget + 5 s")
      ->group("Global options");
  app.add_option("--log-level", flags.log_level,
                 "debug, info, warn or error (default: $CLAWPERATOR_LOG_LEVEL, else info)")
      ->group("Global options");
  app.add_flag("--verbose", flags.verbose, "More diagnostics on stderr")->group("Global options");
  app.add_option("--adb", flags.adb, "adb executable (default: $ADB, else $ADB_PATH, else adb)")
      ->type_name(std::string(kFileValue))
      ->group("Global options");
  app.add_option("--adb-server", flags.adb_server,
                 "Use the adb server at HOST:PORT (passes -H HOST -P PORT to adb)")
      ->group("Global options");
  app.add_option("--lock-wait", flags.lock_wait,
                 "Wait up to MS for a device busy with another execution (default 0)")
      ->group("Global options");
  app.add_option("--result-transport", flags.result_transport,
                 "How results come back: logcat (default), direct or auto "
                 "(default: $CLAWPERATOR_RESULT_TRANSPORT, else logcat)")
      ->group("Global options");
  app.add_flag("--require-authentic-result", flags.require_authentic_result,
               "Refuse before dispatch unless the result can be proven the Operator's own "
               "(default: $CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT; docs/guardrails.md)")
      ->group("Global options");
  app.add_option("--policy", flags.policy,
                 "Action policy file: deny or confirm risky steps (default: $CLAWPERATOR_POLICY, "
                 "else ~/.config/clawperator/policy.json when present; docs/guardrails.md)")
      ->type_name(std::string(kFileValue))
      ->group("Global options");
  app.add_option("--confirm", flags.confirm,
                 "The approval id a CONFIRMATION_REQUIRED gave: runs the identical call once, "
                 "after a person approved it (clawperator approve ID)")
      ->group("Global options");
  app.add_option("--report", flags.report,
                 "Also write a report of the run for CI: junit=FILE (JUnit XML) or tap=FILE "
                 "(TAP 13); exec, the device commands and skills run (docs/commands.md)")
      ->group("Global options");
  app.add_flag("--report-append", flags.report_append,
               "Add this run's report to the runs already in the --report file instead of "
               "replacing it")
      ->group("Global options");
  static const std::string kVersionHelp = "Print the version and exit";
  app.add_flag("--version", kVersionHelp)->group("Global options");
}

std::vector<std::string> command_names(const std::vector<Command>& commands) {
  std::vector<std::string> names;
  for (const Command& command : commands) names.push_back(command.app->get_name());
  for (const Command& command : commands) {
    for (const std::string& alias : command.app->get_aliases()) names.push_back(alias);
  }
  return names;
}

bool is_command_word(std::string_view word, const std::vector<Command>& commands) {
  return std::any_of(commands.begin(), commands.end(), [&](const Command& command) {
    return command.app->check_name(std::string(word));
  });
}

// The words of the command line before `--` that are neither a flag nor the value of a global
// option: the command word (or what a user typed in its place) first, then the word after it.
std::vector<std::string> command_words(const CLI::App& app, int options_end,
                                       const char* const* argv) {
  std::vector<std::string> words;
  for (int i = 1; i < options_end && words.size() < 2; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("-", 0) != 0) {
      words.emplace_back(arg);
      continue;
    }
    const CLI::Option* option = arg.find('=') == std::string_view::npos
                                    ? app.get_option_no_throw(std::string(arg))
                                    : nullptr;
    if (option != nullptr && option->get_type_size_max() > 0) ++i;  // skip its value
  }
  return words;
}

// Help for `WORD --help` and `help WORD`: the command's, operator setup's for the original's
// `setup` and `install`, a nested command's (`mcp serve`: `next` names it) or its family's
// (`mcp`), else the overview (an unknown word, `observe snapshot`).
const CLI::App* help_topic(std::string_view word, const CLI::App& app,
                           const std::vector<Command>& commands, std::string_view next = {}) {
  const std::string wanted = names_operator_setup(word) ? "operator" : std::string(word);
  const CLI::App* family = nullptr;
  for (const Command& command : commands) {
    if (command.app->check_name(wanted)) return command.app;
    const CLI::App* parent = command.app->get_parent();
    if (parent != nullptr && parent != &app && parent->check_name(wanted)) {
      if (!next.empty() && command.app->check_name(std::string(next))) return command.app;
      family = parent;
    }
  }
  return family != nullptr ? family : &app;
}

// The help of `topic` (help_topic of `word`): an action word's own page when `action` is one
// of its words (`skills run --help`), operator setup's for the original's `setup` and
// `install`, else the topic's.
std::string help_page(const CLI::App& topic, std::string_view word, std::string_view action) {
  if (names_operator_setup(word)) action = "setup";
  if (!action.empty()) {
    if (std::optional<std::string> page = action_help(topic, action)) return *page;
  }
  return topic.help();
}

// `words` are command_words(): the first is no command.
HostError unknown_command(const std::vector<std::string>& words,
                          const std::vector<Command>& commands) {
  const std::string& typed = words.front();
  if (auto retired = retired_command(typed, words.size() > 1 ? words[1] : std::string());
      !retired) {
    return retired.error();
  }
  const std::vector<std::string> names = command_names(commands);
  const auto suggestion = suggest_command(typed, names);
  std::string message = "Unknown command: " + typed + ".";
  if (suggestion) message += " Did you mean '" + *suggestion + "'?";
  message += " Use --help for available commands.";
  HostError error = contract::usage_error("UNKNOWN_COMMAND", message);
  if (suggestion) error.top_level["suggestion"] = *suggestion;
  return error;
}

// `--` ends the options, as in every Unix tool: CLI11 parses only what comes before it (left
// to itself, an option with an optional value takes the `--` as the end of its own values and
// reads on). The words after it fill the command's arguments in order (`toast -- --literal`);
// the words left over are returned.
std::vector<std::string> fill_arguments(CLI::App& app, const std::vector<std::string>& words) {
  std::size_t next = 0;
  for (CLI::Option* option :
       app.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    const std::size_t taken = next;
    while (next < words.size() &&
           option->count() < static_cast<std::size_t>(option->get_items_expected_max())) {
      option->add_result(words[next++]);
    }
    if (next != taken) option->run_callback();
  }
  return {words.begin() + static_cast<std::ptrdiff_t>(next), words.end()};
}

HostError unknown_argument(const std::string& typed, const Command* command, bool argument) {
  if (argument || typed.rfind("-", 0) != 0) {
    HostError error = contract::usage_error("USAGE", "unexpected argument '" + typed + "'");
    error.details["argument"] = typed;
    return error;
  }
  std::vector<std::string> known = kGlobalFlags;
  if (command != nullptr) known.insert(known.end(), command->flags.begin(), command->flags.end());
  const std::string flag = typed.substr(0, typed.find('='));
  const auto suggestion = suggest_flag(flag, known);
  if (suggestion && *suggestion == flag && command != nullptr) {
    // The command's own flag, typed before the command word (`--text OK click`): CLI11 reads
    // only global options there. "Did you mean '--text'?" would not help.
    HostError error = contract::usage_error(
        "USAGE", "'" + flag + "' is an option of " + command->app->get_name() +
                     ": put it after the command word (clawperator " + command->app->get_name() +
                     " " + flag + " ...)");
    error.details["flag"] = flag;
    return error;
  }
  std::string message = "unrecognized flag '" + flag + "'.";
  if (suggestion) message += " Did you mean '" + *suggestion + "'?";
  HostError error = contract::usage_error("USAGE", message);
  error.details["flag"] = flag;
  if (suggestion) error.top_level["suggestion"] = *suggestion;
  return error;
}

// CLI11 names an option by its first name; a message names the spelling typed last
// (`--receiver-package`, `--timeout-ms`), the one the user is looking at.
std::string typed_spelling(const CLI::Option& option, int options_end, const char* const* argv) {
  std::string typed = "--" + option.get_lnames().front();
  for (int i = 1; i < options_end; ++i) {
    const std::string_view arg = argv[i];
    for (const std::string& name : option.get_lnames()) {
      const std::string flag = "--" + name;
      if (arg == flag || arg.rfind(flag + "=", 0) == 0) typed = flag;
    }
  }
  return typed;
}

void note_typed_spellings(const CLI::App& app, int options_end, const char* const* argv,
                          RawGlobalFlags& raw) {
  const CLI::Option* package = app.get_option("--operator-package");
  raw.operator_package_given = package->count() > 0;
  raw.operator_package_flag = typed_spelling(*package, options_end, argv);
  const CLI::Option* device = app.get_option("--device");
  raw.device_given = device->count() > 0;
  raw.device_flag = typed_spelling(*device, options_end, argv);
  raw.output_flag = typed_spelling(*app.get_option("--output"), options_end, argv);
  raw.timeout_flag = typed_spelling(*app.get_option("--timeout"), options_end, argv);
  raw.policy_given = app.get_option("--policy")->count() > 0;
  raw.confirm_given = app.get_option("--confirm")->count() > 0;
  raw.report_given = app.get_option("--report")->count() > 0;
}

// The option CLI11 names `flag`, among the global ones and every command's.
const CLI::Option* find_option(const std::string& flag, const CLI::App& app,
                               const std::vector<Command>& commands) {
  if (const CLI::Option* global = app.get_option_no_throw(flag)) return global;
  for (const Command& command : commands) {
    if (const CLI::Option* own = command.app->get_option_no_throw(flag)) return own;
  }
  return nullptr;
}

// CLI11 words its errors for people; ours must also be machine-readable.
HostError from_parse_error(const CLI::ParseError& parse_error, const CLI::App& app,
                           const std::vector<Command>& commands, int options_end,
                           const char* const* argv) {
  std::string message = parse_error.what();
  // "--device: 1 required TEXT missing" says less than the original's wording.
  if (parse_error.get_name() == "ArgumentMismatch" && message.rfind("--", 0) == 0) {
    std::string flag = message.substr(0, message.find(':'));
    if (const CLI::Option* option = find_option(flag, app, commands)) {
      flag = typed_spelling(*option, options_end, argv);
    }
    // CLI11's AtMost: the option came twice (under either of its spellings).
    message = flag + (message.find(": At Most ") != std::string::npos ? " given more than once"
                                                                      : " requires a value");
    HostError error = contract::usage_error("USAGE", message);
    error.details["flag"] = flag;
    return error;
  }
  HostError error = contract::usage_error("USAGE", message);
  error.details["parser"] = parse_error.get_name();
  return error;
}

const Command* selected_command(const std::vector<Command>& commands) {
  for (const Command& command : commands) {
    if (command.app->parsed()) return &command;
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<CLI::App> build_cli(RawGlobalFlags& raw, std::vector<Command>& commands) {
  auto app = std::make_unique<CLI::App>("Drive Android devices from scripts, CI and AI agents.",
                                        "clawperator");
  app->formatter(make_help_formatter());
  app->footer(std::string(help_footer()));
  app->require_subcommand(0, 1);
  app->allow_extras();
  app->fallthrough();
  app->set_help_flag("-h,--help", "Print help (for a command: clawperator COMMAND --help)")
      ->group("Global options");
  add_global_options(*app, raw);
  // Help lists the groups in registration order, as the original does: Device
  // Interaction, Device Management, Execution, then Utilities.
  const CommandLine root(*app);
  register_action_commands(root, commands);
  register_device_commands(root, commands);
  register_package_commands(root, commands);
  register_exec_commands(root, commands);
  register_approve_commands(root, commands);
  register_skills_commands(root, commands);
  register_recording_commands(root, commands);
  register_emulator_commands(root, commands);
  register_evidence_commands(root, commands);
  register_webview_commands(root, commands);
  register_serve_commands(root, commands);
  register_setup_commands(root, commands);
  register_operator_commands(root, commands);
  register_catalog_commands(root, commands);
  register_log_commands(root, commands);
  register_mcp_commands(root, commands);
  return app;
}

CommandLineReading::CommandLineReading() = default;
CommandLineReading::~CommandLineReading() = default;
CommandLineReading::CommandLineReading(CommandLineReading&&) noexcept = default;

CommandLineReading read_command_line(int argc, const char* const* argv, RawGlobalFlags& raw) {
  CommandLineReading reading;
  reading.tree = build_cli(raw, reading.commands);
  CLI::App& app = *reading.tree;
  const std::vector<Command>& commands = reading.commands;

  if (argc <= 1 || std::string_view(argv[1]) == "help") {
    const CLI::App* topic =
        argc > 2 ? help_topic(argv[2], app, commands, argc > 3 ? argv[3] : "") : &app;
    reading.help = help_page(*topic, argc > 2 ? argv[2] : "", argc > 3 ? argv[3] : "");
    return reading;
  }

  remember_arguments(argc, argv);
  const int options_end =
      static_cast<int>(std::find_if(argv + 1, argv + argc,
                                    [](const char* arg) { return std::string_view(arg) == "--"; }) -
                       argv);
  const std::vector<std::string> after_options(argv + std::min(options_end + 1, argc), argv + argc);
  try {
    app.parse(options_end, argv);
  } catch (const CLI::CallForHelp&) {
    const std::vector<std::string> words = command_words(app, options_end, argv);
    const Command* command = selected_command(commands);
    if (!words.empty() && !is_command_word(words.front(), commands)) {
      const CLI::App* topic =
          help_topic(words.front(), app, commands, words.size() > 1 ? words[1] : "");
      // Else the overview would describe the command CLI11 parsed later (`snapshot`).
      if (topic == &app) app.clear();
      reading.help = help_page(*topic, words.front(), "");
    } else if (command != nullptr) {
      reading.help = help_page(*command->app, words.front(), words.size() > 1 ? words[1] : "");
    } else {
      reading.help = app.help();
    }
    return reading;
  } catch (const CLI::CallForAllHelp&) {
    reading.help = app.help("", CLI::AppFormatMode::All);
    return reading;
  } catch (const CLI::ParseError& parse_error) {
    reading.refusal = from_parse_error(parse_error, app, commands, options_end, argv);
    return reading;
  }

  const Command* command = selected_command(commands);
  std::vector<std::string> extras = app.remaining();
  if (command != nullptr) {
    const std::vector<std::string> own = command->app->remaining();
    extras.insert(extras.begin(), own.begin(), own.end());
  }
  if (!extras.empty() && command != nullptr && command->claim_argument &&
      extras.front().rfind("-", 0) == 0 && command->claim_argument(extras.front())) {
    extras.erase(extras.begin());
  }
  if (!extras.empty()) {
    const std::string& first = extras.front();
    // A first word that is no command is UNKNOWN_COMMAND (docs/contract.md §1.4), also when
    // CLI11 took a later word as the command (`observe snapshot` parses `snapshot`).
    const std::vector<std::string> words = command_words(app, options_end, argv);
    const bool typed_first = !words.empty() && words.front() == first;
    if (first.rfind("-", 0) != 0 &&
        (command == nullptr || (typed_first && !is_command_word(first, commands)))) {
      reading.refusal = unknown_command(typed_first ? words : std::vector{first}, commands);
    } else {
      reading.refusal = unknown_argument(first, command, false);
    }
    return reading;
  }
  std::vector<std::string> unplaced =
      command != nullptr ? fill_arguments(*command->app, after_options) : after_options;
  if (!unplaced.empty() && command != nullptr && command->take_rest) {
    command->take_rest(std::move(unplaced));
    unplaced.clear();
  }
  if (!unplaced.empty()) {
    // After `--` nothing is a flag: a word with no place is an unexpected argument.
    reading.refusal = unknown_argument(unplaced.front(), command, true);
    return reading;
  }

  note_typed_spellings(app, options_end, argv, raw);
  reading.command = command;
  if (command != nullptr) reading.command_name = command->app->get_name();
  return reading;
}

}  // namespace clawperator::cli
