#include "clawperator/contract/payload_validation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <regex>
#include <span>
#include <string>

#include "clawperator/contract/action_types.hpp"
#include "clawperator/contract/limits.hpp"
#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

enum class Kind { String, Number, Boolean, Object, Matcher, Coordinate };

struct FieldSpec {
  std::string_view name;
  Kind kind;
  std::size_t max_length = 0;  // strings only; 0 = unbounded
};

// Schema order matters: issues and normalised output follow it (inventory 3.7).
constexpr std::array<FieldSpec, 32> kParamFields = {{
    {"applicationId", Kind::String},
    {"sessionId", Kind::String},
    {"uri", Kind::String, limits::kMaxUriLength},
    {"durationMs", Kind::Number},
    {"path", Kind::String},
    {"matcher", Kind::Matcher},
    {"coordinate", Kind::Coordinate},
    {"text", Kind::String, limits::kMaxTextLength},
    {"submit", Kind::Boolean},
    {"clear", Kind::Boolean},
    {"clickType", Kind::String},
    {"container", Kind::Matcher},
    {"direction", Kind::String},
    {"maxSwipes", Kind::Number},
    {"distanceRatio", Kind::Number},
    {"settleDelayMs", Kind::Number},
    {"maxScrolls", Kind::Number},
    {"maxDurationMs", Kind::Number},
    {"noPositionChangeThreshold", Kind::Number},
    {"findFirstScrollableChild", Kind::Boolean},
    {"clickAfter", Kind::Boolean},
    {"validator", Kind::String},
    {"validatorPattern", Kind::String},
    {"key", Kind::String},
    {"retry", Kind::Object},
    {"scrollRetry", Kind::Object},
    {"clickRetry", Kind::Object},
    {"expectedPackage", Kind::String, limits::kMaxExpectedPackageLength},
    {"expectedNode", Kind::Matcher},
    {"timeoutMs", Kind::Number},
    {"labelMatcher", Kind::Matcher},
    {"all", Kind::Boolean},
}};

std::span<const std::string_view> param_names() {
  static const auto names = [] {
    std::array<std::string_view, kParamFields.size()> out{};
    for (std::size_t i = 0; i < kParamFields.size(); ++i) out[i] = kParamFields[i].name;
    return out;
  }();
  return names;
}

constexpr std::array<std::string_view, 6> kMatcherFields = {
    "resourceId", "role", "textEquals", "textContains", "contentDescEquals", "contentDescContains",
};

constexpr std::array<std::string_view, 7> kTopLevelFields = {
    "commandId", "taskId", "source", "expectedFormat", "timeoutMs", "actions", "mode",
};

constexpr std::array<std::string_view, 3> kActionFields = {"id", "type", "params"};

constexpr std::string_view kExpectedFormat = "android-ui-automator";
constexpr std::string_view kDirections = "down, up, left, right";
constexpr std::size_t kMaxRegexNesting = 64;

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
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  return Json(value).dump();
}

bool is_blank_string(const Json* value) {
  return value == nullptr || !value->is_string() ||
         trim(value->get_ref<const std::string&>()).empty();
}

const Json* find(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<double> number_of(const Json* value) {
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

bool is_integral(double value) {
  return std::isfinite(value) && std::floor(value) == value;
}

// std::regex compiles recursively: bound nesting so that a hostile pattern gets
// a validation error rather than a stack overflow.
bool regex_nesting_within_bounds(std::string_view pattern) {
  std::size_t depth = 0;
  bool escaped = false;
  for (const char c : pattern) {
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '(' || c == '[') {
      if (++depth > kMaxRegexNesting) return false;
    } else if ((c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return true;
}

std::optional<std::string> regex_error(const std::string& pattern) {
  if (!regex_nesting_within_bounds(pattern)) return "pattern nests too deeply";
  try {
    const std::regex compiled(pattern, std::regex::ECMAScript);
    (void)compiled;
  } catch (const std::regex_error& error) {
    return error.what();
  } catch (const std::exception& error) {
    return error.what();
  }
  return std::nullopt;
}

class Validator {
 public:
  ValidationOutcome run(const Json& payload) {
    ValidationOutcome outcome;
    if (!payload.is_object()) {
      add("", "Expected object, received " + type_name(payload));
      outcome.issues = std::move(issues_);
      return outcome;
    }
    Json normalised = Json::object();
    check_string_field(payload, "commandId", "commandId", 1, limits::kMaxIdLength, normalised);
    check_string_field(payload, "taskId", "taskId", 1, limits::kMaxIdLength, normalised);
    check_string_field(payload, "source", "source", 1, limits::kMaxSourceLength, normalised);
    check_expected_format(payload, normalised);
    check_timeout(payload, normalised);
    const std::vector<ActionShape> actions = check_actions(payload, normalised);
    check_mode(payload, normalised);
    report_unknown_keys(payload, kTopLevelFields, "");
    check_supported_types(actions);
    for (const ActionShape& action : actions) {
      if (action.shape_valid && is_supported_action_type(action.canonical_type)) {
        check_action_rules(action);
      }
    }
    if (!issues_.empty()) {
      outcome.issues = std::move(issues_);
      return outcome;
    }
    ValidatedExecution valid;
    valid.command_id = normalised["commandId"].get<std::string>();
    valid.task_id = normalised["taskId"].get<std::string>();
    valid.timeout_ms = normalised["timeoutMs"].get<double>();
    valid.read_only = std::all_of(actions.begin(), actions.end(), [](const ActionShape& a) {
      return is_read_only_action(a.canonical_type);
    });
    valid.execution = std::move(normalised);
    outcome.valid = std::move(valid);
    return outcome;
  }

 private:
  struct ActionShape {
    std::size_t index = 0;
    const Json* raw = nullptr;
    std::optional<std::string> raw_id;
    std::optional<std::string> raw_type;
    std::string canonical_type;
    Json params;  // normalised params (object) or null when absent
    bool shape_valid = false;
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

  void check_string_field(const Json& object, std::string_view key, const std::string& path,
                          std::size_t min, std::size_t max, Json& out) {
    const Json* value = find(object, key);
    if (value == nullptr) {
      add(path, "Required");
      return;
    }
    if (check_string_value(*value, path, min, max)) out[std::string(key)] = *value;
  }

  void check_expected_format(const Json& payload, Json& out) {
    const Json* value = find(payload, "expectedFormat");
    if (value == nullptr) {
      add("expectedFormat", "Required");
    } else if (!value->is_string() || value->get_ref<const std::string&>() != kExpectedFormat) {
      add("expectedFormat",
          "Invalid literal value, expected \"" + std::string(kExpectedFormat) + "\"");
    } else {
      out["expectedFormat"] = *value;
    }
  }

  void check_timeout(const Json& payload, Json& out) {
    const Json* value = find(payload, "timeoutMs");
    if (value == nullptr) {
      add("timeoutMs", "Required");
      return;
    }
    if (!check_number_value(*value, "timeoutMs")) return;
    const double timeout = value->get<double>();
    if (timeout < limits::kMinExecutionTimeoutMs) {
      add("timeoutMs",
          "Number must be greater than or equal to " + fmt_number(limits::kMinExecutionTimeoutMs));
    } else if (timeout > limits::kMaxExecutionTimeoutMs) {
      add("timeoutMs",
          "Number must be less than or equal to " + fmt_number(limits::kMaxExecutionTimeoutMs));
    } else {
      out["timeoutMs"] = *value;
    }
  }

  void check_mode(const Json& payload, Json& out) {
    const Json* value = find(payload, "mode");
    if (value == nullptr) return;
    const bool known =
        value->is_string() && (value->get_ref<const std::string&>() == "direct" ||
                               value->get_ref<const std::string&>() == "artifact_compiled");
    if (!known) {
      const std::string received =
          value->is_string() ? "'" + value->get<std::string>() + "'" : type_name(*value);
      add("mode",
          "Invalid enum value. Expected 'artifact_compiled' | 'direct', received " + received);
      return;
    }
    out["mode"] = *value;
  }

  // Strict objects: every key outside `known` is one issue on the containing object.
  ValidationIssue* report_unknown_keys(const Json& object, std::span<const std::string_view> known,
                                       const std::string& path) {
    std::vector<std::string> unknown;
    for (const auto& item : object.items()) {
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        unknown.push_back(item.key());
      }
    }
    if (unknown.empty()) return nullptr;
    std::string message = "Unrecognized key(s) in object: ";
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      message += (i == 0 ? "'" : ", '") + unknown[i] + "'";
    }
    ValidationIssue& issue = add(path, std::move(message));
    issue.invalid_keys = std::move(unknown);
    return &issue;
  }

  std::vector<ActionShape> check_actions(const Json& payload, Json& out) {
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
    Json normalised = Json::array();
    for (std::size_t i = 0; i < actions->size(); ++i) {
      shapes.push_back(check_action_shape((*actions)[i], i));
      const ActionShape& shape = shapes.back();
      if (shape.shape_valid) {
        Json action = Json::object();
        action["id"] = *shape.raw_id;
        action["type"] = shape.canonical_type;
        if (!shape.params.is_null()) action["params"] = shape.params;
        normalised.push_back(std::move(action));
      }
    }
    out["actions"] = std::move(normalised);
    return shapes;
  }

  ActionShape check_action_shape(const Json& raw, std::size_t index) {
    ActionShape shape;
    shape.index = index;
    shape.raw = &raw;
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
    }
    if (const Json* params = find(raw, "params"); params != nullptr) {
      shape.params = check_params(*params, path + ".params", shape.canonical_type);
    }
    report_unknown_keys(raw, kActionFields, path);
    shape.shape_valid = issues_.size() == issues_before;
    current_action_ = nullptr;
    return shape;
  }

  Json check_params(const Json& params, const std::string& path,
                    const std::string& canonical_type) {
    if (!params.is_object()) {
      add(path, "Expected object, received " + type_name(params));
      return nullptr;
    }
    Json out = Json::object();
    for (const FieldSpec& field : kParamFields) {
      const Json* value = find(params, field.name);
      if (value == nullptr) continue;
      const std::string field_path = join(path, field.name);
      bool ok = false;
      switch (field.kind) {
        case Kind::String:
          ok = check_string_value(*value, field_path, 0, field.max_length);
          break;
        case Kind::Number:
          ok = check_number_value(*value, field_path);
          break;
        case Kind::Boolean:
          ok = value->is_boolean();
          if (!ok) add(field_path, "Expected boolean, received " + type_name(*value));
          break;
        case Kind::Object:
          ok = value->is_object();
          if (!ok) add(field_path, "Expected object, received " + type_name(*value));
          break;
        case Kind::Matcher:
          ok = check_matcher(*value, field_path);
          break;
        case Kind::Coordinate:
          ok = check_coordinate(*value, field_path);
          break;
      }
      if (ok) out[std::string(field.name)] = *value;
    }
    ValidationIssue* unknown = report_unknown_keys(params, param_names(), path);
    if (unknown != nullptr && canonical_type == "snapshot" &&
        std::find(unknown->invalid_keys.begin(), unknown->invalid_keys.end(), "format") !=
            unknown->invalid_keys.end()) {
      unknown->hint = "'format' was removed from snapshot_ui. Remove this parameter.";
    }
    return out;
  }

  bool check_matcher(const Json& value, const std::string& path) {
    if (!value.is_object()) {
      add(path, "Expected object, received " + type_name(value));
      return false;
    }
    const std::size_t issues_before = issues_.size();
    bool has_field = false;
    for (const std::string_view field : kMatcherFields) {
      const Json* item = find(value, field);
      if (item == nullptr) continue;
      if (check_string_value(*item, join(path, field), 0, limits::kMaxMatcherValueLength) &&
          !item->get_ref<const std::string&>().empty()) {
        has_field = true;
      }
    }
    report_unknown_keys(value, kMatcherFields, path);
    if (issues_.size() != issues_before) return false;
    if (!has_field) {
      add(path, "Matcher must have at least one field");
      return false;
    }
    return true;
  }

  bool check_coordinate(const Json& value, const std::string& path) {
    if (!value.is_object()) {
      add(path, "Expected object, received " + type_name(value));
      return false;
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
        }
      }
    }
    static constexpr std::array<std::string_view, 2> kAxes = {"x", "y"};
    report_unknown_keys(value, kAxes, path);
    return issues_.size() == issues_before;
  }

  void check_supported_types(const std::vector<ActionShape>& actions) {
    for (const ActionShape& action : actions) {
      if (!action.shape_valid || is_supported_action_type(action.canonical_type)) continue;
      current_action_ = &action;
      add("actions", "All action types must be supported");
      current_action_ = nullptr;
    }
  }

  // Per-action rules (inventory 3.6), run only on actions whose shape is valid.
  void check_action_rules(const ActionShape& action) {
    current_action_ = &action;
    const std::string base = "actions." + std::to_string(action.index) + ".params";
    const Json params = action.params.is_object() ? action.params : Json::object();
    const std::string& type = action.canonical_type;
    auto param = [&](std::string_view key) { return find(params, key); };
    auto at = [&](std::string_view key) { return join(base, key); };

    if (type == "open_app" || type == "close_app") {
      if (is_blank_string(param("applicationId"))) {
        add(at("applicationId"), type + " requires params.applicationId");
      }
    } else if (type == "start_recording" || type == "stop_recording") {
      if (param("sessionId") != nullptr && is_blank_string(param("sessionId"))) {
        add(at("sessionId"), type + " params.sessionId must not be blank");
      }
    } else if (type == "open_uri") {
      if (is_blank_string(param("uri"))) add(at("uri"), "open_uri requires params.uri");
    } else if (type == "sleep") {
      const auto duration = number_of(param("durationMs"));
      if (!duration || *duration < 0) {
        add(at("durationMs"), "sleep requires params.durationMs >= 0");
      } else if (*duration > limits::kMaxSleepMs) {
        add(at("durationMs"), "sleep.durationMs must not exceed 120000 ms");
      }
    } else if (type == "click") {
      check_click(params, base);
    } else if (type == "wait_for_node" || type == "scroll_and_click") {
      require_matcher(params, base, type, "matcher");
      if (type == "scroll_and_click") check_scroll_geometry(params, base, type, false);
    } else if (type == "read_text") {
      require_matcher(params, base, type, "matcher");
      check_read_validator(params, base);
    } else if (type == "enter_text") {
      require_matcher(params, base, type, "matcher");
      // Whitespace is text worth typing: only a missing or empty string is refused.
      const Json* text = param("text");
      if (text == nullptr || !text->is_string() || text->get_ref<const std::string&>().empty()) {
        add(at("text"), "enter_text requires non-empty params.text");
      }
    } else if (type == "scroll") {
      check_scroll_geometry(params, base, type, true);
    } else if (type == "scroll_until") {
      const Json* click_after = param("clickAfter");
      if (click_after != nullptr && click_after->is_boolean() && click_after->get<bool>() &&
          param("matcher") == nullptr) {
        add(at("matcher"), "scroll_until requires params.matcher when params.clickAfter is true");
      }
      check_scroll_geometry(params, base, type, false);
      check_scroll_until_bounds(params, base);
    } else if (type == "press_key") {
      const Json* key = param("key");
      if (is_blank_string(key)) {
        add(at("key"), "press_key requires params.key");
      } else {
        const std::string lowered = lowercase(trim(key->get_ref<const std::string&>()));
        if (lowered != "back" && lowered != "home" && lowered != "recents") {
          add(at("key"), "press_key params.key must be one of: back, home, recents");
        }
      }
    } else if (type == "take_screenshot") {
      if (param("path") != nullptr && is_blank_string(param("path"))) {
        add(at("path"), "take_screenshot params.path must be a non-empty string");
      }
    } else if (type == "wait_for_navigation") {
      if (is_blank_string(param("expectedPackage")) && param("expectedNode") == nullptr) {
        add(base, "wait_for_navigation requires params.expectedPackage or params.expectedNode");
      }
      const auto timeout = number_of(param("timeoutMs"));
      if (!timeout || *timeout <= 0) {
        add(at("timeoutMs"), "wait_for_navigation requires params.timeoutMs > 0");
      } else if (*timeout > limits::kMaxWaitForNavigationMs) {
        add(at("timeoutMs"), "wait_for_navigation params.timeoutMs must not exceed 30000");
      }
    } else if (type == "read_key_value_pair") {
      require_matcher(params, base, type, "labelMatcher");
    }
    current_action_ = nullptr;
  }

  void require_matcher(const Json& params, const std::string& base, const std::string& type,
                       std::string_view key) {
    if (find(params, key) == nullptr) {
      add(join(base, key), type + " requires params." + std::string(key));
    }
  }

  void check_click(const Json& params, const std::string& base) {
    const bool has_matcher = find(params, "matcher") != nullptr;
    const bool has_coordinate = find(params, "coordinate") != nullptr;
    if (!has_matcher && !has_coordinate) {
      add(base, "click requires params.matcher or params.coordinate");
    } else if (has_matcher && has_coordinate) {
      add(base, "click params.matcher and params.coordinate are mutually exclusive");
    } else if (has_coordinate) {
      const Json* click_type = find(params, "clickType");
      if (click_type != nullptr && click_type->is_string() &&
          click_type->get_ref<const std::string&>() == "focus") {
        add(join(base, "clickType"), "click params.coordinate does not support clickType='focus'");
      }
    }
  }

  void check_read_validator(const Json& params, const std::string& base) {
    const Json* validator = find(params, "validator");
    if (validator == nullptr || !validator->is_string() ||
        validator->get_ref<const std::string&>() != "regex") {
      return;
    }
    const Json* pattern = find(params, "validatorPattern");
    if (is_blank_string(pattern)) {
      add(join(base, "validatorPattern"),
          "read_text params.validatorPattern is required when params.validator is 'regex'");
      return;
    }
    if (const auto error = regex_error(pattern->get<std::string>())) {
      add(join(base, "validatorPattern"),
          "read_text params.validatorPattern must be a valid regular expression: " + *error);
    }
  }

  void check_range(const Json& params, const std::string& base, const std::string& type,
                   std::string_view key, double min, double max, bool integer) {
    const auto value = number_of(find(params, key));
    if (!value) return;
    if (*value < min || *value > max || (integer && !is_integral(*value))) {
      add(join(base, key), type + " params." + std::string(key) + " must be " +
                               (integer ? "an integer" : "a number") + " in [" + fmt_number(min) +
                               ", " + fmt_number(max) + "]");
    }
  }

  void check_scroll_geometry(const Json& params, const std::string& base, const std::string& type,
                             bool direction_required) {
    const Json* direction = find(params, "direction");
    if (direction != nullptr || direction_required) {
      const std::string lowered = direction != nullptr && direction->is_string()
                                      ? lowercase(trim(direction->get_ref<const std::string&>()))
                                      : std::string();
      if (lowered != "down" && lowered != "up" && lowered != "left" && lowered != "right") {
        add(join(base, "direction"),
            type + " params.direction must be one of: " + std::string(kDirections));
      }
    }
    check_range(params, base, type, "distanceRatio", 0, 1, false);
    check_range(params, base, type, "settleDelayMs", 0, limits::kMaxSettleDelayMs, false);
  }

  void check_scroll_until_bounds(const Json& params, const std::string& base) {
    const std::string type = "scroll_until";
    check_range(params, base, type, "maxScrolls", limits::kMinMaxScrolls, limits::kMaxMaxScrolls,
                true);
    check_range(params, base, type, "maxDurationMs", 0, limits::kMaxScrollDurationMs, false);
    check_range(params, base, type, "noPositionChangeThreshold",
                limits::kMinNoPositionChangeThreshold, limits::kMaxNoPositionChangeThreshold, true);
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
  return out;
}

}  // namespace

ValidationOutcome validate_execution(const Json& payload) {
  return Validator().run(payload);
}

HostError validation_failure(const std::vector<ValidationIssue>& issues) {
  const ValidationIssue& first = issues.front();
  Json details = Json::object();
  details["path"] = first.path;
  std::string reason;
  for (const ValidationIssue& issue : issues) {
    if (!reason.empty()) reason += "; ";
    reason += (issue.path.empty() ? std::string("(payload)") : issue.path) + ": " + issue.message;
  }
  details["reason"] = reason;
  // actionId/actionType only where the path is inside an action (inventory 3.7).
  if (first.path.rfind("actions", 0) == 0) {
    if (first.action_id) details["actionId"] = *first.action_id;
    if (first.action_type) details["actionType"] = *first.action_type;
  }
  if (!first.invalid_keys.empty()) details["invalidKeys"] = first.invalid_keys;
  if (!first.hint.empty()) details["hint"] = first.hint;
  Json all = Json::array();
  for (const ValidationIssue& issue : issues) all.push_back(issue_to_json(issue));
  details["issues"] = std::move(all);

  HostError error =
      validation_error("EXECUTION_VALIDATION_FAILED", first.message, std::move(details));
  if (first.message == "All action types must be supported") {
    std::string supported;
    for (const std::string_view type : canonical_action_types()) {
      supported += (supported.empty() ? "" : ", ") + std::string(type);
    }
    error.hint = "Supported action types: " + supported + ".";
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

std::optional<HostError> apply_timeout_override(ValidatedExecution& execution,
                                                std::string_view raw_timeout) {
  Json details = Json::object();
  details["path"] = "timeoutMs";
  const auto timeout = parse_milliseconds(raw_timeout);
  if (!timeout) {
    return validation_error("EXECUTION_VALIDATION_FAILED", "timeoutMs must be a finite number",
                            std::move(details));
  }
  if (*timeout < limits::kMinExecutionTimeoutMs || *timeout > limits::kMaxExecutionTimeoutMs) {
    return validation_error("EXECUTION_VALIDATION_FAILED",
                            "timeoutMs must be between 1000 and 120000", std::move(details));
  }
  execution.timeout_ms = *timeout;
  if (is_integral(*timeout)) {
    execution.execution["timeoutMs"] = static_cast<long long>(*timeout);
  } else {
    execution.execution["timeoutMs"] = *timeout;
  }
  return std::nullopt;
}

std::optional<HostError> check_payload_size(const ValidatedExecution& execution) {
  const std::size_t bytes = dump_json(execution.execution).size();
  if (bytes <= limits::kMaxPayloadBytes) return std::nullopt;
  Json details = Json::object();
  details["limitBytes"] = limits::kMaxPayloadBytes;
  details["payloadBytes"] = bytes;
  return validation_error("PAYLOAD_TOO_LARGE",
                          "Payload exceeds " + std::to_string(limits::kMaxPayloadBytes) +
                              " bytes (got " + std::to_string(bytes) + ")",
                          std::move(details));
}

}  // namespace clawperator::contract
