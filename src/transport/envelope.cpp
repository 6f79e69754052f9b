#include "clawperator/transport/envelope.hpp"

#include <cstddef>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::transport {

namespace {

// The member at fault stays in the sentence, as its subject ("stepResults[0].id must be a
// string"), not in the problem's path: Problem::text() would put a colon after it.
Unexpected<Problem> invalid_envelope(std::string message) {
  return Unexpected(Problem{"", std::move(message)});
}

// Document is Json or const Json: a pointer of the same constness.
template <typename Document>
Document* find_member(Document& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// dump() recurses once per nesting level; a hostile data value must not exhaust the stack.
bool nests_deeper_than(const Json& value, std::size_t limit) {
  std::vector<std::pair<const Json*, std::size_t>> pending{{&value, 0}};
  while (!pending.empty()) {
    const auto [node, depth] = pending.back();
    pending.pop_back();
    if (!node->is_structured()) continue;
    if (depth >= limit) return true;
    for (const Json& child : *node) pending.emplace_back(&child, depth + 1);
  }
  return false;
}

constexpr std::size_t kMaxDataValueDepth = 256;

// A document parsed only to be read (parse_envelope) gives its strings away instead of copying
// them: a snapshot's XML is megabytes, and one copy of it less is that much less memory at peak.
std::string take_string(const Json& value) {
  return value.get_ref<const std::string&>();
}
std::string take_string(Json& value) {
  return std::move(value.get_ref<std::string&>());
}

std::string step_field(std::size_t index, std::string_view field) {
  return "stepResults[" + std::to_string(index) + "]" + (field.empty() ? "" : ".") +
         std::string(field);
}

template <typename Document>
Expected<StepResult, Problem> parse_step(Document& item, std::size_t index) {
  if (!item.is_object()) return invalid_envelope(step_field(index, "") + " must be an object");
  StepResult step;

  auto* id = find_member(item, "id");
  if (id == nullptr || !id->is_string()) {
    return invalid_envelope(step_field(index, "id") + " must be a string");
  }
  step.id = take_string(*id);

  auto* action_type = find_member(item, "actionType");
  if (action_type == nullptr || !action_type->is_string()) {
    return invalid_envelope(step_field(index, "actionType") + " must be a string");
  }
  step.actionType = take_string(*action_type);

  auto* success = find_member(item, "success");
  if (success == nullptr || !success->is_boolean()) {
    return invalid_envelope(step_field(index, "success") + " must be a boolean");
  }
  step.success = success->template get<bool>();

  auto* data = find_member(item, "data");
  if (data != nullptr && data->is_object()) {
    step.data.reserve(data->size());
    for (auto member = data->begin(); member != data->end(); ++member) {
      const std::string& key = member.key();
      auto& value = member.value();
      if (value.is_string()) {
        step.data.emplace_back(key, take_string(value));
        continue;
      }
      if (nests_deeper_than(value, kMaxDataValueDepth)) {
        return invalid_envelope(step_field(index, "data.") + key + " nests too deeply");
      }
      // Parsed strings are valid UTF-8, so "replace" never triggers; it only rules out throwing.
      step.data.emplace_back(key, dump_json(value));
    }
  }
  return step;
}

}  // namespace

const std::string* StepResult::data_value(std::string_view key) const noexcept {
  for (const auto& [name, value] : data) {
    if (name == key) return &value;
  }
  return nullptr;
}

namespace {

template <typename Document>
Expected<Envelope, Problem> read_envelope(Document& document) {
  try {
    if (!document.is_object()) return invalid_envelope("envelope must be a JSON object");
    Envelope envelope;

    auto* command_id = find_member(document, "commandId");
    if (command_id == nullptr || !command_id->is_string()) {
      return invalid_envelope("commandId must be a string");
    }
    envelope.commandId = take_string(*command_id);

    auto* task_id = find_member(document, "taskId");
    if (task_id == nullptr || !task_id->is_string())
      return invalid_envelope("taskId must be a string");
    envelope.taskId = take_string(*task_id);

    auto* status = find_member(document, "status");
    if (status == nullptr || !status->is_string() ||
        (*status != "success" && *status != "failed")) {
      return invalid_envelope("status must be \"success\" or \"failed\"");
    }
    envelope.status = take_string(*status);

    auto* steps = find_member(document, "stepResults");
    if (steps == nullptr || !steps->is_array())
      return invalid_envelope("stepResults must be an array");
    envelope.steps.reserve(steps->size());
    for (std::size_t index = 0; index < steps->size(); ++index) {
      CLAWPERATOR_TRY_ASSIGN(StepResult step, parse_step((*steps)[index], index));
      envelope.steps.push_back(std::move(step));
    }

    // docs/wire-protocol.md §7.6: an absent error means null (the original treated it as
    // malformed).
    if (auto* error = find_member(document, "error"); error != nullptr) {
      if (error->is_string()) {
        envelope.error = take_string(*error);
      } else if (!error->is_null()) {
        return invalid_envelope("error must be a string or null");
      }
    }

    if (auto* error_code = find_member(document, "errorCode"); error_code != nullptr) {
      envelope.has_error_code_key = true;
      if (error_code->is_string()) {
        envelope.errorCode = take_string(*error_code);
      } else if (!error_code->is_null()) {
        return invalid_envelope("errorCode must be a string or null");
      }
    }
    return envelope;
  } catch (const std::exception& exception) {
    return invalid_envelope(std::string("envelope could not be read: ") + exception.what());
  }
}

}  // namespace

Expected<Envelope, Problem> envelope_from_json(const Json& document) {
  return read_envelope(document);
}

Expected<Envelope, Problem> parse_envelope(std::string_view json_text) {
  try {
    Json document = parse_json(json_text);
    if (document.is_discarded()) return invalid_envelope("envelope is not valid JSON");
    return read_envelope(document);
  } catch (const std::exception& exception) {
    return invalid_envelope(std::string("envelope could not be read: ") + exception.what());
  }
}

nlohmann::ordered_json to_json(const Envelope& envelope) {
  Envelope copy = envelope;
  return to_json(std::move(copy));
}

nlohmann::ordered_json to_json(Envelope&& envelope) {
  // Every object is sized first: growing one would copy a large snapshot text (json.hpp).
  Json steps = Json::array();
  steps.get_ref<Json::array_t&>().reserve(envelope.steps.size());
  for (StepResult& step : envelope.steps) {
    Json data = object_with_capacity(step.data.size());
    for (auto& [key, value] : step.data) data[key] = std::move(value);
    Json item = object_with_capacity(4);
    item["id"] = std::move(step.id);
    item["actionType"] = std::move(step.actionType);
    item["success"] = step.success;
    item["data"] = std::move(data);
    steps.push_back(std::move(item));
  }
  // Room for errorCode and a hint added by the caller.
  Json document = object_with_capacity(7);
  document["commandId"] = std::move(envelope.commandId);
  document["taskId"] = std::move(envelope.taskId);
  document["status"] = std::move(envelope.status);
  document["stepResults"] = std::move(steps);
  document["error"] = envelope.error ? Json(std::move(*envelope.error)) : Json(nullptr);
  if (envelope.has_error_code_key) {
    document["errorCode"] =
        envelope.errorCode ? Json(std::move(*envelope.errorCode)) : Json(nullptr);
  }
  return document;
}

}  // namespace clawperator::transport
