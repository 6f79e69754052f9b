// `operator install|setup` (the published release, or a local file with --apk) and
// `grant-device-permissions` (docs/operator.md, docs/setup.md).
#include <unistd.h>

#include <cstdlib>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/download/operator_release.hpp"
#include "clawperator/operator_app/install.hpp"
#include "clawperator/operator_app/setup.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::cli {
namespace {

struct OperatorFlags {
  std::string action;
  std::string apk;
  std::optional<std::string> metadata_url;
  std::optional<std::string> version;
  bool force = false;
  bool download_only = false;
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

// The download's flags mean nothing for a local file.
std::optional<CommandResult> refuse_download_flags_with_apk(const OperatorFlags& flags) {
  const std::pair<const char*, bool> uses[] = {{"--metadata-url", flags.metadata_url.has_value()},
                                               {"--operator-version", flags.version.has_value()},
                                               {"--force", flags.force},
                                               {"--download-only", flags.download_only}};
  for (const auto& [flag, given] : uses) {
    if (given) {
      return usage_failure(
          std::string(flag) + " belongs to the download; --apk installs the file as it is",
          Json{{"flag", flag}});
    }
  }
  return std::nullopt;
}

CommandResult run_operator(const OperatorFlags& flags, const GlobalOptions& options) {
  if (flags.action.empty()) {
    // The original's words (its own tests match them), as for an unknown word below.
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
  // Ctrl-C during a download or an install: the partial file and adb's children cleaned up,
  // the JSON error printed.
  process::install_interrupt_handlers();
  const auto runner = process::make_system_runner();
  if (!flags.apk.empty()) {
    if (auto refused = refuse_download_flags_with_apk(flags)) return std::move(*refused);
    operator_app::SetupRequest request = setup_request(options);
    request.apk_path = flags.apk;
    return from_report(operator_app::run_operator_setup(request, *runner));
  }
  auto release = download::read_release_request(flags.metadata_url, flags.version,
                                                [](const char* name) { return std::getenv(name); });
  if (!release) {
    const std::string& source = release.error().source;
    return usage_failure(release.error().message, source.rfind("--", 0) == 0
                                                      ? Json{{"flag", source}}
                                                      : Json{{"variable", source}});
  }
  operator_app::InstallRequest request;
  request.setup = setup_request(options);
  request.release = std::move(*release);
  // A progress bar for a person at a terminal only (docs/contract.md §2: stderr).
  request.release.show_progress = ::isatty(STDERR_FILENO) == 1;
  request.downloads = download::downloads_directory(io::process_state_environment());
  request.force = flags.force;
  request.download_only = flags.download_only;
  return from_report(
      operator_app::setup_report(operator_app::run_operator_install(request, *runner)));
}

}  // namespace

void register_operator_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<OperatorFlags>();
  CommandLine operator_command = root.add_subcommand(
      "operator",
      "Install the Operator (the published release, or an APK file) and enable its permissions");
  operator_command.group("Setup");
  operator_command.add_option("action", flags->action, "install (alias: setup)");
  operator_command
      .add_option("--apk", flags->apk, "Install this APK file instead of the published release")
      .value_name(kFileValue);
  operator_command.add_option("--metadata-url", flags->metadata_url,
                              "The release metadata (latest.json) of a mirror (default: "
                              "$CLAWPERATOR_OPERATOR_METADATA_URL, else " +
                                  std::string(download::kDefaultMetadataUrl) + ")");
  operator_command.add_option("--operator-version", flags->version,
                              "This release (X.Y.Z) instead of the latest, from beside the "
                              "metadata (vX.Y.Z/operator-vX.Y.Z.apk)");
  operator_command.add_flag("--force", flags->force,
                            "Install even when the device has this release or a newer one");
  operator_command.add_flag("--download-only", flags->download_only,
                            "Fetch and check the APK into ~/.clawperator/downloads; no device");
  set_command_footer(
      operator_command,
      "Notes:\n"
      "  Without --apk: fetches the release metadata, downloads the APK over HTTPS into\n"
      "  ~/.clawperator/downloads (reused when its SHA-256 matches), checks its SHA-256,\n"
      "  then installs it with 'adb install -r' and enables the accessibility service,\n"
      "  the notification permission and the notification listener. A device that has\n"
      "  this release or a newer one is left alone unless --force. See docs/operator.md.\n\n"
      "Examples:\n"
      "  clawperator operator install --device emulator-5554\n"
      "  clawperator operator install --download-only\n"
      "  clawperator operator setup --apk operator-v0.5.3.apk --device emulator-5554");
  commands.push_back(
      Command{operator_command.app(),
              [flags](const GlobalOptions& options) { return run_operator(*flags, options); },
              {"--apk", "--metadata-url", "--operator-version", "--force", "--download-only"}});

  CommandLine grant = root.add_subcommand(
      "grant-device-permissions",
      "Enable the Operator's accessibility service, notifications and notification listener");
  grant.group("Setup");
  set_command_footer(
      grant,
      "Notes:\n"
      "  What operator install does after installing, for an Operator already there.\n\n"
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
