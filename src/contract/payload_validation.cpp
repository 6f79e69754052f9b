#include "clawperator/contract/payload_validation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <span>
#include <string>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/contract/on_screen_log.hpp"
#include "clawperator/contract/payload_normalization.hpp"
#include "clawperator/suggest.hpp"
#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

// The original's words for an unknown action type; validation_failure keys its code on them.
constexpr std::string_view kUnsupportedTypeMessage = "All action types must be supported";

std::optional<MatcherField> matcher_field(std::string_view key) {
  if (const MatcherFieldRow* row = matcher_field_by_key(key)) return row->field;
  return std::nullopt;
}

constexpr std::array<std::string_view, 7> kTopLevelFields = {
    "commandId", "taskId", "source", "expectedFormat", "timeoutMs", "actions", "mode",
};

constexpr std::array<std::string_view, 3> kActionFields = {"id", "type", "params"};

std::string type_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "number";
    case Json::value_t::array:
      return "array";
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "object";
    default:
      return "unknown";
  }
}

std::string fmt_number(double value) {
  // Every integer up to 2^53 is exact (media_seek's positionMs limit is 2^53 - 1).
  if (std::floor(value) == value && std::fabs(value) <= 9007199254740992.0) {
    return std::to_string(static_cast<long long>(value));
  }
  return Json(value).dump();
}

const Json* find(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool is_integral(double value) {
  return std::isfinite(value) && std::floor(value) == value;
}

// The typed value of one param, read through its member of ActionParams.
struct ParamView {
  const ActionParams& params;
  const ParamSpec* spec;

  bool present() const {
    return spec != nullptr &&
           std::visit([&](auto member) { return (params.*member).has_value(); }, spec->member);
  }
  const std::string* string() const {
    if (spec == nullptr) return nullptr;
    const auto* member = std::get_if<std::optional<std::string> ActionParams::*>(&spec->member);
    if (member == nullptr || !(params.**member)) return nullptr;
    return &*(params.**member);
  }
  std::optional<double> number() const {
    if (spec == nullptr) return std::nullopt;
    const auto* member = std::get_if<std::optional<Number> ActionParams::*>(&spec->member);
    if (member == nullptr || !(params.**member)) return std::nullopt;
    return (params.**member)->value();
  }
};

std::string join_values(std::span<const std::string_view> values) {
  std::string out;
  for (const std::string_view value : values) {
    if (!out.empty()) out += ", ";
    out += value;
  }
  return out;
}

// Every name a caller may give an action type: the table's names and their aliases, names
// first (suggest_command prefers the earlier of two equally close).
const std::vector<std::string>& caller_type_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const ActionSpec& spec : action_table()) {
      if (spec.from_callers) out.emplace_back(spec.name);
    }
    for (const ActionSpec& spec : action_table()) {
      if (spec.from_callers) out.insert(out.end(), spec.aliases.begin(), spec.aliases.end());
    }
    return out;
  }();
  return names;
}

class Validator {
 public:
  Expected<NodeMatcher, std::vector<ValidationIssue>> read_matcher(const Json& value,
                                                                   const std::string& path) {
    auto matcher = check_matcher(value, path);
    if (!matcher || !issues_.empty()) return Unexpected{std::move(issues_)};
    return std::move(*matcher);
  }

  ValidationOutcome run(const Json& payload) {
    ValidationOutcome outcome;
    if (!payload.is_object()) {
      add("", "Expected object, received " + type_name(payload));
      outcome.issues = std::move(issues_);
      return outcome;
    }
    Execution execution;
    const auto command_id = check_string_field(payload, "commandId", 1, limits::kMaxIdLength);
    const auto task_id = check_string_field(payload, "taskId", 1, limits::kMaxIdLength);
    const auto source = check_string_field(payload, "source", 1, limits::kMaxSourceLength);
    check_expected_format(payload);
    const auto timeout = check_timeout(payload);
    std::vector<ActionShape> actions = check_actions(payload);
    execution.mode = check_mode(payload);
    report_unknown_keys(payload, kTopLevelFields, "");
    check_supported_types(actions);
    for (const ActionShape& action : actions) {
      if (action.shape_valid && action.spec != nullptr) check_action_rules(action);
    }
    if (!issues_.empty()) {
      outcome.issues = std::move(issues_);
      return outcome;
    }
    execution.command_id = *command_id;
    execution.task_id = *task_id;
    execution.source = *source;
    execution.timeout_ms = *timeout;
    execution.actions.reserve(actions.size());
    for (ActionShape& shape : actions) {
      Action action;
      action.id = std::move(*shape.raw_id);
      action.type = shape.spec->type;
      action.params = std::move(shape.params);
      if (action.params) normalize_colors(*shape.spec, *action.params);
      execution.actions.push_back(std::move(action));
    }
    outcome.valid = std::move(execution);
    return outcome;
  }

 private:
  // The device receives colours in one form, #AARRGGBB upper case (docs/payload.md §9).
  static void normalize_colors(const ActionSpec& spec, ActionParams& params) {
    for (const ParamConstraint& constraint : spec.constraints) {
      if (constraint.kind != ConstraintKind::Color || spec.schema == nullptr) continue;
      const ParamSpec* param = spec.schema->find(constraint.key);
      const auto* member =
          param == nullptr
              ? nullptr
              : std::get_if<std::optional<std::string> ActionParams::*>(&param->member);
      if (member == nullptr || !(params.**member)) continue;
      if (auto color = on_screen_log::normalize_color(*(params.**member))) {
        params.** member = std::move(*color);
      }
    }
  }

  struct ActionShape {
    std::size_t index = 0;
    std::optional<std::string> raw_id;
    std::optional<std::string> raw_type;
    std::string canonical_type;          // the table's name, or the type trimmed and lowered
    const ActionSpec* spec = nullptr;    // nullptr: not an action callers may send
    std::optional<ActionParams> params;  // nullopt when absent
    bool shape_valid = false;
  };

  class ActionRules final : public RuleContext {
   public:
    ActionRules(Validator& validator, const ActionShape& action, std::string base)
        : validator_(validator), action_(action), base_(std::move(base)) {}
    const ActionParams& params() const override {
      static const ActionParams kNone;
      return action_.params ? *action_.params : kNone;
    }
    std::string_view type_name() const override { return action_.spec->name; }
    void fail(std::string_view key, std::string message) override {
      validator_.add(join(base_, key), std::move(message));
      failed_.emplace_back(key);
    }
    bool failed(std::string_view key) const {
      return std::find(failed_.begin(), failed_.end(), key) != failed_.end();
    }

   private:
    Validator& validator_;
    const ActionShape& action_;
    std::string base_;
    std::vector<std::string> failed_;
  };

  std::vector<ValidationIssue> issues_;
  // The action the current checks are inside, for actionId/actionType.
  const ActionShape* current_action_ = nullptr;

  ValidationIssue& add(std::string path, std::string message) {
    ValidationIssue issue;
    issue.path = std::move(path);
    issue.message = std::move(message);
    if (current_action_ != nullptr) {
      issue.action_id = current_action_->raw_id;
      issue.action_type = current_action_->raw_type;
    }
    issues_.push_back(std::move(issue));
    return issues_.back();
  }

  static std::string join(const std::string& parent, std::string_view key) {
    if (key.empty()) return parent;
    return parent.empty() ? std::string(key) : parent + "." + std::string(key);
  }

  // Zod's generic string checks. Returns true when the value is acceptable.
  bool check_string_value(const Json& value, const std::string& path, std::size_t min,
                          std::size_t max) {
    if (!value.is_string()) {
      add(path, "Expected string, received " + type_name(value));
      return false;
    }
    const std::size_t length = utf16_length(value.get_ref<const std::string&>());
    if (length < min) {
      add(path, "String must contain at least " + std::to_string(min) + " character(s)");
      return false;
    }
    if (max != 0 && length > max) {
      add(path, "String must contain at most " + std::to_string(max) + " character(s)");
      return false;
    }
    return true;
  }

  // JavaScript measures string length in UTF-16 code units; so do the limits.
  static std::size_t utf16_length(const std::string& text) {
    std::size_t units = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if ((byte & 0xC0) == 0x80) continue;  // continuation byte
      units += byte >= 0xF0 ? 2 : 1;        // 4-byte sequences are surrogate pairs
    }
    return units;
  }

  bool check_number_value(const Json& value, const std::string& path) {
    if (!value.is_number()) {
      add(path, "Expected number, received " + type_name(value));
      return false;
    }
    if (!std::isfinite(value.get<double>())) {
      add(path, "Number must be finite");
      return false;
    }
    return true;
  }

  std::optional<std::string> check_string_field(const Json& object, std::string_view key,
                                                std::size_t min, std::size_t max) {
    const std::string path(key);
    const Json* value = find(object, key);
    if (value == nullptr) {
      add(path, "Required");
      return std::nullopt;
    }
    if (!check_string_value(*value, path, min, max)) return std::nullopt;
    return value->get<std::string>();
  }

  void check_expected_format(const Json& payload) {
    const Json* value = find(payload, "expectedFormat");
    if (value == nullptr) {
      add("expectedFormat", "Required");
    } else if (!value->is_string() || value->get_ref<const std::string&>() != kExpectedFormat) {
      add("expectedFormat",
          "Invalid literal value, expected \"" + std::string(kExpectedFormat) + "\"");
    }
  }

  std::optional<Number> check_timeout(const Json& payload) {
    const Json* value = find(payload, "timeoutMs");
    if (value == nullptr) {
      add("timeoutMs", "Required");
      return std::nullopt;
    }
    if (!check_number_value(*value, "timeoutMs")) return std::nullopt;
    const double timeout = value->get<double>();
    if (timeout < limits::kMinExecutionTimeoutMs) {
      add("timeoutMs",
          "Number must be greater than or equal to " + fmt_number(limits::kMinExecutionTimeoutMs));
      return std::nullopt;
    }
    if (timeout > limits::kMaxExecutionTimeoutMs) {
      add("timeoutMs",
          "Number must be less than or equal to " + fmt_number(limits::kMaxExecutionTimeoutMs));
      return std::nullopt;
    }
    return Number::from_json(*value);
  }

  std::optional<std::string> check_mode(const Json& payload) {
    const Json* value = find(payload, "mode");
    if (value == nullptr) return std::nullopt;
    const bool known =
        value->is_string() && (value->get_ref<const std::string&>() == "direct" ||
                               value->get_ref<const std::string&>() == "artifact_compiled");
    if (!known) {
      const std::string received =
          value->is_string() ? "'" + value->get<std::string>() + "'" : type_name(*value);
      add("mode",
          "Invalid enum value. Expected 'artifact_compiled' | 'direct', received " + received);
      return std::nullopt;
    }
    return value->get<std::string>();
  }

  // Strict objects: every key outside `known` is one issue on the containing object, with the
  // nearest of `candidates` (the keys the object accepts) to the first unknown key that has one.
  template <typename Known>
  ValidationIssue* report_unknown_keys(const Json& object, const Known& is_known,
                                       const std::string& path,
                                       const std::vector<std::string>& candidates) {
    std::vector<std::string> unknown;
    for (const auto& item : object.items()) {
      if (!is_known(item.key())) unknown.push_back(item.key());
    }
    if (unknown.empty()) return nullptr;
    std::string message = "Unrecognized key(s) in object: ";
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      message += (i == 0 ? "'" : ", '") + unknown[i] + "'";
    }
    ValidationIssue& issue = add(path, std::move(message));
    for (const std::string& key : unknown) {
      issue.suggestion = suggest_command(key, candidates);
      if (issue.suggestion) break;
    }
    issue.invalid_keys = std::move(unknown);
    return &issue;
  }
  template <std::size_t N>
  ValidationIssue* report_unknown_keys(const Json& object,
                                       const std::array<std::string_view, N>& known,
                                       const std::string& path) {
    return report_unknown_keys(
        object,
        [&](const std::string& key) {
          return std::find(known.begin(), known.end(), key) != known.end();
        },
        path, std::vector<std::string>(known.begin(), known.end()));
  }

  std::vector<ActionShape> check_actions(const Json& payload) {
    std::vector<ActionShape> shapes;
    const Json* actions = find(payload, "actions");
    if (actions == nullptr) {
      add("actions", "Required");
      return shapes;
    }
    if (!actions->is_array()) {
      add("actions", "Expected array, received " + type_name(*actions));
      return shapes;
    }
    if (actions->empty()) {
      add("actions", "Array must contain at least 1 element(s)");
      return shapes;
    }
    if (actions->size() > limits::kMaxExecutionActions) {
      add("actions", "Array must contain at most " + std::to_string(limits::kMaxExecutionActions) +
                         " element(s)");
      return shapes;
    }
    shapes.reserve(actions->size());
    for (std::size_t i = 0; i < actions->size(); ++i) {
      shapes.push_back(check_action_shape((*actions)[i], i));
    }
    return shapes;
  }

  ActionShape check_action_shape(const Json& raw, std::size_t index) {
    ActionShape shape;
    shape.index = index;
    const std::string path = "actions." + std::to_string(index);
    if (!raw.is_object()) {
      add(path, "Expected object, received " + type_name(raw));
      return shape;
    }
    if (const Json* id = find(raw, "id"); id != nullptr && id->is_string()) {
      shape.raw_id = id->get<std::string>();
    }
    if (const Json* type = find(raw, "type"); type != nullptr && type->is_string()) {
      shape.raw_type = type->get<std::string>();
    }
    current_action_ = &shape;
    const std::size_t issues_before = issues_.size();

    const Json* id = find(raw, "id");
    if (id == nullptr) {
      add(path + ".id", "Required");
    } else {
      check_string_value(*id, path + ".id", 1, limits::kMaxIdLength);
    }
    const Json* type = find(raw, "type");
    if (type == nullptr) {
      add(path + ".type", "Required");
    } else if (check_string_value(*type, path + ".type", 0, limits::kMaxActionTypeLength)) {
      shape.canonical_type = normalize_action_type(type->get_ref<const std::string&>());
      shape.spec = find_caller_action(type->get_ref<const std::string&>());
    }
    if (const Json* params = find(raw, "params"); params != nullptr) {
      shape.params = check_params(*params, path + ".params", shape.spec);
    }
    report_unknown_keys(raw, kActionFields, path);
    shape.shape_valid = issues_.size() == issues_before;
    current_action_ = nullptr;
    return shape;
  }

  // An unknown type is checked against the generic params: its other problems are reported
  // beside the unsupported type.
  std::optional<ActionParams> check_params(const Json& params, const std::string& path,
                                           const ActionSpec* spec) {
    if (!params.is_object()) {
      add(path, "Expected object, received " + type_name(params));
      return std::nullopt;
    }
    const ParamSchema& schema =
        spec != nullptr && spec->schema != nullptr ? *spec->schema : generic_param_schema();
    ActionParams out;
    for (const ParamSpec& param : schema.params) {
      const Json* value = find(params, param.key);
      if (value == nullptr) continue;
      read_param(*value, join(path, param.key), param, out);
    }
    std::vector<std::string> accepted;
    for (const ParamSpec& param : schema.params) accepted.emplace_back(param.key);
    if (schema.names_unknown_keys) {
      for (const auto& item : params.items()) {
        if (schema.find(item.key()) != nullptr) continue;
        add(join(path, item.key()),
            std::string(spec->name) + " does not accept params." + item.key())
            .suggestion = suggest_command(item.key(), accepted);
      }
      return out;
    }
    ValidationIssue* unknown = report_unknown_keys(
        params, [&](const std::string& key) { return schema.find(key) != nullptr; }, path,
        accepted);
    if (unknown != nullptr && spec != nullptr) {
      for (const RemovedParam& removed : spec->removed_params) {
        const auto& keys = unknown->invalid_keys;
        if (std::find(keys.begin(), keys.end(), removed.key) != keys.end()) {
          unknown->hint = std::string(removed.hint);
          break;
        }
      }
    }
    return out;
  }

  // Checks one value against its kind and stores it in its member when it is acceptable.
  void read_param(const Json& value, const std::string& path, const ParamSpec& param,
                  ActionParams& out) {
    std::visit(
        [&](auto member) {
          using Value = typename std::decay_t<decltype(out.*member)>::value_type;
          if constexpr (std::is_same_v<Value, std::string>) {
            if (check_string_value(value, path, 0, param.max_length)) {
              out.*member = value.get<std::string>();
            }
          } else if constexpr (std::is_same_v<Value, Number>) {
            if (check_number_value(value, path)) out.*member = Number::from_json(value);
          } else if constexpr (std::is_same_v<Value, bool>) {
            if (value.is_boolean()) {
              out.*member = value.get<bool>();
            } else {
              add(path, "Expected boolean, received " + type_name(value));
            }
          } else if constexpr (std::is_same_v<Value, Json>) {
            if (value.is_object()) {
              out.*member = value;
            } else {
              add(path, "Expected object, received " + type_name(value));
            }
          } else if constexpr (std::is_same_v<Value, NodeMatcher>) {
            if (auto matcher = check_matcher(value, path)) out.*member = std::move(*matcher);
          } else {
            if (auto coordinate = check_coordinate(value, path)) out.*member = *coordinate;
          }
        },
        param.member);
  }

  // A NodeMatcher (docs/payload.md §3.1): the six scalar fields and the two relations, each a
  // NodePredicate of the scalar fields only; one non-blank field somewhere.
  std::optional<NodeMatcher> check_matcher(const Json& value, const std::string& path) {
    if (!value.is_object()) {
      add(path, "Expected object, received " + type_name(value));
      return std::nullopt;
    }
    const std::size_t issues_before = issues_.size();
    NodeMatcher matcher;
    const bool fields_valid = check_predicate_fields(value, path, true, matcher.node);
    bool relations_valid = true;
    for (const auto& item : value.items()) {
      const std::string& key = item.key();
      if (key != kAncestorKey && key != kDescendantKey) continue;
      auto predicate = check_predicate(item.value(), join(path, key));
      if (!predicate) {
        relations_valid = false;
      } else if (key == kAncestorKey) {
        matcher.ancestor = std::move(*predicate);
      } else {
        matcher.descendant = std::move(*predicate);
      }
    }
    if (issues_.size() != issues_before || !relations_valid || !fields_valid) return std::nullopt;
    if (!matcher.node.has_nonblank_value() && !matcher.ancestor && !matcher.descendant) {
      add(path, "Matcher must have at least one nonblank field");
      return std::nullopt;
    }
    return matcher;
  }

  // A relation's predicate: the scalar fields only (relations do not nest).
  std::optional<NodePredicate> check_predicate(const Json& value, const std::string& path) {
    if (!value.is_object()) {
      add(path, "Expected object, received " + type_name(value));
      return std::nullopt;
    }
    NodePredicate predicate;
    if (!check_predicate_fields(value, path, false, predicate)) return std::nullopt;
    if (!predicate.has_nonblank_value()) {
      add(path, "Predicate must have at least one nonblank field");
      return std::nullopt;
    }
    return predicate;
  }

  // The scalar fields of `value` into `out`, in the caller's order; unknown keys reported
  // (the relation keys are known only where `relations` says so).
  bool check_predicate_fields(const Json& value, const std::string& path, bool relations,
                              NodePredicate& out) {
    const std::size_t issues_before = issues_.size();
    for (const MatcherFieldRow& row : matcher_fields()) {
      const Json* item = find(value, row.key);
      if (item == nullptr) continue;
      const std::string field_path = join(path, row.key);
      if (check_string_value(*item, field_path, 0, limits::kMaxMatcherValueLength) &&
          is_blank(item->get_ref<const std::string&>())) {
        // The Operator ignores a blank field, so it would match what the caller did not mean.
        add(field_path, std::string(row.key) + " must not be blank: omit it to leave it open");
      }
    }
    std::vector<std::string> keys;
    for (const MatcherFieldRow& row : matcher_fields()) keys.emplace_back(row.key);
    if (relations)
      keys.insert(keys.end(), {std::string(kAncestorKey), std::string(kDescendantKey)});
    report_unknown_keys(
        value,
        [&](const std::string& key) {
          return matcher_field(key).has_value() ||
                 (relations && (key == kAncestorKey || key == kDescendantKey));
        },
        path, keys);
    if (issues_.size() != issues_before) return false;
    for (const auto& item : value.items()) {
      if (auto field = matcher_field(item.key())) {
        out.fields.emplace_back(*field, item.value().get<std::string>());
      }
    }
    return true;
  }

  std::optional<Coordinate> check_coordinate(const Json& value, const std::string& path) {
    if (!value.is_object()) {
      add(path, "Expected object, received " + type_name(value));
      return std::nullopt;
    }
    const std::size_t issues_before = issues_.size();
    for (const std::string_view axis : {std::string_view("x"), std::string_view("y")}) {
      const std::string axis_path = join(path, axis);
      const Json* item = find(value, axis);
      if (item == nullptr) {
        add(axis_path, "Required");
      } else if (check_number_value(*item, axis_path)) {
        const double number = item->get<double>();
        if (!is_integral(number)) {
          add(axis_path, "Expected integer, received float");
        } else if (number < 0) {
          add(axis_path, "Number must be greater than or equal to 0");
        } else if (number > limits::kMaxPointCoordinate) {
          add(axis_path,
              "Number must be less than or equal to " + fmt_number(limits::kMaxPointCoordinate));
        }
      }
    }
    static constexpr std::array<std::string_view, 2> kAxes = {"x", "y"};
    report_unknown_keys(value, kAxes, path);
    if (issues_.size() != issues_before) return std::nullopt;
    Coordinate coordinate;
    coordinate.x = Number::from_json(value["x"]);
    coordinate.y = Number::from_json(value["y"]);
    coordinate.y_first = value.items().begin().key() == "y";
    return coordinate;
  }

  void check_supported_types(const std::vector<ActionShape>& actions) {
    for (const ActionShape& action : actions) {
      if (!action.shape_valid || action.spec != nullptr) continue;
      current_action_ = &action;
      add("actions", std::string(kUnsupportedTypeMessage)).suggestion =
          suggest_command(action.canonical_type, caller_type_names());
      current_action_ = nullptr;
    }
  }

  // The row's rules, run only on actions whose shape is valid (docs/payload.md §4).
  void check_action_rules(const ActionShape& action) {
    current_action_ = &action;
    const ActionSpec& spec = *action.spec;
    ActionRules rules(*this, action, "actions." + std::to_string(action.index) + ".params");
    const ParamSchema& schema = spec.schema != nullptr ? *spec.schema : generic_param_schema();
    bool cross_field_done = false;
    auto run_cross_field = [&] {
      if (spec.cross_field_rule != nullptr && !cross_field_done) spec.cross_field_rule(rules);
      cross_field_done = true;
    };
    const bool placed = std::any_of(
        spec.constraints.begin(), spec.constraints.end(),
        [](const ParamConstraint& c) { return c.kind == ConstraintKind::CrossFieldRule; });
    auto check = [&](const ParamConstraint& constraint) {
      if (constraint.kind == ConstraintKind::CrossFieldRule) {
        run_cross_field();
      } else if (!rules.failed(constraint.key)) {
        check_constraint(constraint, ParamView{rules.params(), schema.find(constraint.key)}, rules);
      }
    };
    // The schema's rules first: they hold for every action that shares it.
    std::for_each(schema.constraints.begin(), schema.constraints.end(), check);
    if (!placed) run_cross_field();
    std::for_each(spec.constraints.begin(), spec.constraints.end(), check);
    current_action_ = nullptr;
  }

  static void check_constraint(const ParamConstraint& constraint, const ParamView& param,
                               ActionRules& rules) {
    const std::string type(rules.type_name());
    const std::string key(constraint.key);
    auto fail = [&](std::string_view custom, std::string fallback) {
      rules.fail(constraint.key, custom.empty() ? std::move(fallback) : std::string(custom));
    };
    const std::string requires_message = type + " requires params." + key;
    switch (constraint.kind) {
      case ConstraintKind::Required:
        if (!param.present()) fail(constraint.message, requires_message);
        break;
      case ConstraintKind::RequiredNotBlank: {
        const std::string* text = param.string();
        if (text == nullptr || is_blank(*text)) fail(constraint.message, requires_message);
        break;
      }
      case ConstraintKind::RequiredNonEmpty: {
        const std::string* text = param.string();
        if (text == nullptr || text->empty()) fail(constraint.message, requires_message);
        break;
      }
      case ConstraintKind::NotBlankIfGiven: {
        const std::string* text = param.string();
        if (text != nullptr && is_blank(*text)) {
          fail(constraint.message, type + " params." + key + " must not be blank");
        }
        break;
      }
      case ConstraintKind::OneOf: {
        const std::string* text = param.string();
        if (text == nullptr && !constraint.required) break;
        std::string given = text == nullptr ? std::string() : *text;
        given = lowercase(trim(given));
        if (std::find(constraint.values.begin(), constraint.values.end(), given) ==
            constraint.values.end()) {
          fail(constraint.message,
               type + " params." + key + " must be one of: " + join_values(constraint.values));
        }
        break;
      }
      case ConstraintKind::OneOfExact: {
        const std::string* text = param.string();
        if (text == nullptr && !constraint.required) break;
        if (text == nullptr || std::find(constraint.values.begin(), constraint.values.end(),
                                         *text) == constraint.values.end()) {
          fail(constraint.message,
               type + " params." + key + " must be one of: " + join_values(constraint.values));
        }
        break;
      }
      case ConstraintKind::Range:
        check_range(constraint, param, type, fail);
        break;
      case ConstraintKind::DisplayText:
        if (const std::string* text = param.string()) {
          if (auto checked = on_screen_log::check_display_text(*text); !checked) {
            fail(constraint.message, type + " params." + key + " " + checked.error().message);
          }
        }
        break;
      case ConstraintKind::Template:
        if (const std::string* text = param.string()) {
          if (auto pieces = on_screen_log::parse_template(*text); !pieces) {
            fail(constraint.message, pieces.error().message);
          }
        }
        break;
      case ConstraintKind::Color:
        if (const std::string* text = param.string();
            text != nullptr && !on_screen_log::normalize_color(*text)) {
          fail(constraint.message,
               type + " params." + key + " must be exactly #RRGGBB or #AARRGGBB");
        }
        break;
      case ConstraintKind::Forbidden:
        if (param.present()) fail(constraint.message, type + " does not accept params." + key);
        break;
      case ConstraintKind::CrossFieldRule:
        break;
    }
  }

  template <typename Fail>
  static void check_range(const ParamConstraint& constraint, const ParamView& param,
                          const std::string& type, const Fail& fail) {
    const auto value = param.number();
    const std::string range_message =
        type + " params." + std::string(constraint.key) + " must be " +
        (constraint.integer ? "an integer" : "a number") + " in [" + fmt_number(constraint.min) +
        ", " + fmt_number(constraint.max) + "]";
    if (!value) {
      if (constraint.required) fail(constraint.message, range_message);
      return;
    }
    const bool below =
        constraint.min_exclusive ? *value <= constraint.min : *value < constraint.min;
    if (below) {
      fail(constraint.message, range_message);
    } else if (*value > constraint.max) {
      fail(constraint.above_message, range_message);
    } else if (constraint.integer && !is_integral(*value)) {
      fail({}, range_message);
    }
  }
};

Json issue_to_json(const ValidationIssue& issue) {
  Json out = Json::object();
  out["path"] = issue.path;
  out["message"] = issue.message;
  if (issue.action_id) out["actionId"] = *issue.action_id;
  if (issue.action_type) out["actionType"] = *issue.action_type;
  if (!issue.invalid_keys.empty()) out["invalidKeys"] = issue.invalid_keys;
  if (!issue.hint.empty()) out["hint"] = issue.hint;
  if (issue.suggestion) out["suggestion"] = *issue.suggestion;
  return out;
}

}  // namespace

ValidationOutcome validate_execution(const Json& payload, RandomText random) {
  Json normalised = normalize_payload(payload);
  if (random != nullptr) normalised = complete_short_form(std::move(normalised), random);
  return Validator().run(normalised);
}

Outcome<Execution> admit_execution(const Json& payload,
                                   std::optional<std::string_view> timeout_override,
                                   RandomText random) {
  ValidationOutcome outcome = validate_execution(payload, random);
  if (!outcome.valid) return failed(validation_failure(outcome.issues));
  if (timeout_override) CLAWPERATOR_TRY(apply_timeout_override(*outcome.valid, *timeout_override));
  CLAWPERATOR_TRY(check_payload_size(*outcome.valid));
  return std::move(*outcome.valid);
}

Expected<NodeMatcher, std::vector<ValidationIssue>> read_node_matcher(const Json& value,
                                                                      std::string_view path) {
  return Validator().read_matcher(normalize_matcher(value), std::string(path));
}

namespace {

bool is_unsupported_type(const ValidationIssue& issue) {
  return issue.message == kUnsupportedTypeMessage;
}

// The top-level message names what is wrong: the issue's own words (the original's, kept in
// details.issues) say "Required" without saying what is.
std::string primary_message(const ValidationIssue& issue) {
  const std::string did_you_mean =
      issue.suggestion ? ". Did you mean '" + *issue.suggestion + "'?" : std::string();
  if (is_unsupported_type(issue)) {
    return "Unsupported action type '" + issue.action_type.value_or("") +
           "': all action types must be supported" + did_you_mean;
  }
  if (issue.message == "Required" && !issue.path.empty()) {
    return "Missing required field '" + issue.path + "'";
  }
  return issue.message + did_you_mean;
}

}  // namespace

HostError validation_failure(const std::vector<ValidationIssue>& issues) {
  // An unknown action type is the one failure with a code of its own (the catalog's
  // EXECUTION_ACTION_UNSUPPORTED): it leads whatever else is wrong.
  const auto unsupported = std::find_if(issues.begin(), issues.end(), is_unsupported_type);
  const ValidationIssue& first = unsupported != issues.end() ? *unsupported : issues.front();
  Json details = Json::object();
  details["path"] = first.path;
  std::string reason;
  for (const ValidationIssue& issue : issues) {
    if (!reason.empty()) reason += "; ";
    reason += (issue.path.empty() ? std::string("(payload)") : issue.path) + ": " + issue.message;
  }
  details["reason"] = reason;
  // actionId/actionType only where the path is inside an action (docs/payload.md §6), also
  // an action of a sequence's payload ("executions.1.actions.0.type").
  if (first.path.rfind("actions", 0) == 0 || first.path.find(".actions") != std::string::npos) {
    if (first.action_id) details["actionId"] = *first.action_id;
    if (first.action_type) details["actionType"] = *first.action_type;
  }
  if (!first.invalid_keys.empty()) details["invalidKeys"] = first.invalid_keys;
  if (!first.hint.empty()) details["hint"] = first.hint;
  Json all = Json::array();
  for (const ValidationIssue& issue : issues) all.push_back(issue_to_json(issue));
  details["issues"] = std::move(all);

  const bool unsupported_type = is_unsupported_type(first);
  HostError error = validation_error(
      unsupported_type ? "EXECUTION_ACTION_UNSUPPORTED" : "EXECUTION_VALIDATION_FAILED",
      primary_message(first), std::move(details));
  if (first.suggestion) error.top_level["suggestion"] = *first.suggestion;
  if (unsupported_type) {
    std::string supported;
    for (const ActionSpec& spec : action_table()) {
      if (spec.from_callers) supported += (supported.empty() ? "" : ", ") + std::string(spec.name);
    }
    error.hint = hint_text(HintId::SupportedActionTypes, {{"supported", supported}});
  }
  return error;
}

std::optional<double> parse_milliseconds(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (*begin == '+') ++begin;
  const auto [ptr, ec] = std::from_chars(begin, end, value, std::chars_format::general);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

contract::Status apply_timeout_override(Execution& execution, std::string_view raw_timeout) {
  Json details = Json::object();
  details["path"] = "timeoutMs";
  const auto timeout = parse_milliseconds(raw_timeout);
  if (!timeout) {
    return contract::failed(validation_error(
        "EXECUTION_VALIDATION_FAILED", "timeoutMs must be a finite number", std::move(details)));
  }
  if (*timeout < limits::kMinExecutionTimeoutMs || *timeout > limits::kMaxExecutionTimeoutMs) {
    return contract::failed(validation_error("EXECUTION_VALIDATION_FAILED",
                                             "timeoutMs must be between 1000 and 120000",
                                             std::move(details)));
  }
  execution.timeout_ms = Number::milliseconds(*timeout);
  return {};
}

contract::Status check_payload_size(const Execution& execution) {
  const std::size_t bytes = dump_json(to_device_json(execution)).size();
  if (bytes <= limits::kMaxPayloadBytes) return {};
  Json details = Json::object();
  details["limitBytes"] = limits::kMaxPayloadBytes;
  details["payloadBytes"] = bytes;
  return contract::failed(validation_error("PAYLOAD_TOO_LARGE",
                                           "Payload exceeds " +
                                               std::to_string(limits::kMaxPayloadBytes) +
                                               " bytes (got " + std::to_string(bytes) + ")",
                                           std::move(details)));
}

}  // namespace clawperator::contract
