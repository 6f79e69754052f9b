#include "clawperator/contract/payload_normalization.hpp"

#include <array>
#include <set>
#include <string>
#include <string_view>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/matcher_fields.hpp"

namespace clawperator::contract {
namespace {

// One alias key and the canonical key it stands for (docs/payload.md §11).
struct KeyAlias {
  std::string_view alias;
  std::string_view canonical;
};

constexpr std::array<KeyAlias, 4> kTopLevelAliases = {{
    {"command_id", "commandId"},
    {"task_id", "taskId"},
    {"expected_format", "expectedFormat"},
    {"timeout_ms", "timeoutMs"},
}};

constexpr std::array<KeyAlias, 38> kParamAliases = {{
    {"application_id", "applicationId"},
    {"app_id", "applicationId"},
    {"appId", "applicationId"},
    {"app", "applicationId"},
    {"package", "applicationId"},
    {"package_id", "applicationId"},
    {"packageId", "applicationId"},
    {"session_id", "sessionId"},
    {"url", "uri"},
    {"duration_ms", "durationMs"},
    {"file", "path"},
    {"filePath", "path"},
    {"output_path", "path"},
    {"selector", "matcher"},
    {"node", "matcher"},
    {"element", "matcher"},
    {"value", "text"},
    {"click_type", "clickType"},
    {"longPress", "clickType"},  // a boolean: see long_press_value
    {"within", "container"},
    {"container_selector", "container"},
    {"max_swipes", "maxSwipes"},
    {"distance_ratio", "distanceRatio"},
    {"settle_delay_ms", "settleDelayMs"},
    {"max_scrolls", "maxScrolls"},
    {"max_duration_ms", "maxDurationMs"},
    {"no_position_change_threshold", "noPositionChangeThreshold"},
    {"find_first_scrollable_child", "findFirstScrollableChild"},
    {"click_after", "clickAfter"},
    {"validator_pattern", "validatorPattern"},
    {"expected_package", "expectedPackage"},
    {"expected_node", "expectedNode"},
    {"wait_for", "expectedNode"},
    {"timeout_ms", "timeoutMs"},
    {"skip_navigation_wait", "skipNavigationWait"},
    {"navigation_timeout_ms", "navigationTimeoutMs"},
    {"label_matcher", "labelMatcher"},
    {"label_selector", "labelMatcher"},
}};

// The params whose value is a matcher whose own keys are aliased (not its relations).
constexpr std::array<std::string_view, 4> kMatcherParams = {"matcher", "container", "expectedNode",
                                                            "labelMatcher"};

template <std::size_t N>
std::string_view canonical_of(std::string_view key, const std::array<KeyAlias, N>& aliases) {
  for (const KeyAlias& alias : aliases) {
    if (alias.alias == key) return alias.canonical;
  }
  return {};
}

// longPress is a boolean: true means clickType "long_click", false says nothing. Any other
// value keeps its own key, which validation refuses as unknown.
enum class LongPress : std::uint8_t { Long, Dropped, NotBoolean };
LongPress long_press_value(const Json& value) {
  if (!value.is_boolean()) return LongPress::NotBoolean;
  return value.get<bool>() ? LongPress::Long : LongPress::Dropped;
}

// The object with its alias keys renamed, in the order the keys first appear. The canonical
// key, when written, wins over every alias; among aliases of one key the last one wins.
// `canonical_key` names the key an alias stands for, or is empty.
template <typename CanonicalKey>
Json rename_keys(const Json& object, CanonicalKey canonical_key) {
  Json out = Json::object();
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    const std::string_view canonical = canonical_key(key);
    if (canonical.empty()) {
      out[key] = item.value();  // a canonical or unknown key; a later alias never replaces it
      continue;
    }
    if (object.contains(canonical)) continue;
    Json value = item.value();
    if (key == "longPress") {
      const LongPress press = long_press_value(value);
      if (press == LongPress::Dropped) continue;
      if (press == LongPress::NotBoolean) {
        out[key] = std::move(value);
        continue;
      }
      value = "long_click";
    }
    out[std::string(canonical)] = std::move(value);
  }
  return out;
}

}  // namespace

Json normalize_matcher(const Json& matcher) {
  return matcher.is_object() ? rename_keys(matcher, matcher_key_of_alias) : matcher;
}

namespace {

Json normalize_params(const Json& params) {
  Json out =
      rename_keys(params, [](std::string_view key) { return canonical_of(key, kParamAliases); });
  for (const std::string_view key : kMatcherParams) {
    const auto it = out.find(key);
    if (it != out.end()) *it = normalize_matcher(*it);
  }
  return out;
}

Json normalize_action(const Json& action) {
  if (!action.is_object()) return action;
  const auto params = action.find("params");
  if (params == action.end() || !params->is_object()) return action;
  const auto type = action.find("type");
  if (type != action.end() && type->is_string()) {
    const ActionSpec* spec = find_caller_action(type->get_ref<const std::string&>());
    if (spec != nullptr && spec->input != InputForm::Normalised) return action;
  }
  Json out = action;
  out["params"] = normalize_params(*params);
  return out;
}

}  // namespace

Json normalize_payload(const Json& payload) {
  if (!payload.is_object()) return payload;
  Json out = rename_keys(payload,
                         [](std::string_view key) { return canonical_of(key, kTopLevelAliases); });
  const auto actions = out.find("actions");
  if (actions != out.end() && actions->is_array()) {
    for (Json& action : *actions) action = normalize_action(action);
  }
  return out;
}

Json complete_short_form(Json payload, RandomText random) {
  if (!payload.is_object()) return payload;
  if (!payload.contains("commandId")) {
    payload["commandId"] = std::string(kShortFormCommandPrefix) + "-" + random();
  }
  if (!payload.contains("taskId")) {
    Json task_id = payload["commandId"];  // a copy: the insertion below may move the members
    payload["taskId"] = std::move(task_id);
  }
  if (!payload.contains("source")) payload["source"] = kShortFormSource;
  if (!payload.contains("expectedFormat")) payload["expectedFormat"] = kExpectedFormat;
  if (!payload.contains("timeoutMs")) payload["timeoutMs"] = kShortFormTimeoutMs;
  const auto actions = payload.find("actions");
  if (actions == payload.end() || !actions->is_array()) return payload;
  std::set<std::string, std::less<>> used;
  for (const Json& action : *actions) {
    if (!action.is_object()) continue;
    if (const auto id = action.find("id"); id != action.end() && id->is_string()) {
      used.insert(id->get<std::string>());
    }
  }
  std::size_t next = 1;
  for (Json& action : *actions) {
    if (!action.is_object() || action.contains("id")) continue;
    std::string id;
    do {
      id = "a" + std::to_string(next++);
    } while (used.contains(id));
    action["id"] = std::move(id);
  }
  return payload;
}

std::string_view canonical_param_key(std::string_view key) {
  const std::string_view canonical = canonical_of(key, kParamAliases);
  return canonical.empty() ? key : canonical;
}

}  // namespace clawperator::contract
