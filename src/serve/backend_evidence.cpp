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
#include "clawperator/service/evidence.hpp"
#include "clawperator/text.hpp"

namespace clawperator::serve {

namespace {

Reply evidence_error(const contract::HostError& error) {
  Json document = contract::to_json(error);
  const int status = http_status_of(document);
  return {status, std::move(document)};
}

}  // namespace

Reply Backend::evidence_capture(std::string_view body) const {
  auto parsed = parse_body(body, {"label", "context", "timeoutMs", "deviceId", "operatorPackage"});
  if (!parsed) return evidence_error(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return evidence_error(target.error());
  auto arguments = service::read_capture_arguments(*parsed);
  if (!arguments) return evidence_error(arguments.error());
  Reply reply =
      evidence_reply(service::capture_evidence(session_, {target->device, target->operator_package},
                                               std::move(*arguments))
                         .document);
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
  auto arguments = service::read_video_start_arguments(*parsed);
  if (!arguments) return evidence_error(arguments.error());
  Json started = service::start_video(session_, {target->device, target->operator_package},
                                      std::move(*arguments))
                     .document;
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
