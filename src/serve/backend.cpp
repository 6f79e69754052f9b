#include "clawperator/serve/backend.hpp"

#include <unistd.h>

#include <atomic>

#include "clawperator/contract/caller_paths.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/emulator/request.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/account_home.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/node_query.hpp"
#include "clawperator/serve/request_body.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/service/devices.hpp"
#include "clawperator/service/document.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/service/skills.hpp"
#include "clawperator/service/visual_text.hpp"
#include "clawperator/service/webview.hpp"
#include "clawperator/skills/queries.hpp"
#include "clawperator/text.hpp"

namespace clawperator::serve {
namespace {

Reply error_reply(const contract::HostError& error) {
  Json document = contract::to_json(error);
  const int status = http_status_of(document);
  return {status, std::move(document)};
}

// The approval a 428 CONFIRMATION_REQUIRED recorded (docs/serve.md §7); its older name too.
std::optional<std::string> approval_of(const Json& body) {
  for (const char* key : {"approvalId", "confirmToken"}) {
    if (const auto id = body.find(key); id != body.end()) {
      return id->is_string() ? id->get<std::string>() : std::string();
    }
  }
  return std::nullopt;
}

Json action_types(const Json& payload) {
  Json types = Json::array();
  const auto actions = payload.find("actions");
  if (actions == payload.end() || !actions->is_array()) return types;
  for (const Json& action : *actions) {
    const auto type = action.is_object() ? action.find("type") : action.end();
    types.push_back(action.is_object() && type != action.end() ? *type : Json(nullptr));
  }
  return types;
}

}  // namespace

Backend::Backend(BackendSettings settings, EventHub& hub)
    : settings_(std::move(settings)), hub_(hub), evidence_ids_(std::make_shared<EvidenceIds>()) {
  // Requests for a busy device queue on its lock, within their own budget; a confirm rule's
  // refusal records an approval a person grants (`clawperator approve`, the inspector's
  // approver link), which the same request's approvalId then runs once (docs/serve.md).
  session_ = service::server_session(settings_.session, settings_.warm_followers.get());
  session_.record_approvals = true;
}

namespace {

// A service's answer as a reply: the document every front end sends, with its catalog status.
Reply reply_of(contract::Outcome<Json> outcome) {
  Json document = service::document_of(std::move(outcome));
  const int status = http_status_of(document);
  return {status, std::move(document)};
}

}  // namespace

Reply Backend::devices() const {
  return reply_of(service::list_devices(session_.adb));
}

Reply Backend::skills(const std::optional<std::string>& app,
                      const std::optional<std::string>& intent,
                      const std::optional<std::string>& keyword) const {
  skills::SearchFilter filter;
  filter.app = app;
  filter.intent = intent;
  filter.keyword = keyword;
  return reply_of(service::skills_list(session_, filter));
}

Reply Backend::skill(std::string_view id) const {
  if (contract::Status usable = skills::check_skill_id(id); !usable) {
    return error_reply(usable.error());
  }
  return reply_of(service::skills_get(session_, std::string(id)));
}

Reply Backend::run_skill(std::string_view id, std::string_view body) const {
  if (contract::Status usable = skills::check_skill_id(id); !usable) {
    return error_reply(usable.error());
  }
  auto parsed = parse_body(
      body, {"args", "expectContains", "skipValidate", "timeoutMs", "deviceId", "operatorPackage"});
  if (!parsed) return error_reply(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return error_reply(target.error());
  auto options = service::read_skill_run(*parsed);
  if (!options) return error_reply(options.error());
  service::SkillRun run;
  run.skill_id = std::string(id);
  run.arguments = std::move(*options);
  run.target = {target->device, target->operator_package};
  skills::SkillRunReport result = service::run_skill(session_, run, {});
  // The same names as MCP's skills_run, which the redaction keeps, on success and failure.
  service::name_script_output_for_remote(result.document);
  const int status = http_status_of(result.document);
  Json event = Json::object();
  event["skillId"] = run.skill_id;
  event["deviceId"] = result.document.value("deviceId", Json(nullptr));
  event["status"] = status;
  event["ok"] = result.document.value("ok", false);
  event["code"] = result.document.value("code", Json(nullptr));
  hub_.publish("clawperator:skill", event);
  return {status, std::move(result.document)};
}

void Backend::publish_approval(const Json& document) const {
  // A refusal that waits for a person: the inspector shows it at once.
  if (document.value("code", "") == "CONFIRMATION_REQUIRED") {
    const Json& details = document["details"];
    if (details.is_object() && details.contains("approvalId")) {
      hub_.publish("clawperator:approval",
                   Json{{"approvalId", details["approvalId"]}, {"state", "pending"}});
    }
  }
}

void Backend::publish_route_event(std::string_view topic, std::string_view action,
                                  const Reply& reply) const {
  hub_.publish(std::string(topic),
               Json{{"action", std::string(action)},
                    {"deviceId", reply.document.value("deviceId", Json(nullptr))},
                    {"status", reply.status},
                    {"ok", reply.document.value("ok", false)},
                    {"code", reply.document.value("code", Json(nullptr))}});
  publish_approval(reply.document);
}

Reply Backend::webview(std::string_view action, std::string_view body) const {
  const std::optional<service::WebviewAction> chosen = service::parse_webview_action(action);
  if (!chosen) return error_reply(contract::usage_error("ROUTE_NOT_FOUND", "No such route"));
  // Every field of the table: one another action takes is refused by the reader, by name.
  std::vector<std::string_view> allowed = {"deviceId", "operatorPackage", "approvalId"};
  for (const service::WebviewField& field : service::webview_fields()) {
    allowed.push_back(field.name);
  }
  auto parsed = parse_body(body, allowed);
  if (!parsed) return error_reply(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return error_reply(target.error());
  auto request = service::read_webview_arguments(*chosen, *parsed);
  if (!request) return error_reply(request.error());
  request->approval_id = approval_of(*parsed);
  const bool screenshot = *chosen == service::WebviewAction::Screenshot;
  if (screenshot && settings_.artifacts) {
    request->screenshot_path = settings_.artifacts->new_screenshot_path();
  }
  Reply reply = reply_of(
      service::run_webview(session_, {target->device, target->operator_package}, *request, {}));
  if (screenshot && settings_.artifacts) settings_.artifacts->adopt_file(reply.document);
  // A screenshot's file on this host is not the caller's business; without a store (a server
  // always has one: serve_entry.cpp) nobody could fetch it, so it goes.
  if (const auto path = reply.document.find("path"); path != reply.document.end()) {
    if (path->is_string()) {
      std::error_code ignored;
      std::filesystem::remove(path->get<std::string>(), ignored);
    }
    reply.document.erase(path);
  }
  publish_route_event("clawperator:webview", action, reply);
  return reply;
}

Reply Backend::visual_text(std::string_view action, std::string_view body) const {
  const std::optional<service::VisualTextAction> chosen = service::parse_visual_text_action(action);
  if (!chosen) return error_reply(contract::usage_error("ROUTE_NOT_FOUND", "No such route"));
  std::vector<std::string_view> allowed = {"deviceId", "operatorPackage", "approvalId"};
  for (const service::VisualTextField& field : service::visual_text_fields()) {
    allowed.push_back(field.name);
  }
  auto parsed = parse_body(body, allowed);
  if (!parsed) return error_reply(parsed.error());
  auto target = read_target(*parsed);
  if (!target) return error_reply(target.error());
  auto request = service::read_visual_text_arguments(*chosen, *parsed);
  if (!request) return error_reply(request.error());
  request->approval_id = approval_of(*parsed);
  const auto runner = process::make_system_runner();
  exec::ExecutionReport report = service::run_visual_text(
      session_, {target->device, target->operator_package}, *request, *runner);
  Reply reply{http_status_of(report.document), std::move(report.document)};
  publish_route_event("clawperator:visual-text", action, reply);
  return reply;
}

Reply Backend::emulator(std::string_view action, std::string_view name, const Json& options) const {
  auto request = emulator::request_from_json(std::string(action), std::string(name), options);
  if (!request) return error_reply(request.error());
  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, session_.adb);
  std::optional<std::filesystem::path> log_directory;
  if (session_.state.directory) log_directory = session_.state.directory->path();
  auto document = emulator::run_request(*request, *runner, client, log_directory);
  if (!document) return error_reply(document.error());
  Json out = Json::object();
  out["ok"] = true;
  for (auto& [key, value] : document->items()) out[key] = std::move(value);
  Json event = Json::object();
  event["action"] = std::string(action);
  if (!name.empty()) event["name"] = std::string(name);
  if (out.contains("serial")) event["serial"] = out["serial"];
  hub_.publish("clawperator:emulator", event);
  return {200, std::move(out)};
}

Reply Backend::emulator_post(std::string_view action, std::string_view name,
                             std::string_view body) const {
  // Every field of every action; emulator::request_from_json refuses one the action does not
  // take.
  auto parsed =
      parse_body(body, {"api", "target", "abi", "profile", "headless", "wipe", "keepAnimations",
                        "bootTimeoutMs", "emulatorArgs", "name", "force", "stopTimeoutMs"});
  if (!parsed) return error_reply(parsed.error());
  return emulator(action, name, *parsed);
}

Reply Backend::execute(std::string_view body) const {
  auto parsed =
      parse_body(body, {"execution", "deviceId", "operatorPackage", "approvalId", "confirmToken"});
  if (!parsed) return error_reply(parsed.error());
  // confirmToken is approvalId's older name: both may be given only with one value.
  const auto id = parsed->find("approvalId");
  const auto alias = parsed->find("confirmToken");
  if (id != parsed->end() && alias != parsed->end() && *id != *alias) {
    return error_reply(contract::field_error(
        "INVALID_BODY", "approvalId and confirmToken (its older name) differ", "approvalId"));
  }
  auto execution = read_execution(*parsed);
  if (!execution) return error_reply(execution.error());
  // Refused before anything runs, as the MCP server refuses it; in each payload of a sequence.
  if (contract::is_sequence(*execution) && (*execution)["executions"].is_array()) {
    const Json& executions = (*execution)["executions"];
    for (std::size_t index = 0; index < executions.size(); ++index) {
      if (!executions[index].is_object()) continue;  // admit_sequence names it
      if (auto path = contract::find_caller_host_path(executions[index].value("actions", Json()))) {
        path->path = "executions." + std::to_string(index) + "." + path->path;
        return error_reply(contract::validation_failure({*path}));
      }
    }
  } else if (auto path = contract::find_caller_host_path(execution->value("actions", Json()))) {
    return error_reply(contract::validation_failure({*path}));
  }
  return run(std::move(*execution), *parsed);
}

Reply Backend::snapshot(std::string_view body) const {
  auto parsed = parse_body(body, {"deviceId", "operatorPackage"});
  if (!parsed) return error_reply(parsed.error());
  return run(service::build_snapshot(service::make_id_stamp()), *parsed);
}

Reply Backend::screenshot(std::string_view body) const {
  auto parsed = parse_body(body, {"deviceId", "operatorPackage"});
  if (!parsed) return error_reply(parsed.error());
  // Always into the server's own store: a caller never names a file on this host.
  return run(service::build_screenshot(service::make_id_stamp(), std::nullopt, std::nullopt),
             *parsed);
}

Reply Backend::query(std::string_view body) const {
  auto parsed = parse_body(body, {"matcher", "deviceId", "operatorPackage"});
  if (!parsed) return error_reply(parsed.error());
  auto matcher = read_matcher(*parsed);
  if (!matcher) return error_reply(matcher.error());
  Json query_body = *parsed;
  query_body.erase("matcher");
  Reply snapshot = run(service::build_snapshot(service::make_id_stamp()), query_body);
  if (snapshot.status != 200 || snapshot.document.value("ok", false) != true) return snapshot;
  auto nodes = query_nodes(snapshot_xml(snapshot.document), *matcher);
  if (!nodes) return error_reply(nodes.error());
  Json out = Json::object();
  out["ok"] = true;
  out["deviceId"] = snapshot.document["deviceId"];
  out["matcher"] = contract::to_json(*matcher);
  out["count"] = (*nodes)["count"];
  out["snapshotCommandId"] = snapshot.document["envelope"].value("commandId", "");
  Reply reply{200, std::move(out)};
  reply.kept["matches"] = std::move((*nodes)["matches"]);
  return reply;
}

Reply Backend::approvals() const {
  if (!session_.state.directory) return {200, Json{{"ok", true}, {"approvals", Json::array()}}};
  Json listed = Json::array();
  for (const policy::Approval& approval : policy::pending_approvals(*session_.state.directory)) {
    listed.push_back(policy::describe_approval(approval));
  }
  return {200, Json{{"ok", true}, {"approvals", std::move(listed)}}};
}

Reply Backend::approve(std::string_view id, std::optional<std::string_view> approver,
                       std::string_view body) const {
  // First, before the body or the id is looked at: only the holder of the approver link.
  if (settings_.approver.empty() || !approver ||
      !tokens_equal(trim(*approver), settings_.approver)) {
    contract::HostError error = contract::readiness_error(
        "CONFIRMATION_APPROVER_REQUIRED",
        settings_.approver.empty()
            ? "This server approves nothing over HTTP: it had no terminal at start to show a "
              "person its approver link. A person approves with `clawperator approve` on this "
              "host"
            : "Approving needs the approver credential (X-Clawperator-Approver) that only the "
              "server's terminal showed, in its approver link; the API token alone cannot approve");
    error.details["approvalId"] = std::string(id);
    return error_reply(error);
  }
  auto parsed = parse_body(body, {"approve"});
  if (!parsed) return error_reply(parsed.error());
  const auto answer = parsed->find("approve");
  if (answer == parsed->end() || !answer->is_boolean()) {
    return error_reply(
        contract::field_error("INVALID_BODY", "The body needs approve: true or false", "approve"));
  }
  const bool approve = answer->get<bool>();
  const auto unknown = [id](const std::string& why) {
    contract::HostError error = contract::readiness_error(
        "CONFIRMATION_UNKNOWN", "Approval " + std::string(id) + " is " + why);
    error.details["approvalId"] = std::string(id);
    return error_reply(error);
  };
  if (!session_.state.directory) return unknown("unknown: this server has no state directory");
  const io::StateDirectory& state = *session_.state.directory;
  const std::optional<policy::Approval> approval = policy::find_approval(state, id);
  if (!approval) return unknown("unknown, used or expired");
  if (approval->state != policy::ApprovalState::Pending) {
    return unknown("already " + std::string(policy::to_string(approval->state)));
  }
  switch (policy::answer_approval(state, *approval, approve,
                                  {"inspector", io::account_name(::getuid())})) {
    case policy::AnswerOutcome::Recorded:
      break;
    case policy::AnswerOutcome::Gone:
      return unknown("used, expired or spent meanwhile");
    case policy::AnswerOutcome::AlreadyAnswered:
      return unknown("already answered");
    case policy::AnswerOutcome::Failed:
      return error_reply(contract::usage_error(
          "INTERNAL_ERROR", "The answer could not be written to the state directory"));
  }
  const std::string now_state = approve ? "approved" : "declined";
  hub_.publish("clawperator:approval", Json{{"approvalId", std::string(id)}, {"state", now_state}});
  return {200, Json{{"ok", true},
                    {"approvalId", std::string(id)},
                    {"approved", approve},
                    {"state", now_state}}};
}

std::optional<std::string> Backend::artifact(std::string_view id) const {
  return settings_.artifacts ? settings_.artifacts->read(id) : std::nullopt;
}

namespace {

// The approval a body names: approvalId, or confirmToken, its older name.
}  // namespace

Reply Backend::run(Json payload, const Json& body) const {
  auto target = read_target(body);
  if (!target) return error_reply(target.error());
  const bool sequence = contract::is_sequence(payload);
  Json event = Json::object();
  Json types = Json::array();
  if (sequence && payload["executions"].is_array()) {
    const Json& executions = payload["executions"];
    event["commandId"] = executions.empty() || !executions[0].is_object()
                             ? Json(nullptr)
                             : executions[0].value("commandId", Json(nullptr));
    for (const Json& execution : executions) {
      for (Json& type : action_types(execution)) types.push_back(std::move(type));
    }
  } else {
    event["commandId"] = payload.value("commandId", Json(nullptr));
    types = action_types(payload);
  }
  event["deviceId"] = target->device ? Json(*target->device) : Json(nullptr);
  event["actionTypes"] = std::move(types);

  Reply reply;
  const service::Target chosen{target->device, target->operator_package};
  const auto runner = process::make_system_runner();
  std::optional<exec::ExecutionReport> report;
  if (sequence) {
    auto admitted = contract::admit_sequence(payload, {}, service::fresh_id_random);
    if (!admitted) {
      reply = error_reply(admitted.error());
    } else {
      service::SequenceCall call;
      call.sequence = std::move(*admitted);
      call.target = chosen;
      call.approval_id = approval_of(body);
      if (settings_.artifacts) {
        for (contract::Execution& part : call.sequence.executions) {
          settings_.artifacts->direct_screenshots(part);
        }
      }
      report = service::run_sequence(session_, std::move(call), *runner);
    }
  } else if (auto admitted = contract::admit_execution(payload, {}, service::fresh_id_random);
             !admitted) {
    reply = error_reply(admitted.error());
  } else {
    service::ExecutionCall call;
    call.execution = std::move(*admitted);
    call.target = chosen;
    call.approval_id = approval_of(body);
    if (settings_.artifacts) settings_.artifacts->direct_screenshots(call.execution);
    report = service::run_execution(session_, std::move(call), *runner);
  }
  if (report) {
    reply.status = http_status_of(report->document);
    reply.document = std::move(report->document);
    if (settings_.artifacts) {
      settings_.artifacts->adopt(reply.document);
      if (auto parts = reply.document.find("executions"); parts != reply.document.end()) {
        for (Json& part : *parts) settings_.artifacts->adopt(part);
      }
    }
  }

  if (const auto device = reply.document.find("deviceId"); device != reply.document.end()) {
    event["deviceId"] = *device;
  }
  event["status"] = reply.status;
  event["ok"] = reply.document.value("ok", false);
  event["result"] = reply.document;
  hub_.publish("clawperator:execution", event);
  publish_approval(reply.document);
  // Only an Operator's envelope is a result: host failures never become one. A sequence's
  // payloads each had theirs.
  const auto publish_envelope = [&](const Json& document) {
    if (const auto envelope = document.find("envelope");
        envelope != document.end() && envelope->is_object()) {
      Json result = Json::object();
      result["deviceId"] = event["deviceId"];
      result["envelope"] = *envelope;
      hub_.publish("clawperator:result", result);
    }
  };
  if (const auto parts = reply.document.find("executions");
      parts != reply.document.end() && parts->is_array()) {
    for (const Json& part : *parts) publish_envelope(part);
  }
  publish_envelope(reply.document);
  return reply;
}

}  // namespace clawperator::serve
