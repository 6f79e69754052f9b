#include "post_processing.hpp"

#include <algorithm>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "payload_decoder.hpp"

namespace clawperator::exec {

using transport::Envelope;
using transport::StepResult;

bool is_snapshot_step(const StepResult& step) {
  const contract::ActionSpec* spec = contract::find_action(step.actionType);
  return spec != nullptr && spec->post_processing == contract::PostProcessing::AttachSnapshot;
}

namespace {

// A JSON integer >= 0 (what the counts are).
std::optional<std::uint64_t> count_of(const Json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_number_integer() && it->get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(it->get<std::int64_t>());
  }
  return std::nullopt;
}

// Why `text` is not a query result of schema 1 (docs/payload.md §10.1); empty when it is one.
std::string query_problem(const Json& query) {
  if (!query.is_object()) return "data.query is not a JSON object";
  const auto version = query.find("schemaVersion");
  if (version == query.end() || !version->is_number_integer() || version->get<int>() != 1) {
    return "data.query.schemaVersion is not 1";
  }
  const auto total = count_of(query, "totalMatches");
  const auto returned = count_of(query, "returnedCount");
  if (!total || !returned) return "data.query counts are not non-negative integers";
  const auto nodes = query.find("nodes");
  if (nodes == query.end() || !nodes->is_array()) return "data.query.nodes is not an array";
  if (nodes->size() != *returned) return "data.query.returnedCount differs from its nodes";
  if (*returned > *total) return "data.query.returnedCount exceeds totalMatches";
  const auto truncated = query.find("truncated");
  if (truncated == query.end() || !truncated->is_boolean()) {
    return "data.query.truncated is not a boolean";
  }
  if (truncated->get<bool>() != (*returned < *total)) {
    return "data.query.truncated disagrees with its counts";
  }
  for (const Json& node : *nodes) {
    if (!node.is_object()) return "data.query.nodes holds a value that is not an object";
  }
  return {};
}

}  // namespace

Expected<std::optional<Json>, QueryError> parsed_query(const Envelope& envelope) {
  std::optional<Json> last;
  for (const StepResult& step : envelope.steps) {
    const contract::ActionSpec* spec = contract::find_action(step.actionType);
    if (spec == nullptr || spec->post_processing != contract::PostProcessing::ParseQuery ||
        !step.success) {
      continue;
    }
    const std::string* text = step.data_value("query");
    if (text == nullptr) return Unexpected{QueryError{step.id, "data.query is missing"}};
    Json query = parse_json(*text);
    if (query.is_discarded()) {
      return Unexpected{QueryError{step.id, "data.query is not valid JSON"}};
    }
    if (std::string problem = query_problem(query); !problem.empty()) {
      return Unexpected{QueryError{step.id, std::move(problem)}};
    }
    last = std::move(query);
  }
  return last;
}

void set_step_data(StepResult& step, const std::string& key, std::string value) {
  for (auto& [existing, current] : step.data) {
    if (existing == key) {
      current = std::move(value);
      return;
    }
  }
  step.data.emplace_back(key, std::move(value));
}

void erase_step_data(StepResult& step, const std::string& key) {
  step.data.erase(std::remove_if(step.data.begin(), step.data.end(),
                                 [&](const auto& entry) { return entry.first == key; }),
                  step.data.end());
}

void attach_snapshots(Envelope& envelope, const std::vector<std::string>& blocks) {
  std::vector<StepResult*> waiting;
  for (StepResult& step : envelope.steps) {
    if (is_snapshot_step(step) && step.success && step.data_value("text") == nullptr) {
      waiting.push_back(&step);
    }
  }
  // The last dump belongs to the last snapshot step; extra older dumps are ignored.
  auto block = blocks.rbegin();
  for (auto step = waiting.rbegin(); step != waiting.rend() && block != blocks.rend();
       ++step, ++block) {
    set_step_data(**step, "text", *block);
  }
  for (StepResult* step : waiting) {
    if (step->data_value("text") != nullptr) continue;
    step->success = false;
    set_step_data(*step, "error", "SNAPSHOT_EXTRACTION_FAILED");
    set_step_data(*step, "message",
                  "UI hierarchy extraction produced no output for this step. Check clawperator "
                  "version compatibility and logcat extraction health.");
    set_step_data(*step, "failurePhase", "post_processing");
    set_step_data(*step, "dispatchState", "dispatched");
  }
}

void normalize_close_app(Envelope& envelope, const contract::Execution& execution,
                         const std::set<std::string>& force_stopped_action_ids) {
  for (StepResult& step : envelope.steps) {
    if (step.actionType != "close_app" || step.success) continue;
    const std::string* error = step.data_value("error");
    if (error == nullptr || *error != "UNSUPPORTED_RUNTIME_CLOSE") continue;
    if (force_stopped_action_ids.count(step.id) == 0) continue;
    std::string package;
    for (const contract::Action& action : execution.actions) {
      if (action.id == step.id) package = action.params_or_empty().application_id.value_or("");
    }
    step.success = true;
    step.data.clear();
    step.data.emplace_back("application_id", package);
  }
}

void add_settle_warnings(Envelope& envelope, const contract::Execution& execution) {
  const std::vector<contract::Action>& actions = execution.actions;
  for (StepResult& step : envelope.steps) {
    if (!is_snapshot_step(step) || !step.success) continue;
    for (std::size_t i = 1; i < actions.size(); ++i) {
      if (actions[i].id != step.id) continue;
      if (contract::action_spec(actions[i - 1].type).unsettles_screen) {
        set_step_data(step, "warn",
                      "snapshot captured without a preceding sleep step; the UI may not have "
                      "settled after the click");
      }
    }
  }
}

void reconcile_status(Envelope& reconciled) {
  // Only a non-empty step list can contradict the Operator's status (docs/wire-protocol.md §9).
  if (reconciled.steps.empty()) return;
  const auto failed = std::find_if(reconciled.steps.begin(), reconciled.steps.end(),
                                   [](const StepResult& step) { return !step.success; });
  if (failed != reconciled.steps.end()) {
    reconciled.status = "failed";
    std::string error = "Step " + failed->id + " (" + failed->actionType + ") failed";
    const std::string* code = failed->data_value("error");
    if (code != nullptr) error += ": " + *code;
    reconciled.error = error;
    // Some rows' step codes are the execution's own (the on-screen log's ON_SCREEN_LOG_…).
    const contract::ActionSpec* spec = contract::find_action(failed->actionType);
    if (code != nullptr && spec != nullptr && !spec->promoted_error_prefix.empty() &&
        code->rfind(spec->promoted_error_prefix, 0) == 0) {
      reconciled.errorCode = *code;
      reconciled.has_error_code_key = true;
    }
  } else {
    reconciled.status = "success";
    reconciled.error.reset();
    reconciled.errorCode.reset();
    reconciled.has_error_code_key = false;
  }
}

Json render_envelope(Envelope&& envelope, const std::string& device_id) {
  const bool service_unavailable = envelope.status == "failed" && envelope.errorCode &&
                                   *envelope.errorCode == "SERVICE_UNAVAILABLE";
  Json out = transport::to_json(std::move(envelope));
  if (service_unavailable) {
    out["hint"] = contract::hint_text(contract::HintId::ServiceUnavailableRepairOrReinstall,
                                      {{"serial", device_id}});
  }
  return out;
}

contract::EnvelopeOutcome envelope_outcome(const Envelope& envelope,
                                           const std::vector<std::optional<Json>>& payloads) {
  contract::EnvelopeOutcome outcome;
  outcome.status_success = envelope.status == "success";
  outcome.error_code = envelope.errorCode.value_or("");
  for (std::size_t i = 0; i < envelope.steps.size(); ++i) {
    const StepResult& step = envelope.steps[i];
    const std::string* code = step.data_value("error");
    outcome.steps.push_back({step.actionType, step.success, code != nullptr ? *code : "",
                             i < payloads.size() ? dispatched_of(payloads[i]) : std::nullopt});
  }
  return outcome;
}

void attach_payloads(Json& envelope_json, std::vector<std::optional<Json>>&& payloads) {
  Json& steps = envelope_json["stepResults"];
  for (std::size_t i = 0; i < payloads.size() && i < steps.size(); ++i) {
    if (payloads[i]) steps[i]["payload"] = std::move(*payloads[i]);
  }
}

Json failure_fields(const Envelope& envelope, const contract::Disposition& disposition,
                    const std::string& device_id) {
  Json out = Json::object();
  const auto failed = std::find_if(envelope.steps.begin(), envelope.steps.end(),
                                   [](const StepResult& step) { return !step.success; });
  const bool step_failed = failed != envelope.steps.end();
  if (envelope.status == "success" && !step_failed) return out;
  const std::string* step_code = step_failed ? failed->data_value("error") : nullptr;
  std::string code = "ACTION_FAILED";  // the catalog's code for a failure nothing classified
  if (envelope.errorCode && !envelope.errorCode->empty()) {
    code = *envelope.errorCode;
  } else if (step_code != nullptr && !step_code->empty()) {
    code = *step_code;
  }
  std::string message;
  if (const std::string* text = step_failed ? failed->data_value("message") : nullptr) {
    message = *text;
  }
  if (message.empty() && envelope.error) message = *envelope.error;
  const contract::CatalogEntry* entry = contract::find_error(code);
  if (message.empty() && entry != nullptr) message = std::string(entry->meaning);

  out["code"] = code;
  if (step_failed) {
    Json step = Json::object();
    step["id"] = failed->id;
    step["actionType"] = failed->actionType;
    step["index"] = failed - envelope.steps.begin();
    out["failedStep"] = std::move(step);
  }
  out["message"] = std::move(message);
  contract::HostError as_error;
  as_error.code = code;
  as_error.details = Json{{"deviceId", device_id}};
  if (std::string hint = contract::hint_of(as_error); !hint.empty()) out["hint"] = std::move(hint);
  if (auto recovery = contract::recovery_json(code, disposition)) out["recovery"] = *recovery;
  return out;
}

}  // namespace clawperator::exec
