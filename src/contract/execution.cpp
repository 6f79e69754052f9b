#include "clawperator/contract/execution.hpp"

#include <cmath>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

Json predicate_json(const NodePredicate& predicate) {
  Json out = Json::object();
  for (const auto& [field, value] : predicate.fields) out[std::string(to_string(field))] = value;
  return out;
}

Json coordinate_json(const Coordinate& coordinate) {
  Json out = Json::object();
  if (coordinate.y_first) out["y"] = coordinate.y.to_json();
  out["x"] = coordinate.x.to_json();
  if (!coordinate.y_first) out["y"] = coordinate.y.to_json();
  return out;
}

// One param in its JSON form, or nothing when the action does not carry it.
std::optional<Json> param_json(const ActionParams& params, const ParamMember& member) {
  return std::visit(
      [&](auto pointer) -> std::optional<Json> {
        const auto& value = params.*pointer;
        if (!value) return std::nullopt;
        using Value = std::decay_t<decltype(*value)>;
        if constexpr (std::is_same_v<Value, Number>) {
          return value->to_json();
        } else if constexpr (std::is_same_v<Value, NodeMatcher>) {
          return to_json(*value);
        } else if constexpr (std::is_same_v<Value, Coordinate>) {
          return coordinate_json(*value);
        } else {
          return Json(*value);
        }
      },
      member);
}

Json params_json(const ActionParams& params, const ActionSpec& spec) {
  Json out = Json::object();
  const ParamSchema& schema = spec.schema != nullptr ? *spec.schema : generic_param_schema();
  for (const ParamSpec& param : schema.params) {
    if (auto value = param_json(params, param.member)) out[std::string(param.key)] = *value;
  }
  return out;
}

}  // namespace

Number Number::from_json(const Json& json) {
  Number number;
  number.value_ = json.get<double>();
  if (json.is_number_unsigned()) {
    number.kind_ = Kind::Unsigned;
    number.unsigned_ = json.get<std::uint64_t>();
  } else if (json.is_number_integer()) {
    number.kind_ = Kind::Integer;
    number.integer_ = json.get<std::int64_t>();
  } else {
    number.kind_ = Kind::Float;
  }
  return number;
}

Number Number::integer(long long value) {
  Number number;
  number.kind_ = Kind::Integer;
  number.integer_ = value;
  number.value_ = static_cast<double>(value);
  return number;
}

Number Number::milliseconds(double value) {
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e15) {
    return integer(static_cast<long long>(value));
  }
  Number number;
  number.kind_ = Kind::Float;
  number.value_ = value;
  return number;
}

bool Number::integral() const noexcept {
  return std::isfinite(value_) && std::floor(value_) == value_;
}

Json Number::to_json() const {
  switch (kind_) {
    case Kind::Integer:
      return integer_;
    case Kind::Unsigned:
      return unsigned_;
    case Kind::Float:
      break;
  }
  return value_;
}

std::string_view to_string(MatcherField field) {
  return matcher_field_row(field).key;
}

const std::string* NodePredicate::get(MatcherField field) const {
  for (const auto& [name, value] : fields) {
    if (name == field) return &value;
  }
  return nullptr;
}

bool NodePredicate::has_value() const {
  for (const auto& entry : fields) {
    if (!entry.second.empty()) return true;
  }
  return false;
}

bool NodePredicate::has_nonblank_value() const {
  for (const auto& entry : fields) {
    if (!is_blank(entry.second)) return true;
  }
  return false;
}

const ActionParams& Action::params_or_empty() const {
  static const ActionParams kNone;
  return params ? *params : kNone;
}

bool Execution::read_only() const {
  for (const Action& action : actions) {
    if (!action_spec(action.type).read_only) return false;
  }
  return true;
}

ActionReadiness Execution::readiness() const {
  // Any interactive action readies the whole execution; otherwise a control among the
  // observations makes it a background service execution (docs/wire-protocol.md §4.4).
  if (actions.empty()) return ActionReadiness::Interactive;
  ActionReadiness readiness = ActionReadiness::BackgroundObservation;
  for (const Action& action : actions) {
    const ActionReadiness own = action_spec(action.type).readiness;
    if (own == ActionReadiness::Interactive) return own;
    if (own == ActionReadiness::BackgroundService) readiness = own;
  }
  return readiness;
}

Json to_json(const NodeMatcher& matcher) {
  Json out = predicate_json(matcher.node);
  if (matcher.ancestor) out["ancestor"] = predicate_json(*matcher.ancestor);
  if (matcher.descendant) out["descendant"] = predicate_json(*matcher.descendant);
  return out;
}

Json to_device_json(const Action& action) {
  const ActionSpec& spec = action_spec(action.type);
  Json out = Json::object();
  out["id"] = action.id;
  out["type"] = spec.name;
  if (action.params) out["params"] = params_json(*action.params, spec);
  return out;
}

Json to_device_json(const Execution& execution) {
  Json out = Json::object();
  out["commandId"] = execution.command_id;
  out["taskId"] = execution.task_id;
  out["source"] = execution.source;
  out["expectedFormat"] = kExpectedFormat;
  out["timeoutMs"] = execution.timeout_ms.to_json();
  Json actions = Json::array();
  for (const Action& action : execution.actions) actions.push_back(to_device_json(action));
  out["actions"] = std::move(actions);
  if (execution.mode) out["mode"] = *execution.mode;
  return out;
}

Json plan_json(const Execution& execution) {
  Json plan = Json::object();
  plan["commandId"] = execution.command_id;
  plan["timeoutMs"] = execution.timeout_ms.to_json();
  plan["actionCount"] = execution.actions.size();
  Json actions = Json::array();
  for (const Action& action : execution.actions) actions.push_back(to_device_json(action));
  plan["actions"] = std::move(actions);
  return plan;
}

}  // namespace clawperator::contract
