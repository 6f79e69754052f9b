#include "clawperator/evidence/manifest.hpp"

#include <algorithm>

#include "clawperator/text.hpp"
#include "clawperator/transport/sha256.hpp"
#include "clawperator/utf8.hpp"

namespace clawperator::evidence {
namespace {

template <typename T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json to_json(const DeviceIdentity& device) {
  return {{"serial", device.serial},
          {"operatorPackage", device.operator_package},
          {"cliVersion", device.cli_version},
          {"operatorVersion", or_null(device.operator_version)},
          {"apiLevel", or_null(device.api_level)},
          {"androidVersion", or_null(device.android_version)},
          {"manufacturer", or_null(device.manufacturer)},
          {"model", or_null(device.model)},
          {"deviceType", device_type(device)},
          {"deviceTypeProperties",
           {{"ro.kernel.qemu", or_null(device.kernel_qemu)},
            {"ro.boot.qemu", or_null(device.boot_qemu)}}},
          {"display",
           {{"width", or_null(device.display.width)},
            {"height", or_null(device.display.height)},
            {"density", or_null(device.display.density)},
            {"rotation", or_null(device.display.rotation)}}}};
}

std::size_t utf16_units(std::string_view text) {
  std::size_t units = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    const char32_t code = decode_utf8_at(text, at, length);
    units += code >= 0x10000 ? 2 : 1;
    at += length;
  }
  return units;
}

}  // namespace

Json to_json(const Artifact& artifact) {
  Json out = {{"kind", artifact.kind},
              {"path", artifact.path},
              {"mimeType", artifact.mime_type},
              {"status", artifact.status},
              {"bytes", or_null(artifact.bytes)},
              {"sha256", or_null(artifact.sha256)},
              {"startedAt", artifact.started_at},
              {"finishedAt", artifact.finished_at},
              {"durationMs", artifact.duration_ms}};
  if (artifact.command_id) out["commandId"] = *artifact.command_id;
  if (artifact.task_id) out["taskId"] = *artifact.task_id;
  if (artifact.error) out["error"] = *artifact.error;
  return out;
}

Json to_json(const ManifestError& error) {
  return {{"code", error.code},
          {"stage", error.stage},
          {"message", error.message},
          {"component", error.component}};
}

std::string device_type(const DeviceIdentity& identity) {
  if (identity.kernel_qemu == "1" || identity.boot_qemu == "1") return "emulator";
  if (identity.kernel_qemu && identity.boot_qemu) return "physical";
  return "unknown";
}

Json to_json(const Manifest& manifest) {
  Json artifacts = Json::array();
  for (const Artifact& artifact : manifest.artifacts) artifacts.push_back(to_json(artifact));
  Json errors = Json::array();
  for (const ManifestError& error : manifest.errors) errors.push_back(to_json(error));
  Json out = {
      {"schemaVersion", kManifestSchemaVersion},
      {"evidenceId", manifest.evidence_id},
      {"label", or_null(manifest.label)},
      {"context", manifest.context.is_object() ? manifest.context : Json(nullptr)},
      {"device", to_json(manifest.device)},
      {"startedAt", manifest.started_at},
      {"finishedAt", manifest.finished_at.empty() ? Json(nullptr) : Json(manifest.finished_at)}};
  if (manifest.video) out["video"] = *manifest.video;
  if (manifest.result_authenticity) out["resultAuthenticity"] = *manifest.result_authenticity;
  out["status"] = manifest.status;
  out["artifacts"] = std::move(artifacts);
  out["errors"] = std::move(errors);
  return out;
}

std::string manifest_text(const Manifest& manifest) {
  return dump_json(to_json(manifest), true) + "\n";
}

Artifact complete_artifact(std::string kind, std::string path, std::string mime_type,
                           std::string_view bytes, std::string started_at, std::string finished_at,
                           long long duration_ms) {
  Artifact artifact;
  artifact.kind = std::move(kind);
  artifact.path = std::move(path);
  artifact.mime_type = std::move(mime_type);
  artifact.bytes = bytes.size();
  artifact.sha256 = transport::sha256_hex(bytes);
  artifact.started_at = std::move(started_at);
  artifact.finished_at = std::move(finished_at);
  artifact.duration_ms = duration_ms;
  return artifact;
}

Artifact failed_artifact(std::string kind, std::string path, std::string mime_type,
                         std::string error, std::string started_at, std::string finished_at,
                         long long duration_ms) {
  Artifact artifact = complete_artifact(std::move(kind), std::move(path), std::move(mime_type), {},
                                        std::move(started_at), std::move(finished_at), duration_ms);
  artifact.status = "failed";
  artifact.bytes.reset();
  artifact.sha256.reset();
  artifact.error = std::move(error);
  return artifact;
}

std::string final_status(const Manifest& manifest) {
  const auto complete = [](const Artifact& artifact) { return artifact.status == "complete"; };
  const bool none = std::none_of(manifest.artifacts.begin(), manifest.artifacts.end(), complete);
  if (none) return "failed";
  const bool all = std::all_of(manifest.artifacts.begin(), manifest.artifacts.end(), complete);
  return all && manifest.errors.empty() ? "complete" : "partial";
}

Expected<void, Problem> check_label(std::string_view label, std::string_view label_name) {
  if (find_invalid_utf8(label)) {
    return Unexpected(Problem{"", std::string(label_name) + " is not valid UTF-8"});
  }
  if (utf16_units(label) > kMaxLabelUtf16Units) {
    return Unexpected(Problem{"", std::string(label_name) + " is longer than " +
                                      std::to_string(kMaxLabelUtf16Units) + " UTF-16 code units"});
  }
  return {};
}

Expected<void, Problem> check_context(const Json& context, std::string_view context_name) {
  if (!context.is_object()) {
    return Unexpected(Problem{"", std::string(context_name) + " must be a JSON object"});
  }
  if (dump_json(context).size() > kMaxContextBytes) {
    return Unexpected(Problem{"", std::string(context_name) + " is larger than " +
                                      std::to_string(kMaxContextBytes) + " bytes as compact JSON"});
  }
  return {};
}

}  // namespace clawperator::evidence
