#include "payload_decoder.hpp"

#include <array>
#include <span>
#include <string_view>

#include "clawperator/contract/action_table.hpp"

namespace clawperator::exec {
namespace {

using contract::ActionType;

enum class Kind : std::uint8_t { Number, Boolean, String, Object, Array, StringOrNull };

struct Field {
  std::string_view key;
  Kind kind;
};

constexpr std::array<Field, 3> kCommon = {{
    {"schemaVersion", Kind::Number},
    {"observedElapsedMs", Kind::Number},
    {"deviceState", Kind::Object},
}};
constexpr std::array<Field, 3> kDeviceState = {{
    {"screenOn", Kind::Boolean},
    {"deviceLocked", Kind::Boolean},
    {"userUnlocked", Kind::Boolean},
}};
constexpr std::array<Field, 8> kNotification = {{
    {"key", Kind::String},
    {"applicationId", Kind::String},
    {"title", Kind::StringOrNull},
    {"text", Kind::StringOrNull},
    {"ongoing", Kind::Boolean},
    {"clearable", Kind::Boolean},
    {"groupSummary", Kind::Boolean},
    {"actions", Kind::Array},
}};
constexpr std::array<Field, 2> kNotificationAction = {{
    {"actionId", Kind::String},
    {"requiresInput", Kind::Boolean},
}};
constexpr std::array<Field, 6> kSession = {{
    {"mediaSessionId", Kind::String},
    {"applicationId", Kind::String},
    {"state", Kind::String},
    {"clock", Kind::String},
    {"evidence", Kind::String},
    {"supportedControls", Kind::Array},
}};
constexpr std::array<Field, 3> kNotificationList = {{
    {"notifications", Kind::Array},
    {"total", Kind::Number},
    {"truncated", Kind::Boolean},
}};
constexpr std::array<Field, 3> kSessionList = {{
    {"sessions", Kind::Array},
    {"total", Kind::Number},
    {"truncated", Kind::Boolean},
}};
constexpr std::array<Field, 1> kStatus = {{{"session", Kind::Object}}};
constexpr std::array<Field, 4> kControl = {{
    {"session", Kind::Object},
    {"dispatched", Kind::Boolean},
    {"waitTimeoutMs", Kind::Number},
    {"targetStateObserved", Kind::Boolean},
}};
constexpr std::array<Field, 6> kSeek = {{
    {"session", Kind::Object},
    {"dispatched", Kind::Boolean},
    {"requestedPositionMs", Kind::Number},
    {"positionToleranceMs", Kind::Number},
    {"waitTimeoutMs", Kind::Number},
    {"targetPositionObserved", Kind::Boolean},
}};
constexpr std::array<Field, 8> kObserve = {{
    {"initialSession", Kind::Object},
    {"session", Kind::Object},
    {"startedElapsedMs", Kind::Number},
    {"endedElapsedMs", Kind::Number},
    {"durationMs", Kind::Number},
    {"samples", Kind::Array},
    {"newPlayerReportCount", Kind::Number},
    {"truncated", Kind::Boolean},
}};
constexpr std::array<Field, 4> kDismiss = {{
    {"notificationKey", Kind::String},
    {"dispatched", Kind::Boolean},
    {"removalObserved", Kind::Boolean},
    {"waitTimeoutMs", Kind::Number},
}};
constexpr std::array<Field, 3> kInvoke = {{
    {"notificationKey", Kind::String},
    {"actionId", Kind::String},
    {"dispatched", Kind::Boolean},
}};

std::span<const Field> fields_of(ActionType type) {
  switch (type) {
    case ActionType::ListNotifications:
      return kNotificationList;
    case ActionType::ListMediaSessions:
      return kSessionList;
    case ActionType::GetMediaStatus:
      return kStatus;
    case ActionType::ObserveMedia:
      return kObserve;
    case ActionType::MediaPlay:
    case ActionType::MediaPause:
      return kControl;
    case ActionType::MediaSeek:
      return kSeek;
    case ActionType::DismissNotification:
      return kDismiss;
    case ActionType::InvokeNotificationAction:
      return kInvoke;
    default:
      return {};
  }
}

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::Number:
      return "a number";
    case Kind::Boolean:
      return "a boolean";
    case Kind::String:
      return "a string";
    case Kind::Object:
      return "an object";
    case Kind::Array:
      return "an array";
    case Kind::StringOrNull:
      return "a string or null";
  }
  return "";
}

bool has_kind(const Json& value, Kind kind) {
  switch (kind) {
    case Kind::Number:
      return value.is_number();
    case Kind::Boolean:
      return value.is_boolean();
    case Kind::String:
      return value.is_string();
    case Kind::Object:
      return value.is_object();
    case Kind::Array:
      return value.is_array();
    case Kind::StringOrNull:
      return value.is_string() || value.is_null();
  }
  return false;
}

// Each check: the first problem of the payload, its path inside the payload
// ("notifications.0.key"), or success.
using Check = Expected<void, Problem>;

Unexpected<Problem> problem_at(std::string path, std::string message) {
  return Unexpected(Problem{std::move(path), std::move(message)});
}

// The first field of `fields` missing from `object` or of the wrong kind.
Check check_fields(const Json& object, std::span<const Field> fields, const std::string& path) {
  for (const Field& field : fields) {
    std::string at = path.empty() ? std::string(field.key) : path + "." + std::string(field.key);
    const auto it = object.find(field.key);
    if (it == object.end()) return problem_at(std::move(at), "Required");
    if (!has_kind(*it, field.kind)) {
      return problem_at(std::move(at), "Expected " + std::string(kind_name(field.kind)));
    }
  }
  return {};
}

Check check_each(const Json& object, std::string_view key, std::span<const Field> fields) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return {};
  for (std::size_t i = 0; i < it->size(); ++i) {
    std::string at = std::string(key) + "." + std::to_string(i);
    if (!(*it)[i].is_object()) return problem_at(std::move(at), "Expected an object");
    CLAWPERATOR_TRY(check_fields((*it)[i], fields, at));
  }
  return {};
}

Check check_session(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_object()) return {};
  return check_fields(*it, kSession, std::string(key));
}

// The whole document of a successful step.
Check check_success(const Json& payload, ActionType type) {
  CLAWPERATOR_TRY(check_fields(payload, kCommon, ""));
  if (payload["schemaVersion"] != 1) return problem_at("schemaVersion", "Expected 1");
  CLAWPERATOR_TRY(check_fields(payload["deviceState"], kDeviceState, "deviceState"));
  CLAWPERATOR_TRY(check_fields(payload, fields_of(type), ""));
  CLAWPERATOR_TRY(check_each(payload, "notifications", kNotification));
  if (type == ActionType::ListNotifications) {
    for (std::size_t i = 0; i < payload["notifications"].size(); ++i) {
      const Json& notification = payload["notifications"][i];
      const std::string at = "notifications." + std::to_string(i);
      for (std::size_t j = 0; j < notification["actions"].size(); ++j) {
        const Json& action = notification["actions"][j];
        std::string action_at = at + ".actions." + std::to_string(j);
        if (!action.is_object()) return problem_at(std::move(action_at), "Expected an object");
        CLAWPERATOR_TRY(check_fields(action, kNotificationAction, action_at));
      }
    }
  }
  CLAWPERATOR_TRY(check_each(payload, "sessions", kSession));
  CLAWPERATOR_TRY(check_session(payload, "session"));
  return check_session(payload, "initialSession");
}

// A failed step's evidence: a versioned document; `dispatched`, when there, a boolean.
Check check_failure(const Json& payload) {
  const auto version = payload.find("schemaVersion");
  if (version == payload.end()) return problem_at("schemaVersion", "Required");
  if (*version != 1) return problem_at("schemaVersion", "Expected 1");
  const auto dispatched = payload.find("dispatched");
  if (dispatched != payload.end() && !dispatched->is_boolean()) {
    return problem_at("dispatched", "Expected a boolean");
  }
  return {};
}

}  // namespace

Expected<std::vector<std::optional<Json>>, PayloadError> decode_payloads(
    const transport::Envelope& envelope) {
  std::vector<std::optional<Json>> out(envelope.steps.size());
  for (std::size_t i = 0; i < envelope.steps.size(); ++i) {
    const transport::StepResult& step = envelope.steps[i];
    const contract::ActionSpec* spec = contract::find_action(step.actionType);
    if (spec == nullptr || spec->post_processing != contract::PostProcessing::DecodePayload)
      continue;
    auto failure = [&](Problem problem) {
      return Unexpected{PayloadError{step.id, step.actionType, std::move(problem)}};
    };
    const std::string* text = step.data_value("payload");
    if (text == nullptr) {
      if (!step.success) continue;
      return failure(Problem{"", "data.payload is missing"});
    }
    Json payload = parse_json(*text);
    if (payload.is_discarded()) return failure(Problem{"", "data.payload is not JSON"});
    if (!payload.is_object()) return failure(Problem{"", "data.payload is not a JSON object"});
    Check checked = step.success ? check_success(payload, spec->type) : check_failure(payload);
    if (!checked) return failure(std::move(checked).error());
    out[i] = std::move(payload);
  }
  return out;
}

std::optional<bool> dispatched_of(const std::optional<Json>& payload) {
  if (!payload) return std::nullopt;
  const auto it = payload->find("dispatched");
  if (it == payload->end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

}  // namespace clawperator::exec
