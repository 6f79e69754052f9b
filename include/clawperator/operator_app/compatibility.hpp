// Whether the installed Operator speaks our protocol (the range rule of
// docs/wire-protocol.md §10): used by `version
// --check-compat` and doctor's readiness.version.compatibility check.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/package_dump.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::operator_app {

struct CompatibilityReport {
  std::string cli_version;
  std::string operator_package;
  std::optional<std::string> apk_version;  // versionName as the device reports it
  std::optional<long long> apk_version_code;
  bool compatible = false;
  // Why not: VERSION_INCOMPATIBLE, APK_VERSION_UNREADABLE, APK_VERSION_INVALID,
  // CLI_VERSION_INVALID, or what reading the version ran into.
  std::optional<contract::HostError> error;
  std::vector<std::string> remediation;
};

// The versionName and versionCode `dumpsys package` reports for `package` (neither when the
// dump names none, or dumpsys failed on the device), or the failure of the shell call itself.
contract::Outcome<adb::PackageVersion> installed_version(adb::AdbClient& client,
                                                         const std::string& serial,
                                                         const std::string& package);

// Reads the installed version with `dumpsys package` (the package must exist).
CompatibilityReport probe_compatibility(adb::AdbClient& client, const std::string& serial,
                                        const std::string& operator_package);

// The verdict for a version already read; pure, for tests and the probe.
CompatibilityReport judge_compatibility(std::string cli_version, std::string operator_package,
                                        std::optional<std::string> apk_version,
                                        std::optional<long long> apk_version_code,
                                        const std::string& serial = {});

// {cliVersion, apkVersion, apkVersionCode, operatorPackage, compatible,
//  supportedRange, code?, message?, remediation?}
Json to_json(const CompatibilityReport& report);

}  // namespace clawperator::operator_app
