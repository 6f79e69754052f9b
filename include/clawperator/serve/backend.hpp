// What the routes run: the same validation and run_execution as the CLI, so that a route
// answers with the document the CLI prints for the same execution, and every execution is
// published on the event hub. Executions on one device queue on the device lock.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/serve/artifact_store.hpp"
#include "clawperator/serve/event_hub.hpp"
#include "clawperator/service/session.hpp"
#include "clawperator/skills/script_guard.hpp"

namespace clawperator::policy {
struct Policy;  // clawperator/policy/policy.hpp
}  // namespace clawperator::policy

namespace clawperator::serve {

struct BackendSettings {
  // What every request shares: adb, the default device and package, the state directory, the
  // result transport, the authenticity demand, the policy (null: none; a step it wants confirmed
  // is refused with a pending approval, which the same request's approvalId runs once a person
  // approved it: docs/guardrails.md §5), a skill script's guard and
  // the registry (serve --registry). The backend sets what a server decides itself: its callers
  // queue on a busy device, and its kept readers.
  service::Session session;
  std::shared_ptr<ArtifactStore> artifacts;  // where the server's screenshots go
  // Each device's logcat reader, kept between its requests as `mcp serve` keeps it
  // (docs/serve.md, "What is kept warm"); shared by the server's worker threads.
  std::shared_ptr<exec::WarmFollowers> warm_followers;
  // The approver credential (64 hex digits) the server showed on its own controlling terminal
  // only, in the approver link's fragment: POST /approvals/:id needs it beside the token. Empty:
  // the server had no terminal at start, and approves nothing over HTTP.
  std::string approver;
};

struct Reply {
  int status = 200;
  Json document;
  // Set after the body's redaction (contract::HostRedaction): what the server itself made for
  // the caller whose keys end in "path" but name no host file (/query's matches, whose `path`
  // is a node's place in the hierarchy).
  Json kept = Json::object();
};

class Backend {
 public:
  Backend(BackendSettings settings, EventHub& hub);

  Reply devices() const;
  Reply execute(std::string_view body) const;
  Reply snapshot(std::string_view body) const;
  Reply screenshot(std::string_view body) const;
  Reply query(std::string_view body) const;
  // GET /skills (app, intent, keyword: the query's filters) and GET /skills/:id, the documents
  // of `skills list|search` and `skills get`.
  Reply skills(const std::optional<std::string>& app, const std::optional<std::string>& intent,
               const std::optional<std::string>& keyword) const;
  Reply skill(std::string_view id) const;
  // POST /skills/:id/run: the document of `skills run` (docs/serve.md).
  Reply run_skill(std::string_view id, std::string_view body) const;
  // The /android routes (docs/serve.md, "Emulators"): `action` as `clawperator emulator`'s
  // (list, status, inspect, create, start, stop, delete, provision), `name` from the path, the
  // options from the body (POST) or the query (GET: api, target, abi, profile).
  Reply emulator(std::string_view action, std::string_view name, const Json& options) const;
  // The same with the options in a POST body (INVALID_JSON, INVALID_BODY as every route's).
  Reply emulator_post(std::string_view action, std::string_view name, std::string_view body) const;
  // Evidence (docs/serve.md, "Evidence"): POST /evidence/capture and POST /evidence/video
  // (bodies as the MCP tools' arguments), GET /evidence/video/:id and POST
  // /evidence/video/:id/stop. Bundles go to the default bundles directory; the replies name
  // each file by its URL under /evidence/:evidenceId/, never by a host path.
  Reply evidence_capture(std::string_view body) const;
  Reply evidence_video_start(std::string_view body) const;
  Reply evidence_video(std::string_view action, std::string_view session_id) const;
  // A file of a bundle this server made (manifest.json or an artefact its manifest lists),
  // opened for reading; nullopt for anything else.
  struct EvidenceFile {
    int fd = -1;  // the caller closes it
    std::uint64_t bytes = 0;
    std::string mime_type;
  };
  std::optional<EvidenceFile> evidence_file(std::string_view evidence_id,
                                            std::string_view name) const;
  // GET /approvals: the approvals nobody answered yet, in the server's state directory (those
  // its callers' refusals recorded, and any other of this user's).
  Reply approvals() const;
  // POST /approvals/:id with the body {"approve": true|false}: a person's answer, through the
  // inspector. `approver` is the request's X-Clawperator-Approver header: without the approver
  // credential (the API token alone) it is refused, 403 CONFIRMATION_APPROVER_REQUIRED.
  Reply approve(std::string_view id, std::optional<std::string_view> approver,
                std::string_view body) const;
  // POST /webview/ACTION (docs/serve.md, "WebViews"): `action` one of list, query, click,
  // type, eval, wait, screenshot; the body as the webview_* MCP tools' arguments. A screenshot
  // goes to the server's artifacts (artifactId, artifactUrl), never to a caller-named path.
  Reply webview(std::string_view action, std::string_view body) const;
  // POST /visual-text/ACTION (docs/serve.md, "Text on the screen"): `action` one of query,
  // click, wait, read; the body as the visual_text_* MCP tools' arguments.
  Reply visual_text(std::string_view action, std::string_view body) const;
  // A screenshot this server took, by its id; nullopt for any other id.
  std::optional<std::string> artifact(std::string_view id) const;

 private:
  Reply run(Json payload, const Json& body) const;

  // clawperator:approval {approvalId, state: pending} when `document` recorded one.
  void publish_approval(const Json& document) const;
  // `topic` {action, deviceId, status, ok, code} after a POST /webview or /visual-text request,
  // then its approval as publish_approval does.
  void publish_route_event(std::string_view topic, std::string_view action,
                           const Reply& reply) const;
  // Adds the URLs of a bundle's files and drops its host paths; remembers the bundle as ours.
  Reply evidence_reply(Json document) const;

  BackendSettings settings_;
  service::Session session_;  // what every execution shares, from settings_
  EventHub& hub_;
  // The bundles this server made: the only ones its file route serves.
  struct EvidenceIds {
    std::mutex mutex;
    std::set<std::string> ids;
  };
  std::shared_ptr<EvidenceIds> evidence_ids_;
};

}  // namespace clawperator::serve
