#include "clawperator/transport/envelope.hpp"

#include <cstddef>
#include <vector>

namespace clawperator::transport {

namespace {

using Json = nlohmann::ordered_json;
using Failure = Unexpected<std::string>;

const Json* find_member(const Json& object, std::string_view key) {
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

std::string step_field(std::size_t index, std::string_view field) {
  return "stepResults[" + std::to_string(index) + "]" + (field.empty() ? "" : ".") +
         std::string(field);
}

Expected<StepResult, std::string> parse_step(const Json& item, std::size_t index) {
  if (!item.is_object()) return Failure{step_field(index, "") + " must be an object"};
  StepResult step;

  const Json* id = find_member(item, "id");
  if (id == nullptr || !id->is_string()) {
    return Failure{step_field(index, "id") + " must be a string"};
  }
  step.id = id->get_ref<const std::string&>();

  const Json* action_type = find_member(item, "actionType");
  if (action_type == nullptr || !action_type->is_string()) {
    return Failure{step_field(index, "actionType") + " must be a string"};
  }
  step.actionType = action_type->get_ref<const std::string&>();

  const Json* success = find_member(item, "success");
  if (success == nullptr || !success->is_boolean()) {
    return Failure{step_field(index, "success") + " must be a boolean"};
  }
  step.success = success->get<bool>();

  const Json* data = find_member(item, "data");
  if (data != nullptr && data->is_object()) {
    step.data.reserve(data->size());
    for (const auto& [key, value] : data->items()) {
      if (value.is_string()) {
        step.data.emplace_back(key, value.get_ref<const std::string&>());
        continue;
      }
      if (nests_deeper_than(value, kMaxDataValueDepth)) {
        return Failure{step_field(index, "data.") + key + " nests too deeply"};
      }
      // Parsed strings are valid UTF-8, so "replace" never triggers; it only rules out throwing.
      step.data.emplace_back(key, value.dump(-1, ' ', false, Json::error_handler_t::replace));
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

Expected<Envelope, std::string> envelope_from_json(const Json& document) {
  try {
    if (!document.is_object()) return Failure{"envelope must be a JSON object"};
    Envelope envelope;

    const Json* command_id = find_member(document, "commandId");
    if (command_id == nullptr || !command_id->is_string()) {
      return Failure{"commandId must be a string"};
    }
    envelope.commandId = command_id->get_ref<const std::string&>();

    const Json* task_id = find_member(document, "taskId");
    if (task_id == nullptr || !task_id->is_string()) return Failure{"taskId must be a string"};
    envelope.taskId = task_id->get_ref<const std::string&>();

    const Json* status = find_member(document, "status");
    if (status == nullptr || !status->is_string() ||
        (*status != "success" && *status != "failed")) {
      return Failure{"status must be \"success\" or \"failed\""};
    }
    envelope.status = status->get_ref<const std::string&>();

    const Json* steps = find_member(document, "stepResults");
    if (steps == nullptr || !steps->is_array()) return Failure{"stepResults must be an array"};
    envelope.steps.reserve(steps->size());
    for (std::size_t index = 0; index < steps->size(); ++index) {
      Expected<StepResult, std::string> step = parse_step((*steps)[index], index);
      if (!step) return Failure{std::move(step).error()};
      envelope.steps.push_back(std::move(step).value());
    }

    // spec/wire.md: an absent error means null (the original treated it as malformed).
    if (const Json* error = find_member(document, "error"); error != nullptr) {
      if (error->is_string()) {
        envelope.error = error->get_ref<const std::string&>();
      } else if (!error->is_null()) {
        return Failure{"error must be a string or null"};
      }
    }

    if (const Json* error_code = find_member(document, "errorCode"); error_code != nullptr) {
      envelope.has_error_code_key = true;
      if (error_code->is_string()) {
        envelope.errorCode = error_code->get_ref<const std::string&>();
      } else if (!error_code->is_null()) {
        return Failure{"errorCode must be a string or null"};
      }
    }
    return envelope;
  } catch (const std::exception& exception) {
    return Failure{std::string("envelope could not be read: ") + exception.what()};
  }
}

Expected<Envelope, std::string> parse_envelope(std::string_view json_text) {
  try {
    const Json document = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) return Failure{"envelope is not valid JSON"};
    return envelope_from_json(document);
  } catch (const std::exception& exception) {
    return Failure{std::string("envelope could not be read: ") + exception.what()};
  }
}

nlohmann::ordered_json to_json(const Envelope& envelope) {
  Json steps = Json::array();
  for (const StepResult& step : envelope.steps) {
    Json data = Json::object();
    for (const auto& [key, value] : step.data) data[key] = value;
    steps.push_back(Json{{"id", step.id},
                         {"actionType", step.actionType},
                         {"success", step.success},
                         {"data", std::move(data)}});
  }
  Json document{{"commandId", envelope.commandId},
                {"taskId", envelope.taskId},
                {"status", envelope.status},
                {"stepResults", std::move(steps)},
                {"error", envelope.error ? Json(*envelope.error) : Json(nullptr)}};
  if (envelope.has_error_code_key) {
    document["errorCode"] = envelope.errorCode ? Json(*envelope.errorCode) : Json(nullptr);
  }
  return document;
}

}  // namespace clawperator::transport
