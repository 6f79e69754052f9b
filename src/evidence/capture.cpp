#include "clawperator/evidence/capture.hpp"

#include <chrono>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/screencap.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/evidence/bundle.hpp"
#include "clawperator/evidence/device_identity.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/io/utc_time.hpp"

namespace clawperator::evidence {
namespace {

using Clock = std::chrono::steady_clock;

std::string now_text() {
  return io::utc_timestamp(std::chrono::system_clock::now());
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}

// One artefact being captured: its clocks, then stored as complete or failed.
class ArtifactWriter {
 public:
  ArtifactWriter(const BundleDirectory& bundle, Manifest& manifest,
                 std::optional<StorageError>& first_storage_failure)
      : bundle_(bundle), manifest_(manifest), storage_failure_(first_storage_failure) {}

  struct Started {
    std::string kind, file, mime_type, started_at;
    Clock::time_point started;
  };
  static Started start(std::string kind, std::string file, std::string mime_type) {
    return {std::move(kind), std::move(file), std::move(mime_type), now_text(), Clock::now()};
  }

  void store(const Started& item, std::string_view bytes, const std::string& command_id) {
    if (auto failure = bundle_.write_new(item.file, bytes)) {
      fail(item,
           "could not write " + failure->path.string() + ": " +
               (failure->error_number != 0 ? errno_name(failure->error_number) : "error"),
           "EVIDENCE_STORAGE_UNWRITABLE", "write");
      if (!storage_failure_) storage_failure_ = *failure;
      return;
    }
    Artifact artifact = complete_artifact(item.kind, item.file, item.mime_type, bytes,
                                          item.started_at, now_text(), elapsed_ms(item.started));
    if (!command_id.empty()) {
      artifact.command_id = command_id;
      artifact.task_id = command_id;
    }
    manifest_.artifacts.push_back(std::move(artifact));
  }

  void fail(const Started& item, const std::string& message, const std::string& code,
            const std::string& stage) {
    manifest_.artifacts.push_back(failed_artifact(item.kind, item.file, item.mime_type, message,
                                                  item.started_at, now_text(),
                                                  elapsed_ms(item.started)));
    manifest_.errors.push_back({code, stage, message, item.kind});
  }

 private:
  const BundleDirectory& bundle_;
  Manifest& manifest_;
  std::optional<StorageError>& storage_failure_;
};

// The snapshot execution every capture sends: read-only, its ids named after the bundle.
contract::Outcome<contract::Execution> snapshot_execution(const std::string& evidence_id,
                                                          std::chrono::milliseconds timeout) {
  const std::string id = "evidence-" + evidence_id;
  const Json payload = {{"commandId", id},
                        {"taskId", id},
                        {"source", "clawperator-evidence"},
                        {"expectedFormat", "android-ui-automator"},
                        {"timeoutMs", timeout.count()},
                        {"actions", Json::array({{{"id", "hierarchy"}, {"type", "snapshot"}}})}};
  contract::ValidationOutcome validated = contract::validate_execution(payload);
  if (!validated.valid) return contract::failed(contract::validation_failure(validated.issues));
  return std::move(*validated.valid);
}

const Json* snapshot_step(const Json& envelope) {
  const auto steps = envelope.find("stepResults");
  if (steps == envelope.end() || !steps->is_array()) return nullptr;
  for (const Json& step : *steps) {
    if (step.is_object() && step.value("id", "") == "hierarchy") return &step;
  }
  return nullptr;
}

Json bundle_fields(const Manifest& manifest, const BundleDirectory& bundle) {
  return {{"status", manifest.status},
          {"evidenceId", manifest.evidence_id},
          {"bundleDir", bundle.path().string()},
          {"manifestPath", (bundle.path() / std::string(kManifestFileName)).string()},
          {"manifest", to_json(manifest)}};
}

}  // namespace

EvidenceReport capture_evidence(const CaptureRequest& request, process::Runner& runner) {
  Manifest manifest;
  manifest.evidence_id = io::random_uuid();
  manifest.label = request.label;
  manifest.context = request.context;
  manifest.started_at = now_text();
  manifest.device.operator_package = request.device.operator_package;
  manifest.device.cli_version = CLAWPERATOR_VERSION;

  // 1. The bundle, before anything reaches the device.
  std::filesystem::path where;
  if (request.output_dir) {
    where = *request.output_dir;
  } else if (auto root = default_bundles_directory(io::process_state_environment())) {
    where = *root / manifest.evidence_id;
  } else {
    return report_of(
        storage_error({"~/.clawperator/evidence/bundles", "find the home directory for", 0},
                      contract::Phase::Readiness));
  }
  auto created = BundleDirectory::create(where);
  if (!created) return report_of(storage_error(created.error(), contract::Phase::Readiness));
  const BundleDirectory& bundle = *created;
  std::optional<StorageError> storage_failure;
  ArtifactWriter writer(bundle, manifest, storage_failure);

  // 2. The hierarchy, through one execution (lock, readiness, result transport as for exec).
  auto execution = snapshot_execution(manifest.evidence_id, request.timeout);
  if (!execution) return report_of(execution.error());
  exec::ExecutionRequest run = request.device;
  run.execution = std::move(*execution);
  run.budget = request.timeout;
  const std::string command_id = run.execution.command_id;
  const auto hierarchy = ArtifactWriter::start("hierarchy", "hierarchy.xml", "application/xml");
  const auto envelopes =
      ArtifactWriter::start("capture_envelopes", "capture-envelopes.json", "application/json");
  exec::ExecutionReport report = exec::run_execution(run, runner);
  const Json& document = report.document;
  const auto envelope = document.find("envelope");
  std::optional<contract::HostError> execution_error;
  if (envelope == document.end()) {
    // Nothing came back: the execution's own error object says why.
    const std::string code = document.value("code", "INTERNAL_ERROR");
    const std::string message = document.value("message", "the snapshot execution failed");
    writer.fail(hierarchy, message, code, "execution");
    writer.fail(envelopes, message, code, "execution");
  } else {
    writer.store(envelopes, dump_json(Json::array({*envelope}), true) + "\n", command_id);
    // The bundle records whether the hierarchy it holds is provably the Operator's.
    if (const auto authenticity = document.find("resultAuthenticity");
        authenticity != document.end()) {
      manifest.result_authenticity = *authenticity;
    }
    const Json* step = snapshot_step(*envelope);
    const Json* text = step != nullptr && step->contains("data") && (*step)["data"].is_object()
                           ? &(*step)["data"]
                           : nullptr;
    if (text != nullptr && text->contains("text") && (*text)["text"].is_string() &&
        step->value("success", false)) {
      const std::string& xml = (*text)["text"].get_ref<const std::string&>();
      writer.store(hierarchy, xml, command_id);
      manifest.device.display.rotation = hierarchy_rotation(xml);
    } else {
      const std::string code =
          text != nullptr ? text->value("error", "SNAPSHOT_EXTRACTION_FAILED") : "ACTION_FAILED";
      writer.fail(hierarchy, "the snapshot step returned no hierarchy (" + code + ")", code,
                  "execution");
    }
  }

  // 3. The screenshot and the device's identity, once a device answered.
  const std::string serial = document.value("deviceId", "");
  if (!serial.empty()) {
    manifest.device.serial = serial;
    adb::AdbClient client(runner, request.device.adb);
    const auto screenshot = ArtifactWriter::start("screenshot", "screenshot.png", "image/png");
    if (auto capture = adb::capture_screen_png(client, serial); capture) {
      writer.store(screenshot, *capture, {});
    } else {
      writer.fail(screenshot, capture.error(), "EVIDENCE_CAPTURE_FAILED", "screenshot");
    }
    if (auto identity = read_device_identity(client, serial, manifest.device); !identity) {
      manifest.errors.push_back(
          {identity.error().code, "identity", identity.error().message, "device"});
    }
  } else if (envelope == document.end()) {
    manifest.device.serial = document.contains("details") && document["details"].is_object()
                                 ? document["details"].value("deviceId", "")
                                 : "";
  }

  // 4. The manifest, last.
  manifest.finished_at = now_text();
  manifest.status = final_status(manifest);
  if (auto failure = bundle.replace(kManifestFileName, manifest_text(manifest))) {
    contract::HostError error = storage_error(*failure, contract::Phase::PostProcessing);
    error.actions = {true, true};
    error.top_level = bundle_fields(manifest, bundle);
    error.top_level.erase("manifestPath");  // there is none
    return report_of(error);
  }
  Json fields = bundle_fields(manifest, bundle);
  if (manifest.status == "complete") {
    Json out = {{"ok", true}};
    out.update(fields);
    out["deviceId"] = serial;
    return {std::move(out), 0};
  }
  if (envelope == document.end()) {
    // The execution's error object as exec prints it (its code, disposition and exit code),
    // with the bundle that records the failed attempt.
    Json out = document;
    if (out.contains("details") && out["details"].is_object()) {
      out["details"]["evidenceId"] = manifest.evidence_id;
    }
    out.update(fields);
    return {std::move(out), report.exit_code};
  }
  contract::HostError error =
      storage_failure
          ? storage_error(*storage_failure, contract::Phase::PostProcessing)
          : contract::make_error(contract::Phase::PostProcessing, "EVIDENCE_CAPTURE_FAILED",
                                 "The evidence bundle is " + manifest.status + ": " +
                                     manifest.errors.front().message);
  error.details["evidenceId"] = manifest.evidence_id;
  error.details["errors"] = to_json(manifest)["errors"];
  // A capture only reads the screen: repeating it is always safe.
  error.actions = {true, true};
  error.top_level = std::move(fields);
  return report_of(error);
}

}  // namespace clawperator::evidence
