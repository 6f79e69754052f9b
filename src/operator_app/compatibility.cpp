#include "clawperator/operator_app/compatibility.hpp"

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_dump.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/operator_version.hpp"
#include "clawperator/operator_app/components.hpp"

namespace clawperator::operator_app {
namespace {

// The command that installs a supported Operator: the published release, or the package's APK.
std::string install_command(const CompatibilityReport& report, const std::string& serial) {
  const std::string device = serial.empty() ? std::string() : " --device " + serial;
  if (report.operator_package == kReleasePackage) {
    return "clawperator operator install" + device;
  }
  return "clawperator operator setup --apk <operator.apk>" + device + " --operator-package " +
         report.operator_package;
}

}  // namespace

CompatibilityReport judge_compatibility(std::string cli_version, std::string operator_package,
                                        std::optional<std::string> apk_version,
                                        std::optional<long long> apk_version_code,
                                        const std::string& serial) {
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
    report.error = contract::readiness_error(
        "CLI_VERSION_INVALID",
        "This CLI's version '" + report.cli_version + "' is not a release version (X.Y.Z)",
        details);
    report.remediation = {"Reinstall clawperator from a release build."};
    return report;
  }
  const std::string reinstall =
      contract::hint_text(contract::HintId::InstallCompatibleOperator,
                          {{"range", range}, {"command", install_command(report, serial)}});
  if (!report.apk_version || report.apk_version->empty()) {
    report.error = contract::readiness_error(
        "APK_VERSION_UNREADABLE",
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
        report.error =
            contract::readiness_error("APK_VERSION_INVALID",
                                      "The Operator reports version '" + *report.apk_version +
                                          "', which is not a release version (X.Y.Z)",
                                      details);
        break;
      case contract::Compatibility::TooOld:
        report.error = contract::readiness_error(
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

contract::Outcome<adb::PackageVersion> installed_version(adb::AdbClient& client,
                                                         const std::string& serial,
                                                         const std::string& package) {
  CLAWPERATOR_TRY_ASSIGN(
      auto output, adb::run_device_shell(client, serial,
                                         {"dumpsys package " + adb::quote_for_device_shell(package),
                                          "dumpsys package"}));
  if (output.exit_code != 0) return adb::PackageVersion{};
  return adb::parse_package_version(output.out, package);
}

CompatibilityReport probe_compatibility(adb::AdbClient& client, const std::string& serial,
                                        const std::string& package) {
  auto version = installed_version(client, serial, package);
  if (!version) {
    CompatibilityReport report;
    report.cli_version = CLAWPERATOR_VERSION;
    report.operator_package = package;
    report.error = std::move(version).error();
    return report;
  }
  return judge_compatibility(CLAWPERATOR_VERSION, package, version->version_name,
                             version->version_code, serial);
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
