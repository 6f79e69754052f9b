// `operator setup|install --apk FILE` and `grant-device-permissions`.
#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/operator_app/setup.hpp"

namespace clawperator::cli {
namespace {

struct OperatorFlags {
  std::string action;
  std::string apk;
};

operator_app::SetupRequest setup_request(const GlobalOptions& options) {
  operator_app::SetupRequest request;
  request.device = options.device;
  request.operator_package = options.operator_package;
  request.operator_package_explicit = options.operator_package_explicit;
  request.adb = adb_settings(options);
  return request;
}

CommandResult from_report(operator_app::SetupReport report) {
  return {std::move(report.document), report.exit_code};
}

CommandResult run_operator(const OperatorFlags& flags, const GlobalOptions& options) {
  if (flags.action.empty()) {
    return failure(contract::usage_error(
        "USAGE", "operator requires a subcommand: clawperator operator setup --apk <path>"));
  }
  if (!is_action_word("operator", flags.action)) {
    contract::HostError error = contract::usage_error(
        "USAGE", "Unknown operator subcommand: " + flags.action +
                     ". Use: clawperator operator setup --apk <path> (alias: operator install)");
    error.details["argument"] = flags.action;
    return failure(error);
  }
  if (flags.apk.empty()) {
    return failure(contract::usage_error(
        "USAGE",
        "operator setup requires --apk <path>: clawperator operator setup --apk "
        "operator.apk [--device <serial>]"));
  }
  operator_app::SetupRequest request = setup_request(options);
  request.apk_path = flags.apk;
  const auto runner = process::make_system_runner();
  return from_report(operator_app::run_operator_setup(request, *runner));
}

}  // namespace

void register_operator_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<OperatorFlags>();
  CommandLine operator_command = root.add_subcommand(
      "operator", "Install the Operator APK and enable its permissions (operator setup)");
  operator_command.group("Setup");
  operator_command.add_option("action", flags->action, "setup (alias: install)");
  operator_command.add_option("--apk", flags->apk, "The Operator APK file to install");
  set_command_footer(
      operator_command,
      "Notes:\n"
      "  Installs with 'adb install -r', then enables the accessibility service, the\n"
      "  notification permission and the notification listener.\n\n"
      "Examples:\n"
      "  clawperator operator setup --apk operator-v0.5.3.apk --device emulator-5554");
  commands.push_back(
      Command{operator_command.app(),
              [flags](const GlobalOptions& options) { return run_operator(*flags, options); },
              {"--apk"}});

  CommandLine grant = root.add_subcommand(
      "grant-device-permissions",
      "Enable the Operator's accessibility service, notifications and notification listener");
  grant.group("Setup");
  set_command_footer(
      grant,
      "Notes:\n"
      "  What operator setup does after installing, for an Operator already there.\n\n"
      "Examples:\n"
      "  clawperator grant-device-permissions --device emulator-5554");
  commands.push_back(Command{grant.app(),
                             [](const GlobalOptions& options) {
                               const auto runner = process::make_system_runner();
                               return from_report(operator_app::run_permission_grants(
                                   setup_request(options), *runner));
                             },
                             {}});
}

}  // namespace clawperator::cli
