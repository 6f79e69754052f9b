// Running a validated execution on one device, phase by phase as spec/wire.md
// tells it: resolve the device, preflight, dispatch, wait for the result,
// post-process. The one entry point of the exec path.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::exec {

struct ExecutionRequest {
  contract::ValidatedExecution execution;
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  adb::AdbSettings adb;
  long lock_wait_ms = 0;
  // Per-user state: device locks and the readiness cache (none: neither; refused: the run
  // stops with STATE_DIRECTORY_UNSAFE before contacting the device).
  io::StateSelection state;
  // A one-line progress display on stderr while waiting (only for a terminal).
  bool show_progress = false;

  // Test seams: a fixed result deadline instead of timeoutMs + 5 s, and a fixed
  // readiness-probe command id (attempt N gets the suffix "-N" after the first).
  std::optional<std::chrono::milliseconds> result_timeout;
  std::string probe_command_id;
};

struct ExecutionReport {
  Json document;  // the success wrapper or the error object
  int exit_code = 0;
};

ExecutionReport run_execution(const ExecutionRequest& request, process::Runner& runner);

}  // namespace clawperator::exec
