// `clawperator doctor`: the checks of docs/setup.md with the original's newer semantics
// (skipped checks, --fix re-runs, variant mismatch fails), adapted to this
// CLI: no Node or Java checks, adb's version instead.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/doctor/report.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::doctor {

struct DoctorOptions {
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  adb::AdbSettings adb;
  std::filesystem::path log_dir;
  io::StateSelection state;  // for the --full smoke execution
  bool full = false;         // also run the smoke execution
  bool fix = false;          // apply the fix steps, then check again
  // "background-observation": the host and Operator checks, then the background readiness
  // check (readiness.background.observation) instead of the interactive ones.
  std::optional<std::string> capability;

  // Test seams: the handshake's command id and result deadline.
  std::string probe_command_id;
  std::chrono::milliseconds handshake_timeout = exec::kProbeResultTimeout;
};

Report run_doctor(const DoctorOptions& options, process::Runner& runner);

// The capabilities `doctor --capability` checks.
inline constexpr const char* kBackgroundObservation = "background-observation";
// Can this host create and boot emulators (no device needed).
inline constexpr const char* kEmulatorCapability = "emulator";

}  // namespace clawperator::doctor
