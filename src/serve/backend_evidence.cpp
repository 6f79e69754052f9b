// The evidence routes of the HTTP server (docs/serve.md, "Evidence"): the same requests as the
// CLI's and MCP's (src/evidence/), their bodies checked here, their replies naming the bundle's
// files by URL.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mutex>
#include <set>

#include "clawperator/contract/limits.hpp"
#include "clawperator/evidence/bundle.hpp"
#include "clawperator/evidence/capture.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/serve/backend.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/request_body.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/text.hpp"

namespace clawperator::serve {

namespace {

Reply evidence_error(const contract::HostError& error) {
  Json document = contract::to_json(error);
  const int status = http_status_of(document);
  return {status, std::move(document)};
}

contract::HostError invalid_body(std::string message, std::string_view field) {
  contract::HostError error = contract::validation_error("INVALID_BODY", std::move(message));
  error.details["field"] = std::string(field);
  return error;
}

// label and context, as the MCP tools bound them.
contract::Status read_label_and_context(const Json& body, std::optional<std::string>& label,
                                        Json& context) {
  if (const auto found = body.find("label"); found != body.end()) {
    if (!found->is_string())
      return contract::failed(invalid_body("label must be a string", "label"));
    if (auto problem = evidence::label_problem(found->get_ref<const std::string&>(), "label")) {
      return contract::failed(invalid_body(*problem, "label"));
    }
    label = found->get<std::string>();
  }
  if (const auto found = body.find("context"); found != body.end()) {
    if (auto problem = evidence::context_problem(*found, "context")) {
      return contract::failed(invalid_body(*problem, "context"));
    }
    context = *found;
  }
  return {};
}

std::optional<long long> whole_number(const Json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  return value.get<long long>();
}

}  // namespace

Reply Backend::evidence_capture(std::string_view body) const {
  auto parsed = parse_body(body, {"label", "context", "timeoutMs", "deviceId", "operatorPackage"});
  if (!parsed) return evidence_error(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return evidence_error(target.error());
  evidence::CaptureRequest request;
  if (auto refused = read_label_and_context(*parsed, request.label, request.context); !refused) {
    return evidence_error(refused.error());
  }
  if (const auto timeout = parsed->find("timeoutMs"); timeout != parsed->end()) {
    const auto value = whole_number(*timeout);
    if (!value || *value < contract::limits::kMinExecutionTimeoutMs ||
        *value > contract::limits::kMaxExecutionTimeoutMs) {
      return evidence_error(
          invalid_body("timeoutMs must be a whole number from 1000 to 120000", "timeoutMs"));
    }
    request.timeout = std::chrono::milliseconds(*value);
  }
  request.device = service::execution_base(session_, {target->device, target->operator_package},
                                           request.timeout);
  const auto runner = process::make_system_runner();
  Reply reply = evidence_reply(evidence::capture_evidence(request, *runner).document);
  Json event = {{"evidenceId", reply.document.value("evidenceId", Json())},
                {"status", reply.document.value("status", Json())},
                {"ok", reply.document.value("ok", false)}};
  hub_.publish("clawperator:evidence", event);
  return reply;
}

Reply Backend::evidence_video_start(std::string_view body) const {
  auto parsed = parse_body(body, {"durationSeconds", "size", "label", "context", "recorder",
                                  "deviceId", "operatorPackage"});
  if (!parsed) return evidence_error(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return evidence_error(target.error());
  evidence::VideoStartRequest request;
  const auto duration = whole_number(parsed->value("durationSeconds", Json()));
  if (!duration || *duration < evidence::kMinVideoSeconds ||
      *duration > evidence::kMaxVideoSeconds) {
    return evidence_error(
        invalid_body("durationSeconds must be a whole number from 1 to 180", "durationSeconds"));
  }
  request.duration_seconds = static_cast<int>(*duration);
  if (const auto size = parsed->find("size"); size != parsed->end()) {
    if (!size->is_string()) return evidence_error(invalid_body("size must be a string", "size"));
    if (auto problem = evidence::video_size_problem(size->get_ref<const std::string&>())) {
      return evidence_error(invalid_body(*problem, "size"));
    }
    request.size = size->get<std::string>();
  }
  if (const auto recorder = parsed->find("recorder"); recorder != parsed->end()) {
    const auto chosen = recorder->is_string()
                            ? evidence::parse_recorder(recorder->get_ref<const std::string&>())
                            : std::nullopt;
    if (!chosen) {
      return evidence_error(invalid_body("recorder must be screenrecord or scrcpy", "recorder"));
    }
    request.recorder = *chosen;
  }
  if (auto refused = read_label_and_context(*parsed, request.label, request.context); !refused) {
    return evidence_error(refused.error());
  }
  const service::DeviceChoice chosen =
      service::choose_device(session_, {target->device, target->operator_package});
  request.device = chosen.device;
  request.operator_package = chosen.operator_package;
  request.adb = session_.adb;
  request.state = session_.state;
  const auto runner = process::make_system_runner();
  Json started = evidence::start_video(request, *runner).document;
  if (const auto id = started.find("sessionId");
      started.value("ok", false) && id != started.end() && id->is_string()) {
    std::lock_guard lock(evidence_ids_->mutex);
    evidence_ids_->ids.insert(id->get<std::string>());
  }
  return evidence_reply(std::move(started));
}

Reply Backend::evidence_video(std::string_view action, std::string_view session_id) const {
  const std::string id(session_id);
  bool ours = false;
  {
    std::lock_guard lock(evidence_ids_->mutex);
    ours = evidence_ids_->ids.count(id) != 0;
  }
  // Only the sessions this server started: the CLI's and another server's, in the same state
  // directory, are not a caller's to read or stop (docs/serve.md, "Evidence").
  if (!ours) {
    return evidence_reply(contract::to_json(
        contract::make_error(contract::Phase::Usage, "EVIDENCE_SESSION_NOT_FOUND",
                             "No video session " + quote_json(id) + " was started by this server",
                             {{"sessionId", id}})));
  }
  return evidence_reply(action == "stop" ? evidence::stop_video(id, session_.state).document
                                         : evidence::video_status(id, session_.state).document);
}

Reply Backend::evidence_reply(Json document) const {
  const int status = http_status_of(document);
  const Json id = document.contains("evidenceId") ? document["evidenceId"]
                                                  : document.value("sessionId", Json());
  if (id.is_string() && document.value("manifest", Json()).is_object()) {
    const std::string base = "/evidence/" + id.get<std::string>() + "/";
    {
      std::lock_guard lock(evidence_ids_->mutex);
      evidence_ids_->ids.insert(id.get<std::string>());
    }
    Json files = Json::array();
    for (const Json& artifact : document["manifest"].value("artifacts", Json::array())) {
      Json file = {{"kind", artifact.value("kind", Json())},
                   {"status", artifact.value("status", Json())},
                   {"mimeType", artifact.value("mimeType", Json())},
                   {"bytes", artifact.value("bytes", Json())},
                   {"sha256", artifact.value("sha256", Json())}};
      if (artifact.value("status", "") == "complete") {
        file["url"] = base + artifact.value("path", "");
      }
      files.push_back(std::move(file));
    }
    document["manifestUrl"] = base + std::string(evidence::kManifestFileName);
    document["files"] = std::move(files);
  }
  document.erase("bundleDir");
  document.erase("manifestPath");
  if (document.contains("details") && document["details"].is_object()) {
    document["details"].erase("bundleDir");
  }
  return {status, std::move(document)};
}

std::optional<Backend::EvidenceFile> Backend::evidence_file(std::string_view evidence_id,
                                                            std::string_view name) const {
  {
    std::lock_guard lock(evidence_ids_->mutex);
    if (evidence_ids_->ids.count(std::string(evidence_id)) == 0) return std::nullopt;
  }
  const auto root = evidence::default_bundles_directory(io::process_state_environment());
  if (!root) return std::nullopt;
  auto bundle = evidence::BundleDirectory::open(*root / std::string(evidence_id));
  if (!bundle) return std::nullopt;
  std::string mime_type;
  if (name == evidence::kManifestFileName) {
    mime_type = "application/json";
  } else {
    std::string text;
    if (bundle->read(evidence::kManifestFileName, evidence::kMaxManifestBytes, text)) {
      return std::nullopt;
    }
    const Json manifest = parse_json(text);
    if (!manifest.is_object()) return std::nullopt;
    for (const Json& artifact : manifest.value("artifacts", Json::array())) {
      if (artifact.is_object() && artifact.value("path", "") == name &&
          artifact.value("status", "") == "complete") {
        mime_type = artifact.value("mimeType", "application/octet-stream");
      }
    }
    if (mime_type.empty() || !evidence::is_artifact_file_name(name)) return std::nullopt;
  }
  const int fd = ::openat(bundle->fd(), std::string(name).c_str(),
                          O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  return EvidenceFile{fd, static_cast<std::uint64_t>(status.st_size), std::move(mime_type)};
}

}  // namespace clawperator::serve
