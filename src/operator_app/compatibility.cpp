#include "clawperator/operator_app/compatibility.hpp"

#include "clawperator/adb/package_dump.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/operator_version.hpp"
#include "clawperator/exec/preflight.hpp"

namespace clawperator::operator_app {
namespace {

std::string setup_command(const CompatibilityReport& report, const exec::ExecutionTrace& trace) {
  std::string command = "clawperator operator setup --apk <operator.apk>";
  if (trace.device_id) command += " --device " + *trace.device_id;
  if (report.operator_package != "com.clawperator.operator") {
    command += " --operator-package " + report.operator_package;
  }
  return command;
}

}  // namespace

CompatibilityReport judge_compatibility(std::string cli_version, std::string operator_package,
                                        std::optional<std::string> apk_version,
                                        std::optional<long long> apk_version_code,
                                        const exec::ExecutionTrace& trace) {
  CompatibilityReport report;
  report.cli_version = std::move(cli_version);
  report.operator_package = std::move(operator_package);
  report.apk_version = std::move(apk_version);
  report.apk_version_code = apk_version_code;
  const std::string range = contract::supported_operator_range();
  Json details = Json::object();
  details["checkId"] = "readiness.version.compatibility";
  details["cliVersion"] = report.cli_version;
  details["supportedRange"] = range;
  if (report.apk_version) details["apkVersion"] = *report.apk_version;

  if (!contract::parse_release_version(contract::normalize_version(report.cli_version))) {
    report.error = trace.fail(
        "CLI_VERSION_INVALID",
        "This CLI's version '" + report.cli_version + "' is not a release version (X.Y.Z)",
        details);
    report.remediation = {"Reinstall clawperator from a release build."};
    return report;
  }
  const std::string reinstall = "Install an Operator release in the range " + range +
                                " with: " + setup_command(report, trace);
  if (!report.apk_version || report.apk_version->empty()) {
    report.error =
        trace.fail("APK_VERSION_UNREADABLE",
                   "The Operator's versionName could not be read from 'dumpsys package " +
                       report.operator_package + "'",
                   details);
    report.remediation = {reinstall};
  } else {
    switch (contract::operator_compatibility(*report.apk_version)) {
      case contract::Compatibility::Compatible:
        report.compatible = true;
        return report;
      case contract::Compatibility::Invalid:
        report.error = trace.fail("APK_VERSION_INVALID",
                                  "The Operator reports version '" + *report.apk_version +
                                      "', which is not a release version (X.Y.Z)",
                                  details);
        break;
      case contract::Compatibility::TooOld:
        report.error = trace.fail(
            "VERSION_INCOMPATIBLE",
            "Operator " + *report.apk_version + " is older than this CLI supports (" + range + ")",
            details);
        break;
    }
    report.remediation = {reinstall};
  }
  report.error->hint = reinstall;
  return report;
}

CompatibilityReport probe_compatibility(adb::AdbClient& client, const std::string& serial,
                                        const exec::ExecutionTrace& trace) {
  const std::string& package = trace.operator_package;
  const process::Completion completion = client.shell(
      serial, exec::with_exit_marker("dumpsys package " + adb::quote_for_device_shell(package)));
  if (auto error = exec::adb_call_failure(completion, trace, client.settings(), "dumpsys package",
                                          "DEVICE_SHELL_UNAVAILABLE")) {
    CompatibilityReport report;
    report.cli_version = CLAWPERATOR_VERSION;
    report.operator_package = package;
    report.error = std::move(error);
    return report;
  }
  const exec::ShellOutput output = exec::split_exit_marker(completion.out);
  adb::PackageVersion version;
  if (output.exit_code == 0) version = adb::parse_package_version(output.text, package);
  return judge_compatibility(CLAWPERATOR_VERSION, package, version.version_name,
                             version.version_code, trace);
}

Json to_json(const CompatibilityReport& report) {
  Json out = Json::object();
  out["cliVersion"] = report.cli_version;
  out["apkVersion"] = report.apk_version ? Json(*report.apk_version) : Json(nullptr);
  out["apkVersionCode"] = report.apk_version_code ? Json(*report.apk_version_code) : Json(nullptr);
  out["operatorPackage"] = report.operator_package;
  out["compatible"] = report.compatible;
  out["supportedRange"] = contract::supported_operator_range();
  if (report.error) {
    out["code"] = report.error->code;
    out["message"] = report.error->message;
  }
  if (!report.remediation.empty()) out["remediation"] = report.remediation;
  return out;
}

}  // namespace clawperator::operator_app
