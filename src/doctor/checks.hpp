// The individual doctor checks, in the order doctor.cpp runs them. Each returns
// its verdict; the context carries what later checks need (the device, the
// Operator's answer).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/adb_version.hpp"
#include "clawperator/doctor/doctor.hpp"
#include "clawperator/doctor/report.hpp"
#include "clawperator/emulator/sdk_tools.hpp"
#include "clawperator/exec/execution.hpp"

namespace clawperator::doctor {

// This project's own docs, as paths in the source tree; `cmake --install` and the .deb put the
// same files under share/doc/clawperator/ (docs/setup.md). The original's site describes a
// different CLI.
inline constexpr const char* kSetupDocs = "docs/setup.md";
inline constexpr const char* kDevicesDocs =
    "docs/commands.md#device-management-and-utilities-no---timeout";
// Where the Operator comes from and how `operator install` gets it; the grants it needs.
inline constexpr const char* kOperatorDocs = "docs/operator.md";
inline constexpr const char* kPermissionsDocs =
    "docs/setup.md#clawperator-grant-device-permissions";
inline constexpr const char* kCompatibilityDocs =
    "docs/setup.md#clawperator-version---check-compat";

struct DoctorContext {
  DoctorContext(const DoctorOptions& doctor_options, process::Runner& process_runner);

  const DoctorOptions& options;
  process::Runner& runner;
  adb::AdbClient client;
  std::optional<adb::AdbVersion> adb_version;
  std::optional<std::string> serial;  // the device under test, once discovered
  std::optional<exec::InteractiveState> interactive;
  // The Operator's uids, from readiness.apk.presence's `pm list packages -U` (none printed:
  // empty).
  std::vector<std::string> operator_uids;
};

// " --device S[ --operator-package P]": the flags that point a suggested clawperator
// command at the same device and Operator.
std::string target_flags(const DoctorContext& context);
// "adb -s X shell …" as a person would type it (arguments quoted when needed).
std::string display_command(const std::vector<std::string>& argv);
// A fix step that runs `argv` (adb) when --fix applies it.
FixStep adb_step(DoctorContext& context, std::vector<std::string> argv);
// A fix step for a device shell command: adb -s SERIAL shell COMMAND.
FixStep device_shell_step(DoctorContext& context, const std::string& command);
FixStep manual_step(std::string text);
// adb kill-server, then adb start-server.
Fix restart_adb_server_fix(DoctorContext& context);

// host_checks.cpp
Check check_log_directory(DoctorContext& context);
Check check_adb_presence(DoctorContext& context);
// video_checks.cpp
Check check_video_dependencies(DoctorContext& context);
Check check_adb_version(DoctorContext& context);
Check check_adb_server(DoctorContext& context);
// device_checks.cpp
Check check_device_discovery(DoctorContext& context);
Check check_device_capability(DoctorContext& context);
// operator_checks.cpp
Check check_operator_presence(DoctorContext& context);
Check check_operator_version(DoctorContext& context);
// Both settings checks come from one device call.
std::vector<Check> check_device_settings(DoctorContext& context);
// handshake_checks.cpp
Check check_handshake(DoctorContext& context);
Check check_interactive(DoctorContext& context);
Check check_smoke(DoctorContext& context);
// A payload of the doctor's own (valid by construction) through the exec path.
exec::ExecutionReport run_check_execution(DoctorContext& context, const Json& payload);
// A failed execution's code and words as the check's detail and evidence.failureCode.
void describe_execution_failure(const exec::ExecutionReport& result, Check& check);
// authenticity_checks.cpp
Check check_result_authenticity(DoctorContext& context);
// background_checks.cpp
Check check_background_observation(DoctorContext& context);
// emulator_checks.cpp (doctor --capability emulator)
Check check_kvm(DoctorContext& context);
Check check_avd_disk(DoctorContext& context, const emulator::SdkTools& tools);
std::vector<Check> check_sdk_tools(DoctorContext& context, const emulator::SdkTools& tools);

}  // namespace clawperator::doctor
