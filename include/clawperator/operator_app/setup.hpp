// `operator setup --apk FILE` and `grant-device-permissions` (docs/setup.md):
// install the APK, find which Operator variant is installed, enable its
// services, and say precisely which phase failed.
#pragma once

#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::operator_app {

struct SetupRequest {
  std::string apk_path;               // operator setup only
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  // False when the package is only the default: then the variant that is
  // actually installed is used (exactly one must be).
  bool operator_package_explicit = false;
  adb::AdbSettings adb;
};

struct SetupReport {
  Json document;  // success object or error object
  int exit_code = 0;
};

SetupReport run_operator_setup(const SetupRequest& request, process::Runner& runner);
SetupReport run_permission_grants(const SetupRequest& request, process::Runner& runner);

// What setup does once the device is known, shared with `operator install`: `apk_path`
// installed on `serial` (adb install -r), the package verified, its services enabled. The
// success document {ok, deviceId, operatorPackage, install, permissions, verification, message,
// disposition}, or the failure with the phases so far as top-level fields (operatorPackage;
// install {ok: false, error} until the APK was installed; permissions; verification).
contract::Outcome<Json> install_and_grant(adb::AdbClient& client, const std::string& serial,
                                          const SetupRequest& request, const std::string& apk_path);

// The document of `outcome` and its exit code; a failure is logged (operator.setup.failure).
SetupReport setup_report(contract::Outcome<Json> outcome);

}  // namespace clawperator::operator_app
