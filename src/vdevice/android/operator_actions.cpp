#include "clawperator/vdevice/android/operator_actions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <utility>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/vdevice/android/background_services.hpp"
#include "clawperator/vdevice/android/ui_xml.hpp"

namespace clawperator::vdevice::android {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kSwipeDuration{300};
constexpr std::size_t kMaxCandidates = 10;
constexpr std::size_t kMaxCandidateChars = 512;

// ---- params -------------------------------------------------------------------------------

const Json* param(const Json& params, const char* key) {
  if (!params.is_object()) return nullptr;
  const auto it = params.find(key);
  return it == params.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> string_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}

std::optional<double> number_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::optional<bool> bool_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

milliseconds clamped_ms(std::optional<double> value, double fallback, double low, double high) {
  const double chosen =
      std::isfinite(value.value_or(fallback)) ? value.value_or(fallback) : fallback;
  return milliseconds(std::llround(std::clamp(chosen, low, high)));
}

std::optional<NodeMatcher> matcher_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_object()) return std::nullopt;
  NodeMatcher matcher;
  const std::pair<const char*, std::string*> fields[] = {
      {"resourceId", &matcher.resource_id},
      {"role", &matcher.role},
      {"textEquals", &matcher.text_equals},
      {"textContains", &matcher.text_contains},
      {"contentDescEquals", &matcher.content_desc_equals},
      {"contentDescContains", &matcher.content_desc_contains},
  };
  for (const auto& [name, target] : fields) {
    if (auto text = string_param(*value, name)) *target = *text;
  }
  if (matcher.empty()) return std::nullopt;
  return matcher;
}

std::string describe(const NodeMatcher& matcher) {
  Json out = Json::object();
  if (!matcher.resource_id.empty()) out["resourceId"] = matcher.resource_id;
  if (!matcher.role.empty()) out["role"] = matcher.role;
  if (!matcher.text_equals.empty()) out["textEquals"] = matcher.text_equals;
  if (!matcher.text_contains.empty()) out["textContains"] = matcher.text_contains;
  if (!matcher.content_desc_equals.empty()) out["contentDescEquals"] = matcher.content_desc_equals;
  if (!matcher.content_desc_contains.empty()) {
    out["contentDescContains"] = matcher.content_desc_contains;
  }
  return dump_json(out);
}

// ---- nodes --------------------------------------------------------------------------------

std::string capped(const std::string& text) {
  if (text.size() <= kMaxCandidateChars) return text;
  std::size_t end = kMaxCandidateChars;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

Json node_summary(const VisibleNode& node) {
  Json out = Json::object();
  out["text"] = node.text();
  out["resource_id"] = node.spec->resource_id;
  out["content_desc"] = node.spec->content_desc;
  out["class"] = node.spec->class_name;
  out["bounds"] = to_string(node.bounds);
  return out;
}

StepOutcome not_found(const NodeMatcher& matcher) {
  return StepOutcome::fail("NODE_NOT_FOUND", "No matching node found for " + describe(matcher));
}

StepOutcome ambiguous(const char* code, const std::vector<VisibleNode*>& nodes) {
  Json candidates = Json::array();
  for (std::size_t i = 0; i < nodes.size() && i < kMaxCandidates; ++i) {
    const VisibleNode& node = *nodes[i];
    Json candidate = Json::object();
    candidate["resourceId"] = capped(node.spec->resource_id);
    candidate["text"] = capped(node.text());
    candidate["contentDesc"] = capped(node.spec->content_desc);
    candidate["className"] = capped(node.spec->class_name);
    candidate["bounds"] = to_string(node.bounds);
    candidates.push_back(std::move(candidate));
  }
  Json extra = Json::object();
  extra["candidate_count"] = std::to_string(nodes.size());
  extra["candidates"] = dump_json(candidates);
  return StepOutcome::fail(
      code, std::to_string(nodes.size()) + " nodes matched; narrow the selector to exactly one",
      std::move(extra));
}

struct Resolved {
  VisibleNode* node = nullptr;
  StepOutcome failure;
};

Resolved resolve_unique(VisibleTree& tree, const NodeMatcher& matcher) {
  const auto found = tree.find(matcher);
  if (found.empty()) return {nullptr, not_found(matcher)};
  if (found.size() > 1) return {nullptr, ambiguous("NODE_AMBIGUOUS", found)};
  return {found.front(), {}};
}

Resolved resolve_container(VisibleTree& tree, const Json& params) {
  if (const auto matcher = matcher_param(params, "container")) {
    const auto found = tree.find(*matcher);
    if (found.empty()) {
      return {nullptr, StepOutcome::fail("CONTAINER_NOT_FOUND",
                                         "No container matched " + describe(*matcher))};
    }
    if (found.size() > 1) return {nullptr, ambiguous("CONTAINER_AMBIGUOUS", found)};
    VisibleNode* container = found.front();
    if (container->spec->scrollable) return {container, {}};
    if (bool_param(params, "findFirstScrollableChild").value_or(true)) {
      std::vector<VisibleNode*> pending{container};
      while (!pending.empty()) {
        VisibleNode* node = pending.front();
        pending.erase(pending.begin());
        if (node->spec->scrollable) return {node, {}};
        for (VisibleNode& child : node->children) pending.push_back(&child);
      }
    }
    return {nullptr, StepOutcome::fail("CONTAINER_NOT_SCROLLABLE",
                                       "The container " + describe(*matcher) +
                                           " is not scrollable and has no scrollable child")};
  }
  for (VisibleNode* node : tree.all()) {
    if (node->spec->scrollable) return {node, {}};
  }
  return {nullptr,
          StepOutcome::fail("CONTAINER_NOT_FOUND", "No scrollable container on the screen")};
}

// Taps the node the way the Operator does: on the node, or the nearest clickable ancestor
// when the node itself (a row's title, say) is not clickable.
StepOutcome click_node(const ActionContext& context, VisibleTree& tree, VisibleNode& matched,
                       const std::string& click_type) {
  if (!matched.spec->enabled) {
    return StepOutcome::fail("NODE_NOT_CLICKABLE", "The matched node is disabled");
  }
  if (click_type == "focus") {
    matched.spec->focused = true;
    return StepOutcome::ok();
  }
  VisibleNode* target = &matched;
  while (target != nullptr && !(target->spec->clickable && target->spec->enabled)) {
    target = target->parent;
  }
  if (target == nullptr) {
    return StepOutcome::fail("NODE_NOT_CLICKABLE",
                             "Neither the matched node nor its ancestors are clickable");
  }
  // A long press opens menus the scenario does not model: it changes nothing.
  if (click_type == "long_click" || click_type == "long") return StepOutcome::ok();
  context.system->ui().click(tree, matched, *target, context.system->now());
  return StepOutcome::ok();
}

const char* direction_name(ScrollDirection direction) {
  switch (direction) {
    case ScrollDirection::Down:
      return "down";
    case ScrollDirection::Up:
      return "up";
    case ScrollDirection::Left:
      return "left";
    case ScrollDirection::Right:
      return "right";
  }
  return "down";
}

std::optional<ScrollDirection> direction_param(const Json& params) {
  return parse_scroll_direction(string_param(params, "direction").value_or("down"));
}

StepOutcome bad_params(const std::string& message) {
  return StepOutcome::fail("ACTION_FAILED", message);
}

// ---- actions ------------------------------------------------------------------------------

StepOutcome open_app(const ActionContext& context, const Json& params) {
  const auto package = string_param(params, "applicationId");
  if (!package || package->empty()) return bad_params("open_app requires params.applicationId");
  if (!context.system->start_app(*package,
                                 "act=android.intent.action.MAIN "
                                 "cat=[android.intent.category.LAUNCHER] flg=0x10200000 pkg=" +
                                     *package)) {
    return StepOutcome::fail("ACTION_FAILED",
                             "No launchable activity for " + *package + " (is the app installed?)");
  }
  Json data = Json::object();
  data["application_id"] = *package;
  return StepOutcome::later(
      milliseconds(context.system->scenario().operator_behavior.launch_delay_ms),
      [data] { return StepOutcome::ok(data); });
}

StepOutcome open_uri(const ActionContext& context, const Json& params) {
  const auto uri = string_param(params, "uri");
  if (!uri || uri->empty()) return bad_params("open_uri requires params.uri");
  const auto handler = context.system->start_uri(*uri, "");
  if (!handler) return StepOutcome::fail("ACTION_FAILED", "No activity found to handle " + *uri);
  Json data = Json::object();
  data["uri"] = *uri;
  data["application_id"] = *handler;
  return StepOutcome::later(
      milliseconds(context.system->scenario().operator_behavior.launch_delay_ms),
      [data] { return StepOutcome::ok(data); });
}

StepOutcome close_app(const ActionContext& context, const Json& params) {
  const auto package = string_param(params, "applicationId");
  if (!package || package->empty()) return bad_params("close_app requires params.applicationId");
  Json data = Json::object();
  data["application_id"] = *package;
  if (context.system->scenario().operator_behavior.close_app_supported) {
    context.system->force_stop(*package,
                               "from pid " + std::to_string(context.pid) + " (close_app)");
    return StepOutcome::ok(data);
  }
  // An accessibility service cannot force-stop apps; the host does it with adb beforehand.
  StepOutcome outcome = StepOutcome::fail(
      "UNSUPPORTED_RUNTIME_CLOSE",
      "Android cannot force-stop apps from the Operator; the host closes them with "
      "'am force-stop'",
      data);
  outcome.continues = true;
  return outcome;
}

StepOutcome poll_for_node(ActionContext context, NodeMatcher matcher, SteadyTime deadline,
                          long long timeout_ms) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  const auto found = tree->find(matcher);
  if (!found.empty()) return StepOutcome::ok(node_summary(*found.front()));
  if (system.now() >= deadline) {
    return StepOutcome::fail("WAIT_TIMEOUT", "No node matched " + describe(matcher) + " within " +
                                                 std::to_string(timeout_ms) + " ms");
  }
  const auto interval = milliseconds(system.scenario().operator_behavior.poll_interval_ms);
  const auto next = std::min<milliseconds>(
      interval, std::chrono::duration_cast<milliseconds>(deadline - system.now()));
  return StepOutcome::later(std::max(next, milliseconds(1)),
                            [=] { return poll_for_node(context, matcher, deadline, timeout_ms); });
}

StepOutcome wait_for_node(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("wait_for_node requires params.matcher");
  const milliseconds timeout = clamped_ms(number_param(params, "timeoutMs"), 10000, 1, 120000);
  return poll_for_node(context, *matcher, context.system->now() + timeout, timeout.count());
}

StepOutcome click(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  const Json* coordinate = param(params, "coordinate");
  if (!matcher && coordinate == nullptr) {
    return bad_params("click requires params.matcher or params.coordinate");
  }
  const std::string click_type = string_param(params, "clickType").value_or("default");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  if (matcher) {
    Resolved resolved = resolve_unique(*tree, *matcher);
    if (resolved.node == nullptr) return resolved.failure;
    return click_node(context, *tree, *resolved.node, click_type);
  }
  const auto x = coordinate->is_object() ? number_param(*coordinate, "x") : std::nullopt;
  const auto y = coordinate->is_object() ? number_param(*coordinate, "y") : std::nullopt;
  if (!x || !y) return bad_params("click params.coordinate needs numbers x and y");
  VisibleNode* node = tree->at_point(static_cast<int>(*x), static_cast<int>(*y));
  // A tap lands whether or not something reacts to it.
  if (node == nullptr) return StepOutcome::ok();
  VisibleNode* target = node;
  while (target != nullptr && !(target->spec->clickable && target->spec->enabled)) {
    target = target->parent;
  }
  if (target == nullptr) return StepOutcome::ok();
  return click_node(context, *tree, *target, click_type);
}

struct ScrollSearch {
  int scrolls = 0;
  int unchanged = 0;
  SteadyTime started;
};

StepOutcome scroll_and_click_step(ActionContext context, Json params, NodeMatcher matcher,
                                  std::shared_ptr<ScrollSearch> search) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  const auto found = tree->find(matcher);
  Json data = Json::object();
  data["scrolls"] = std::to_string(search->scrolls);
  if (!found.empty()) {
    if (found.size() > 1) return ambiguous("NODE_AMBIGUOUS", found);
    if (bool_param(params, "clickAfter").value_or(true)) {
      StepOutcome clicked = click_node(context, *tree, *found.front(), "default");
      if (!clicked.success) return clicked;
    }
    return StepOutcome::ok(data);
  }
  Resolved container = resolve_container(*tree, params);
  if (container.node == nullptr) return container.failure;
  const int max_swipes =
      static_cast<int>(clamped_ms(number_param(params, "maxSwipes"), 10, 1, 50).count());
  const auto direction = direction_param(params);
  if (!direction) return bad_params("scroll_and_click params.direction must be down/up/left/right");
  if (search->scrolls >= max_swipes) {
    StepOutcome outcome = not_found(matcher);
    outcome.data["scrolls"] = std::to_string(search->scrolls);
    return outcome;
  }
  const double ratio = number_param(params, "distanceRatio").value_or(0.7);
  const int moved = system.ui().scroll(*container.node, *direction, ratio);
  ++search->scrolls;
  if (moved == 0) {
    StepOutcome outcome = not_found(matcher);
    outcome.data["scrolls"] = std::to_string(search->scrolls);
    return outcome;
  }
  const milliseconds settle = clamped_ms(number_param(params, "settleDelayMs"), 250, 0, 10000);
  return StepOutcome::later(kSwipeDuration + settle, [=] {
    return scroll_and_click_step(context, params, matcher, search);
  });
}

StepOutcome scroll_and_click(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("scroll_and_click requires params.matcher");
  return scroll_and_click_step(context, params, *matcher, std::make_shared<ScrollSearch>());
}

StepOutcome scroll(const ActionContext& context, const Json& params) {
  const auto direction = direction_param(params);
  if (!direction) return bad_params("scroll params.direction must be down, up, left or right");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  Resolved container = resolve_container(*tree, params);
  if (container.node == nullptr) return container.failure;
  const int moved = system.ui().scroll(*container.node, *direction,
                                       number_param(params, "distanceRatio").value_or(0.7));
  Json data = Json::object();
  data["direction"] = direction_name(*direction);
  data["scrolled"] = moved > 0 ? "true" : "false";
  const milliseconds settle = clamped_ms(number_param(params, "settleDelayMs"), 250, 0, 10000);
  return StepOutcome::later(kSwipeDuration + settle, [data] { return StepOutcome::ok(data); });
}

StepOutcome scroll_until_step(ActionContext context, Json params,
                              std::optional<NodeMatcher> matcher,
                              std::shared_ptr<ScrollSearch> search) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  auto finish = [&](const char* reason) {
    Json data = Json::object();
    data["termination_reason"] = reason;
    data["scrolls"] = std::to_string(search->scrolls);
    if (!matcher) return StepOutcome::ok(data);
    StepOutcome outcome = not_found(*matcher);
    for (auto& [key, value] : data.items()) outcome.data[key] = value;
    return outcome;
  };
  if (matcher) {
    const auto found = tree->find(*matcher);
    if (!found.empty()) {
      if (bool_param(params, "clickAfter").value_or(false)) {
        if (found.size() > 1) return ambiguous("NODE_AMBIGUOUS", found);
        StepOutcome clicked = click_node(context, *tree, *found.front(), "default");
        if (!clicked.success) return clicked;
      }
      Json data = Json::object();
      data["termination_reason"] = "TARGET_FOUND";
      data["scrolls"] = std::to_string(search->scrolls);
      return StepOutcome::ok(data);
    }
  }
  Resolved container = resolve_container(*tree, params);
  if (container.node == nullptr) return container.failure;
  const auto direction = direction_param(params);
  if (!direction) return bad_params("scroll_until params.direction must be down/up/left/right");
  const int max_scrolls =
      static_cast<int>(clamped_ms(number_param(params, "maxScrolls"), 20, 1, 200).count());
  const milliseconds max_duration =
      clamped_ms(number_param(params, "maxDurationMs"), 10000, 0, 120000);
  const int threshold = static_cast<int>(
      clamped_ms(number_param(params, "noPositionChangeThreshold"), 3, 1, 20).count());
  if (search->unchanged >= threshold) return finish("EDGE_REACHED");
  if (search->scrolls >= max_scrolls) return finish("MAX_SCROLLS");
  if (system.now() - search->started >= max_duration) return finish("MAX_DURATION");
  const int moved = system.ui().scroll(*container.node, *direction,
                                       number_param(params, "distanceRatio").value_or(0.7));
  ++search->scrolls;
  search->unchanged = moved > 0 ? 0 : search->unchanged + 1;
  const milliseconds settle = clamped_ms(number_param(params, "settleDelayMs"), 250, 0, 10000);
  return StepOutcome::later(kSwipeDuration + settle,
                            [=] { return scroll_until_step(context, params, matcher, search); });
}

StepOutcome scroll_until(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (bool_param(params, "clickAfter").value_or(false) && !matcher) {
    return bad_params("scroll_until params.clickAfter requires params.matcher");
  }
  auto search = std::make_shared<ScrollSearch>();
  search->started = context.system->now();
  return scroll_until_step(context, params, matcher, search);
}

std::optional<std::string> validation_problem(const Json& params, const std::string& text) {
  const auto validator = string_param(params, "validator");
  if (!validator || validator->empty()) return std::nullopt;
  std::string pattern;
  if (*validator == "temperature") {
    pattern = "^-?\\d+(\\.\\d+)?\\s*(\xc2\xb0)?\\s*[CFcf]?$";
  } else if (*validator == "version") {
    pattern = "^v?\\d+(\\.\\d+)+";
  } else if (*validator == "regex") {
    pattern = string_param(params, "validatorPattern").value_or("");
  } else {
    return "unknown validator '" + *validator + "'";
  }
  try {
    if (std::regex_search(text, std::regex(pattern))) return std::nullopt;
    return "text does not satisfy the " + *validator + " validator";
  } catch (const std::regex_error& error) {
    return "invalid validatorPattern: " + std::string(error.what());
  }
}

StepOutcome read_text(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("read_text requires params.matcher");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  Resolved resolved = resolve_unique(*tree, *matcher);
  if (resolved.node == nullptr) return resolved.failure;
  Json data = Json::object();
  data["text"] = resolved.node->text();
  if (auto problem = validation_problem(params, resolved.node->text())) {
    StepOutcome outcome = StepOutcome::fail("VALIDATION_FAILED", *problem);
    outcome.data["text"] = resolved.node->text();
    return outcome;
  }
  return StepOutcome::ok(data);
}

StepOutcome enter_text(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("enter_text requires params.matcher");
  const auto text = string_param(params, "text");
  if (!text || text->empty()) return bad_params("enter_text requires non-empty params.text");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  Resolved resolved = resolve_unique(*tree, *matcher);
  if (resolved.node == nullptr) return resolved.failure;
  NodeSpec& field = *resolved.node->spec;
  if (!field.enabled) return StepOutcome::fail("NODE_NOT_CLICKABLE", "The text field is disabled");
  if (!field.editable) {
    return StepOutcome::fail("ACTION_FAILED",
                             "The matched node (" + field.class_name + ") does not accept text");
  }
  // ACTION_SET_TEXT replaces the content: `clear` changes nothing on Android.
  field.text = *text;
  field.focused = true;
  if (bool_param(params, "submit").value_or(false))
    system.ui().submit(*resolved.node, system.now());
  Json data = Json::object();
  data["text"] = *text;
  return StepOutcome::ok(data);
}

StepOutcome snapshot(const ActionContext& context, const Json&) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  // The on-screen log panel is a window of the Operator's over the app (docs/payload.md §9).
  BackgroundServices::Panel* panel = system.background().panel(system.now());
  if (panel != nullptr) {
    VisibleNode overlay;
    overlay.spec = &panel->node;
    overlay.package = context.operator_package;
    overlay.bounds = *panel->node.bounds;
    overlay.index = static_cast<int>(tree->root.children.size());
    overlay.parent = &tree->root;
    tree->root.children.push_back(std::move(overlay));
  }
  if (!system.scenario().operator_behavior.snapshot_in_logcat) {
    Json data = Json::object();
    data["text"] = hierarchy_xml(*tree, context.pad_snapshot_bytes);
    if (panel != nullptr) data["operator_overlay_visible"] = "true";
    return StepOutcome::ok(data);
  }
  // The legacy Operator: the dump goes to logcat after a marker the host looks for.
  system.log_line(context.pid, context.tid, 'D', "TaskScope",
                  "[TaskScope] UI Hierarchy [commandId=" + context.command_id + "]:");
  const std::string lines = hierarchy_xml_lines(*tree);
  std::size_t start = 0;
  while (start < lines.size()) {
    std::size_t end = lines.find('\n', start);
    if (end == std::string::npos) end = lines.size();
    if (end > start) {
      system.log_line(context.pid, context.tid, 'D', "TaskScope", lines.substr(start, end - start));
    }
    start = end + 1;
  }
  return StepOutcome::ok();
}

StepOutcome take_screenshot(const ActionContext&, const Json&) {
  return StepOutcome::ok();
}

StepOutcome sleep(const ActionContext&, const Json& params) {
  const milliseconds duration = clamped_ms(number_param(params, "durationMs"), 0, 0, 120000);
  Json data = Json::object();
  data["duration_ms"] = std::to_string(duration.count());
  if (duration.count() == 0) return StepOutcome::ok(data);
  return StepOutcome::later(duration, [data] { return StepOutcome::ok(data); });
}

StepOutcome press_key(const ActionContext& context, const Json& params) {
  std::string key = string_param(params, "key").value_or("");
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  AndroidSystem& system = *context.system;
  if (key == "back") {
    system.ui().back(system.now());
  } else if (key == "home") {
    system.ui().home();
  } else if (key == "recents") {
    system.ui().recents(system.now());
  } else {
    return bad_params("press_key params.key must be one of: back, home, recents");
  }
  Json data = Json::object();
  data["key"] = key;
  return StepOutcome::ok(data);
}

StepOutcome poll_for_navigation(ActionContext context, std::string package,
                                std::optional<NodeMatcher> node, SteadyTime deadline,
                                long long timeout_ms) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  const bool package_ok = package.empty() || tree->package == package;
  const bool node_ok = !node || !tree->find(*node).empty();
  if (package_ok && node_ok) {
    Json data = Json::object();
    data["package"] = tree->package;
    data["screen"] = tree->screen_id;
    return StepOutcome::ok(data);
  }
  if (system.now() >= deadline) {
    StepOutcome outcome = StepOutcome::fail(
        "WAIT_TIMEOUT", "The expected screen did not appear within " + std::to_string(timeout_ms) +
                            " ms (foreground: " + tree->package + ")");
    outcome.data["package"] = tree->package;
    return outcome;
  }
  const auto interval = milliseconds(system.scenario().operator_behavior.poll_interval_ms);
  const auto next = std::min<milliseconds>(
      interval, std::chrono::duration_cast<milliseconds>(deadline - system.now()));
  return StepOutcome::later(std::max(next, milliseconds(1)), [=] {
    return poll_for_navigation(context, package, node, deadline, timeout_ms);
  });
}

StepOutcome wait_for_navigation(const ActionContext& context, const Json& params) {
  const std::string package = string_param(params, "expectedPackage").value_or("");
  const auto node = matcher_param(params, "expectedNode");
  if (package.empty() && !node) {
    return bad_params("wait_for_navigation requires params.expectedPackage or params.expectedNode");
  }
  const milliseconds timeout = clamped_ms(number_param(params, "timeoutMs"), 5000, 1, 30000);
  return poll_for_navigation(context, package, node, context.system->now() + timeout,
                             timeout.count());
}

// The value of a label: the next text after it among its siblings, else in the nodes that
// follow its parent (a settings row: title, then summary).
const VisibleNode* value_after(const VisibleNode& label) {
  std::vector<const VisibleNode*> order;
  std::function<void(const VisibleNode&)> walk = [&](const VisibleNode& node) {
    order.push_back(&node);
    for (const VisibleNode& child : node.children) walk(child);
  };
  const VisibleNode* top = &label;
  while (top->parent != nullptr) top = top->parent;
  walk(*top);
  const auto at = std::find(order.begin(), order.end(), &label);
  for (auto it = at == order.end() ? at : at + 1; it != order.end(); ++it) {
    if (!(*it)->text().empty()) return *it;
  }
  return nullptr;
}

StepOutcome read_key_value_pair(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "labelMatcher");
  if (!matcher) return bad_params("read_key_value_pair requires params.labelMatcher");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  Resolved resolved = resolve_unique(*tree, *matcher);
  if (resolved.node == nullptr) return resolved.failure;
  const VisibleNode* value = value_after(*resolved.node);
  if (value == nullptr) {
    return StepOutcome::fail("NODE_NOT_FOUND", "No value follows the label " + describe(*matcher));
  }
  Json data = Json::object();
  data["label"] = resolved.node->text();
  data["value"] = value->text();
  return StepOutcome::ok(data);
}

StepOutcome recording(const ActionContext&, const Json& params) {
  Json data = Json::object();
  if (auto session = string_param(params, "sessionId")) data["session_id"] = *session;
  return StepOutcome::ok(data);
}

StepOutcome doctor_ping(const ActionContext& context, const Json&) {
  AndroidSystem& system = *context.system;
  const PackageSpec* package = system.package(context.operator_package);
  Json data = Json::object();
  data["screen_on"] = system.screen_on() ? "true" : "false";
  data["device_locked"] = system.locked() ? "true" : "false";
  data["user_unlocked"] = system.user_unlocked() ? "true" : "false";
  data["accessibility_service"] = "running";
  data["operator_package"] = context.operator_package;
  data["operator_version"] = package != nullptr ? package->version_name : "";
  data["sdk_int"] = system.property("ro.build.version.sdk").value_or("");
  return StepOutcome::ok(data);
}

using Handler = StepOutcome (*)(const ActionContext&, const Json&);

// Every row of the action table has its simulation here: a new ActionType that is not handled
// fails to compile (-Wswitch), so the virtual device never lags the host.
Handler handler_for(contract::ActionType type) {
  using T = contract::ActionType;
  switch (type) {
    case T::OpenApp:
      return open_app;
    case T::OpenUri:
      return open_uri;
    case T::CloseApp:
      return close_app;
    case T::StartRecording:
    case T::StopRecording:
      return recording;
    case T::WaitForNode:
      return wait_for_node;
    case T::Click:
      return click;
    case T::ScrollAndClick:
      return scroll_and_click;
    case T::Scroll:
      return scroll;
    case T::ScrollUntil:
      return scroll_until;
    case T::ReadText:
      return read_text;
    case T::EnterText:
      return enter_text;
    case T::Snapshot:
      return snapshot;
    case T::TakeScreenshot:
      return take_screenshot;
    case T::Sleep:
      return sleep;
    case T::PressKey:
      return press_key;
    case T::WaitForNavigation:
      return wait_for_navigation;
    case T::ReadKeyValuePair:
      return read_key_value_pair;
    case T::ListNotifications:
      return background_actions::list_notifications;
    case T::DismissNotification:
      return background_actions::dismiss_notification;
    case T::InvokeNotificationAction:
      return background_actions::invoke_notification_action;
    case T::ListMediaSessions:
      return background_actions::list_media_sessions;
    case T::GetMediaStatus:
      return background_actions::get_media_status;
    case T::ObserveMedia:
      return background_actions::observe_media;
    case T::MediaPlay:
      return background_actions::media_play;
    case T::MediaPause:
      return background_actions::media_pause;
    case T::MediaSeek:
      return background_actions::media_seek;
    case T::SetOnScreenLog:
      return background_actions::set_on_screen_log;
    case T::ClearOnScreenLog:
      return background_actions::clear_on_screen_log;
    case T::DoctorPing:
      return doctor_ping;
  }
  return nullptr;
}

}  // namespace

StepOutcome StepOutcome::ok(Json data) {
  StepOutcome outcome;
  outcome.data = std::move(data);
  return outcome;
}

StepOutcome StepOutcome::fail(const std::string& code, const std::string& message, Json extra) {
  StepOutcome outcome;
  outcome.success = false;
  outcome.data = Json::object();
  outcome.data["error"] = code;
  outcome.data["message"] = message;
  for (auto& [key, value] : extra.items()) outcome.data[key] = value;
  return outcome;
}

StepOutcome StepOutcome::later(std::chrono::milliseconds delay,
                               std::function<StepOutcome()> resume) {
  StepOutcome outcome;
  outcome.finished = false;
  outcome.wait = delay;
  outcome.resume = std::move(resume);
  return outcome;
}

StepOutcome start_action(const ActionContext& context, const std::string& type,
                         const Json& params) {
  const contract::ActionSpec* spec = contract::find_action(type);
  const Handler handler = spec != nullptr ? handler_for(spec->type) : nullptr;
  if (handler == nullptr) {
    return StepOutcome::fail("EXECUTION_ACTION_UNSUPPORTED", "Unsupported action type: " + type);
  }
  return handler(context, params.is_object() ? params : Json::object());
}

}  // namespace clawperator::vdevice::android
