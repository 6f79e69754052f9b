// The host: the log directory, adb itself and its server.
#include <unistd.h>

#include <cstring>

#include "checks.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/text.hpp"

namespace clawperator::doctor {
namespace {

std::string first_line(std::string_view text) {
  text = trim(text);
  return std::string(text.substr(0, text.find('\n')));
}

}  // namespace

Fix restart_adb_server_fix(DoctorContext& context) {
  std::vector<std::string> kill = context.client.base_argv();
  kill.push_back("kill-server");
  std::vector<std::string> start = context.client.base_argv();
  start.push_back("start-server");
  return Fix{"Restart the adb server",
             {adb_step(context, std::move(kill)), adb_step(context, std::move(start))},
             kSetupDocs};
}

DoctorContext::DoctorContext(const DoctorOptions& doctor_options, process::Runner& process_runner)
    : options(doctor_options), runner(process_runner), client(process_runner, doctor_options.adb) {}

std::string target_flags(const DoctorContext& context) {
  std::string flags = " --device " + *context.serial;
  if (context.options.operator_package != "com.clawperator.operator") {
    flags += " --operator-package " + context.options.operator_package;
  }
  return flags;
}

std::string display_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_./:=@%+,") == std::string::npos;
    out += plain ? arg : adb::quote_for_device_shell(arg);
  }
  return out;
}

FixStep adb_step(DoctorContext& context, std::vector<std::string> argv) {
  FixStep step;
  step.kind = FixStep::Kind::Shell;
  step.value = display_command(argv);
  adb::AdbClient* client = &context.client;
  step.apply = [client, argv = std::move(argv)] {
    const process::Completion completion = client->run(argv, adb::kShellTimeout);
    FixOutcome outcome;
    outcome.ok = completion.status == process::Completion::Status::Exited &&
                 completion.exit_code == 0 &&
                 adb::split_exit_marker(completion.out).exit_code.value_or(0) == 0;
    outcome.detail = first_line(completion.err.empty() ? completion.out : completion.err);
    if (outcome.detail.rfind(adb::kExitMarker, 0) == 0) outcome.detail.clear();
    return outcome;
  };
  return step;
}

FixStep device_shell_step(DoctorContext& context, const std::string& command) {
  FixStep step;
  step.kind = FixStep::Kind::Shell;
  // People see the command as they would type it, without our exit-status marker.
  step.value =
      display_command(context.client.device_argv(*context.serial, {"shell"})) + " " + command;
  adb::AdbClient* client = &context.client;
  // Through the one checked device-shell call: a stream that closed before the device said how
  // the command ended is no success (docs/wire-protocol.md §2.5).
  step.apply = [client, serial = *context.serial, command] {
    const auto output = adb::run_device_shell_checked(
        *client, serial, {command, command, adb::kShellTimeout, "DEVICE_SHELL_UNAVAILABLE"});
    FixOutcome outcome;
    outcome.ok = output.has_value();
    outcome.detail = output ? first_line(output->err.empty() ? output->out : output->err)
                            : first_line(output.error().message);
    return outcome;
  };
  return step;
}

FixStep manual_step(std::string text) {
  FixStep step;
  step.kind = FixStep::Kind::Manual;
  step.value = std::move(text);
  return step;
}

Check check_log_directory(DoctorContext& context) {
  Check check;
  check.id = "host.logs.writable";
  const std::filesystem::path& dir = context.options.log_dir;
  // No home (HOME unset, no passwd entry): there is no directory to try.
  const io::OpenedLog opened = dir.empty() ? io::OpenedLog{} : io::open_daily_log(dir);
  if (opened.fd >= 0) ::close(opened.fd);
  check.evidence = Json{
      {"logDir", dir.string()}, {"logPath", opened.path.string()}, {"writable", opened.fd >= 0}};
  if (opened.fd >= 0) {
    check.summary = "Logs are written to " + opened.path.string();
    return check;
  }
  check.status = Status::Warn;
  check.code = "LOG_DIRECTORY_UNWRITABLE";
  check.summary = "The log directory is not writable";
  check.detail = (dir.empty() ? std::string(io::kNoLogHome)
                              : opened.path.string() + ": " + std::strerror(opened.error)) +
                 ". Commands still work; they just leave no log.";
  check.fix = Fix{"Use a writable log directory",
                  {manual_step("Set CLAWPERATOR_LOG_DIR to a writable directory, or " +
                               (dir.empty() ? std::string("HOME to your home directory")
                                            : "fix the permissions of " + dir.string()))},
                  kSetupDocs};
  return check;
}

Check check_adb_presence(DoctorContext& context) {
  Check check;
  check.id = "host.adb.presence";
  const process::Completion completion = context.client.version();
  const std::string& adb = context.options.adb.executable;
  const bool ran =
      completion.status == process::Completion::Status::Exited && completion.exit_code == 0;
  context.adb_version = ran ? adb::parse_adb_version(completion.out) : std::nullopt;
  if (context.adb_version) {
    check.summary =
        "adb " + context.adb_version->protocol +
        (context.adb_version->release.empty() ? std::string()
                                              : " (" + context.adb_version->release + ")") +
        " found";
    check.evidence = Json{{"adbPath", adb},
                          {"version", context.adb_version->protocol},
                          {"release", context.adb_version->release}};
    if (!context.adb_version->installed_as.empty()) {
      check.evidence["installedAs"] = context.adb_version->installed_as;
    }
    return check;
  }
  check.status = Status::Fail;
  check.code = "ADB_NOT_FOUND";
  check.evidence = Json{{"adbPath", adb}, {"status", process::to_string(completion.status)}};
  if (completion.status == process::Completion::Status::SpawnFailed) {
    check.summary = "adb was not found";
    check.detail = "Could not run '" + adb + "': " + std::strerror(completion.spawn_errno);
    check.evidence["processErrorCode"] = completion.spawn_errno;
  } else {
    check.summary = "adb did not run correctly";
    check.detail = "'" + adb + " version' " +
                   (ran ? std::string("printed no adb version")
                        : "failed (" + std::string(process::to_string(completion.status)) +
                              ", exit " + std::to_string(completion.exit_code) + ")") +
                   (first_line(completion.err).empty() ? "" : ": " + first_line(completion.err));
    check.evidence["exitCode"] = completion.exit_code;
  }
  check.fix = Fix{"Install adb (Android platform-tools)",
                  {manual_step("Debian/Ubuntu: sudo apt-get install adb"),
                   manual_step("macOS: brew install --cask android-platform-tools"),
                   manual_step("Or pass --adb PATH (or set ADB / ADB_PATH) to an adb binary")},
                  kSetupDocs};
  return check;
}

Check check_adb_version(DoctorContext& context) {
  Check check;
  check.id = "host.adb.version";
  const std::string& version = context.adb_version->protocol;
  check.evidence = Json{{"version", version}, {"minimum", adb::kMinimumAdbProtocol}};
  if (adb::version_at_least(version, adb::kMinimumAdbProtocol)) {
    check.summary =
        "adb " + version + " is recent enough (>= " + std::string(adb::kMinimumAdbProtocol) + ")";
    return check;
  }
  check.status = Status::Warn;
  check.code = "HOST_DEPENDENCY_MISSING";
  check.summary = "adb " + version + " is older than " + std::string(adb::kMinimumAdbProtocol);
  check.detail =
      "Older adb has no shell protocol v2: device exit codes and stderr are not reported.";
  check.fix = Fix{"Update adb (Android platform-tools)",
                  {manual_step("Install a current platform-tools release and put its adb first "
                               "on PATH")},
                  kSetupDocs};
  return check;
}

Check check_adb_server(DoctorContext& context) {
  Check check;
  check.id = "host.adb.server";
  const process::Completion completion = context.client.start_server();
  if (completion.status == process::Completion::Status::Exited && completion.exit_code == 0) {
    check.summary = "The adb server is running";
    return check;
  }
  check.status = Status::Fail;
  check.code = "ADB_SERVER_FAILED";
  check.summary = "The adb server could not be started";
  check.detail = first_line(completion.err.empty() ? completion.out : completion.err);
  if (check.detail.empty()) {
    check.detail = "adb start-server ended with " +
                   std::string(process::to_string(completion.status)) + " (exit " +
                   std::to_string(completion.exit_code) + ")";
  }
  check.evidence = Json{{"exitCode", completion.exit_code},
                        {"stderr", std::string(trim(completion.err)).substr(0, 4096)}};
  check.fix = restart_adb_server_fix(context);
  return check;
}

}  // namespace clawperator::doctor
