// `clawperator evidence capture`, mcp serve's evidence_capture and serve's POST
// /evidence/capture: one still-evidence bundle of what the screen shows now (docs/evidence.md).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "clawperator/evidence/report.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::evidence {

struct CaptureRequest {
  // The device, Operator package, adb, state directory, lock wait, result transport and warm
  // readers, as for any execution; the execution itself (one snapshot) is made here.
  exec::ExecutionRequest device;
  // A directory that must not exist yet; nullopt: default_bundles_directory()/<evidenceId>.
  std::optional<std::filesystem::path> output_dir;
  std::optional<std::string> label;  // checked by the front end (check_label)
  Json context = nullptr;            // an object or null (check_context)
  // The snapshot execution's timeoutMs and the command's budget.
  std::chrono::milliseconds timeout{30000};
};

// Creates the bundle, captures the hierarchy (one snapshot execution, its envelope kept), the
// screenshot (adb exec-out screencap -p) and the device's identity, and writes manifest.json
// last. Complete: {ok, status, evidenceId, deviceId, bundleDir, manifestPath, manifest}. Else
// the error: EVIDENCE_OUTPUT_EXISTS / EVIDENCE_STORAGE_UNWRITABLE before anything else, the
// execution's own error when nothing could be captured, EVIDENCE_STORAGE_UNWRITABLE when a
// file could not be written, EVIDENCE_CAPTURE_FAILED for a partial bundle; each with the
// bundle's status, evidenceId, bundleDir, manifestPath and manifest at the top level once a
// bundle exists.
EvidenceReport capture_evidence(const CaptureRequest& request, process::Runner& runner);

}  // namespace clawperator::evidence
