// `doctor` and `version`: is this host and device ready, and do the CLI and
// the Operator speak the same protocol.
#include <set>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/doctor/doctor.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/operator_app/compatibility.hpp"
#include "clawperator/operator_app/presence.hpp"

namespace clawperator::cli {
namespace {

struct DoctorFlags {
  bool fix = false;
  bool full = false;
  bool check_only = false;
  std::string capability;
  bool capability_given = false;
};

CommandResult run_doctor_command(const DoctorFlags& flags, const GlobalOptions& options) {
  if (flags.fix && flags.check_only) {
    return failure(contract::usage_error(
        "USAGE",
        "--fix and --check-only contradict each other: --check-only never changes the "
        "host or the device"));
  }
  if (flags.capability_given) {
    if (flags.capability != doctor::kBackgroundObservation &&
        flags.capability != doctor::kEmulatorCapability) {
      contract::HostError error =
          contract::usage_error("USAGE", "Unknown capability: " + flags.capability +
                                             ". Use: " + doctor::kBackgroundObservation + " or " +
                                             doctor::kEmulatorCapability);
      error.details["flag"] = "--capability";
      return failure(error);
    }
    if (flags.fix || flags.full) {
      contract::HostError error = contract::usage_error(
          "USAGE", std::string("--capability checks only; it does not take ") +
                       (flags.fix ? "--fix" : "--full"));
      error.details["flag"] = "--capability";
      return failure(error);
    }
  }
  doctor::DoctorOptions request;
  if (flags.capability_given) request.capability = flags.capability;
  request.device = options.device;
  request.operator_package = options.operator_package;
  request.adb = adb_settings(options);
  request.log_dir = options.log_dir;
  // Only the smoke execution uses the state directory: choose it only then.
  if (flags.full || flags.capability_given) request.state = state_directory_for_run();
  request.full = flags.full;
  request.fix = flags.fix;
  const auto runner = process::make_system_runner();
  const doctor::Report report = doctor::run_doctor(request, *runner);
  return CommandResult{doctor::to_json(report), doctor::exit_code(report),
                       doctor::render_pretty(report)};
}

CommandResult run_version(bool check_compat, const GlobalOptions& options) {
  Json out = Json::object();
  out["cliVersion"] = CLAWPERATOR_VERSION;
  if (!check_compat) return success(std::move(out));

  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, adb_settings(options));
  const contract::Outcome<std::string> resolved = adb::resolve_device(client, options.device);
  if (!resolved) return failure(resolved.error());
  const std::string& serial = *resolved;

  operator_app::CompatibilityReport report;
  if (contract::Status installed =
          operator_app::require_operator(client, serial, options.operator_package);
      !installed) {
    // The device could not be asked: that is not an answer about compatibility.
    if (installed.error().code.rfind("OPERATOR_", 0) != 0) return failure(installed.error());
    report.cli_version = CLAWPERATOR_VERSION;
    report.operator_package = options.operator_package;
    report.remediation = {contract::hint_of(installed.error())};
    report.error = std::move(installed).error();
  } else {
    report = operator_app::probe_compatibility(client, serial, options.operator_package);
    static const std::set<std::string> kVerdicts = {"VERSION_INCOMPATIBLE",
                                                    "APK_VERSION_UNREADABLE", "APK_VERSION_INVALID",
                                                    "CLI_VERSION_INVALID"};
    if (report.error && kVerdicts.count(report.error->code) == 0) {
      return failure(*report.error);
    }
  }
  Json document = operator_app::to_json(report);
  document["ok"] = report.compatible;
  document["deviceId"] = serial;
  // A verdict that the versions do not match is a failed check (exit 1), not
  // a device that is not ready.
  return {std::move(document),
          report.compatible ? contract::exit_code::kSuccess : contract::exit_code::kFailed};
}

}  // namespace

void register_setup_commands(CommandLine root, std::vector<Command>& commands) {
  auto doctor_flags = std::make_shared<DoctorFlags>();
  CommandLine doctor =
      root.add_subcommand("doctor", "Check the host, the device and the Operator; say what to fix");
  doctor.group("Setup");
  doctor.add_flag("--fix", doctor_flags->fix,
                  "Run the fix steps of failing checks (adb restart, settings, permission grants), "
                  "then check again");
  doctor.add_flag("--full", doctor_flags->full,
                  "Also run a small real execution (close, open and snapshot Settings)");
  doctor.add_flag("--check-only", doctor_flags->check_only,
                  "Only check: never change the host or the device (the default; refuses --fix)");
  doctor
      .add_option("--capability", doctor_flags->capability,
                  "Check one capability instead: background-observation (notifications and "
                  "media without waking the screen) or emulator (the SDK's tools, KVM and disk "
                  "space for emulators; no device)")
      .each([doctor_flags](const std::string&) { doctor_flags->capability_given = true; });
  set_command_footer(doctor,
                     "Notes:\n"
                     "  Exit status: 0 ready, 1 a check failed, 3 adb is missing.\n\n"
                     "Examples:\n"
                     "  clawperator doctor --output pretty\n"
                     "  clawperator doctor --device emulator-5554 --fix\n"
                     "  clawperator doctor --capability background-observation\n"
                     "  clawperator doctor --capability emulator");
  commands.push_back(Command{doctor.app(),
                             [doctor_flags](const GlobalOptions& options) {
                               return run_doctor_command(*doctor_flags, options);
                             },
                             {"--fix", "--full", "--check-only", "--capability"}});

  auto check_compat = std::make_shared<bool>(false);
  CommandLine version = root.add_subcommand("version", "Print the CLI version");
  version.group("Setup");
  version.add_flag("--check-compat", *check_compat,
                   "Also check that the installed Operator speaks this CLI's protocol (exit 1 "
                   "when not)");
  set_command_footer(version,
                     "Examples:\n"
                     "  clawperator version\n"
                     "  clawperator version --check-compat --device emulator-5554");
  commands.push_back(Command{
      version.app(),
      [check_compat](const GlobalOptions& options) { return run_version(*check_compat, options); },
      {"--check-compat"}});
}

}  // namespace clawperator::cli
