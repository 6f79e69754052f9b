#include "clawperator/service/compact_snapshot.hpp"

#include "clawperator/io/atomic_file.hpp"

namespace clawperator::service {
namespace {

contract::HostError compact_failure(std::string code, std::string message, Json envelope,
                                    const std::optional<std::string>& raw_path) {
  Json details = Json::object();
  details["commandId"] = envelope.value("commandId", "");
  details["taskId"] = envelope.value("taskId", "");
  if (raw_path) details["rawArtifactPath"] = *raw_path;
  details["envelope"] = std::move(envelope);
  contract::HostError error = contract::make_error(contract::Phase::PostProcessing, std::move(code),
                                                   std::move(message), std::move(details));
  error.dispatch_state = contract::DispatchState::Dispatched;
  return error;
}

}  // namespace

contract::Outcome<Json> compact_snapshot_document(Json document,
                                                  const hierarchy::CompactOptions& options,
                                                  const std::optional<std::string>& raw_path) {
  Json& envelope = document["envelope"];
  Json* data = nullptr;
  for (Json& step : envelope["stepResults"]) {
    if (step.value("actionType", "") == "snapshot" && step["data"].contains("text")) {
      data = &step["data"];
    }
  }
  if (data == nullptr) {
    return contract::failed(compact_failure("SNAPSHOT_EXTRACTION_FAILED",
                                            "The snapshot step carries no UI hierarchy to project",
                                            std::move(envelope), std::nullopt));
  }
  const std::string xml = (*data)["text"].get<std::string>();
  data->erase("text");
  if (raw_path) {
    if (auto written = io::write_exclusive_file(*raw_path, xml); !written) {
      return contract::failed(compact_failure(
          "SNAPSHOT_ARTIFACT_WRITE_FAILED",
          "Cannot write the raw hierarchy to " + *raw_path + ": " + written.error().message,
          std::move(envelope), std::nullopt));
    }
  }
  auto projected = hierarchy::project_compact_snapshot(xml, options);
  if (!projected) {
    return contract::failed(
        compact_failure("SNAPSHOT_EXTRACTION_FAILED",
                        "The UI hierarchy could not be projected: " + projected.error().text(),
                        std::move(envelope), raw_path));
  }
  Json out = Json::object();
  out["schemaVersion"] = 1;
  out["commandId"] = envelope.value("commandId", "");
  out["taskId"] = envelope.value("taskId", "");
  for (auto& [key, value] : projected->items()) {
    if (key != "schemaVersion") out[key] = std::move(value);
  }
  if (raw_path) out["rawArtifactPath"] = *raw_path;
  document["compact"] = std::move(out);
  return document;
}

}  // namespace clawperator::service
