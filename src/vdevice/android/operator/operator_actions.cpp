#include "vdevice/android/operator/operator_actions.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <utility>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "vdevice/android/operator/background_services.hpp"
#include "vdevice/android/operator/node_summary.hpp"
#include "vdevice/android/operator/recorder.hpp"
#include "vdevice/android/ui/ui_xml.hpp"

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

// The scalar fields of a matcher or predicate object.
NodeMatcher predicate_of(const Json& value) {
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
    if (auto text = string_param(value, name)) *target = *text;
  }
  return matcher;
}

std::optional<NodeMatcher> matcher_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_object()) return std::nullopt;
  NodeMatcher matcher = predicate_of(*value);
  if (const Json* ancestor = param(*value, "ancestor"); ancestor && ancestor->is_object()) {
    matcher.ancestor = std::make_shared<const NodeMatcher>(predicate_of(*ancestor));
  }
  if (const Json* descendant = param(*value, "descendant"); descendant && descendant->is_object()) {
    matcher.descendant = std::make_shared<const NodeMatcher>(predicate_of(*descendant));
  }
  if (matcher.empty()) return std::nullopt;
  return matcher;
}

Json describe_json(const NodeMatcher& matcher) {
  Json out = Json::object();
  if (!matcher.resource_id.empty()) out["resourceId"] = matcher.resource_id;
  if (!matcher.role.empty()) out["role"] = matcher.role;
  if (!matcher.text_equals.empty()) out["textEquals"] = matcher.text_equals;
  if (!matcher.text_contains.empty()) out["textContains"] = matcher.text_contains;
  if (!matcher.content_desc_equals.empty()) out["contentDescEquals"] = matcher.content_desc_equals;
  if (!matcher.content_desc_contains.empty()) {
    out["contentDescContains"] = matcher.content_desc_contains;
  }
  if (matcher.ancestor) out["ancestor"] = describe_json(*matcher.ancestor);
  if (matcher.descendant) out["descendant"] = describe_json(*matcher.descendant);
  return out;
}

std::string describe(const NodeMatcher& matcher) {
  return dump_json(describe_json(matcher));
}

// ---- nodes --------------------------------------------------------------------------------

// wait_for_node's step data: the found node, as the Operator's older actions describe one.
Json found_node_data(const VisibleNode& node) {
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

// The candidates are query_ui's node summaries, so that an agent reads them as it reads a query.
StepOutcome ambiguous(const char* code, const std::vector<VisibleNode*>& nodes) {
  Json candidates = Json::array();
  for (std::size_t i = 0; i < nodes.size() && i < kMaxCandidates; ++i) {
    candidates.push_back(node_summary(*nodes[i], kMaxCandidateChars));
  }
  Json extra = Json::object();
  extra["candidate_count"] = std::to_string(nodes.size());
  extra["candidates"] = dump_json(candidates);
  return StepOutcome::fail(
      code, std::to_string(nodes.size()) + " nodes matched; narrow the selector to exactly one",
      std::move(extra));
}

struct Resolved {
  Resolved(VisibleNode* found, StepOutcome failed, std::string warning = {})
      : node(found), failure(std::move(failed)), selection_warning(std::move(warning)) {}

  VisibleNode* node = nullptr;
  StepOutcome failure;
  // Without strict, several matches: the Operator acts on the first and says so.
  std::string selection_warning;
};

std::string selection_warning(std::size_t count, const NodeMatcher& matcher) {
  return std::to_string(count) + " nodes matched " + describe(matcher) +
         "; acted on the first. Pass strict: true to refuse ambiguous targets";
}

// The unique node the params' `container` names; no node and no failure when they name none.
Resolved explicit_container(VisibleTree& tree, const Json& params) {
  const auto container = matcher_param(params, "container");
  if (!container) return {nullptr, {}};
  const auto found = tree.find(*container);
  if (found.empty()) {
    return {nullptr, StepOutcome::fail("CONTAINER_NOT_FOUND",
                                       "No container matched " + describe(*container))};
  }
  if (found.size() > 1) return {nullptr, ambiguous("CONTAINER_AMBIGUOUS", found)};
  return {found.front(), {}};
}

// The node an action targets among the strict descendants of `within` (the whole screen when
// null): refused when ambiguous under `strict`, else the first match.
Resolved resolve_within(VisibleTree& tree, const Json& params, const NodeMatcher& matcher,
                        const VisibleNode* within) {
  const auto found = tree.find(matcher, within);
  if (found.empty()) return {nullptr, not_found(matcher), {}};
  if (found.size() > 1) {
    if (bool_param(params, "strict").value_or(false)) {
      return {nullptr, ambiguous("NODE_AMBIGUOUS", found), {}};
    }
    return {found.front(), {}, selection_warning(found.size(), matcher)};
  }
  return {found.front(), {}, {}};
}

// The node an action targets (docs/payload.md §10.2): inside the `container` when the params
// name one.
Resolved resolve_target(VisibleTree& tree, const Json& params, const NodeMatcher& matcher) {
  Resolved container = explicit_container(tree, params);
  if (!container.failure.success) return container;
  return resolve_within(tree, params, matcher, container.node);
}

StepOutcome with_warning(StepOutcome outcome, const std::string& warning) {
  if (!warning.empty()) outcome.data["selection_warning"] = warning;
  return outcome;
}

// The node a scroll moves, and the scope a scroll search looks in (the targets and the final
// click stay inside it): the explicit container, or its first scrollable descendant; else the
// screen's scrollable node.
Resolved resolve_container(VisibleTree& tree, const Json& params) {
  if (const auto matcher = matcher_param(params, "container")) {
    Resolved named = explicit_container(tree, params);
    if (!named.failure.success) return named;
    VisibleNode* container = named.node;
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
  std::vector<VisibleNode*> scrollables;
  for (VisibleNode* node : tree.all()) {
    if (node->spec->scrollable) scrollables.push_back(node);
  }
  // Strict without a container: exactly one scrollable candidate (docs/payload.md §10.2).
  if (scrollables.size() > 1 && bool_param(params, "strict").value_or(false)) {
    return {nullptr, ambiguous("CONTAINER_AMBIGUOUS", scrollables)};
  }
  if (!scrollables.empty()) return {scrollables.front(), {}};
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

StepOutcome poll_for_node(ActionContext context, Json params, NodeMatcher matcher,
                          SteadyTime deadline, long long timeout_ms) {
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  Resolved resolved = resolve_target(*tree, params, matcher);
  if (resolved.node != nullptr) {
    return with_warning(StepOutcome::ok(found_node_data(*resolved.node)),
                        resolved.selection_warning);
  }
  const std::string code = resolved.failure.data.value("error", std::string());
  // Absent targets are waited for; an ambiguous one or a missing container is not.
  if (code != "NODE_NOT_FOUND" && code != "CONTAINER_NOT_FOUND") return resolved.failure;
  if (system.now() >= deadline) {
    return StepOutcome::fail("WAIT_TIMEOUT", "No node matched " + describe(matcher) + " within " +
                                                 std::to_string(timeout_ms) + " ms");
  }
  const auto interval = milliseconds(system.scenario().operator_behavior.poll_interval_ms);
  const auto next = std::min<milliseconds>(
      interval, std::chrono::duration_cast<milliseconds>(deadline - system.now()));
  return StepOutcome::later(std::max(next, milliseconds(1)), [=] {
    return poll_for_node(context, params, matcher, deadline, timeout_ms);
  });
}

StepOutcome wait_for_node(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("wait_for_node requires params.matcher");
  const milliseconds timeout = clamped_ms(number_param(params, "timeoutMs"), 10000, 1, 120000);
  return poll_for_node(context, params, *matcher, context.system->now() + timeout, timeout.count());
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
    Resolved resolved = resolve_target(*tree, params, *matcher);
    if (resolved.node == nullptr) return resolved.failure;
    return with_warning(click_node(context, *tree, *resolved.node, click_type),
                        resolved.selection_warning);
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
  Json data = Json::object();
  data["scrolls"] = std::to_string(search->scrolls);
  Resolved container = resolve_container(*tree, params);
  if (container.node == nullptr) return container.failure;
  Resolved target = resolve_within(*tree, params, matcher, container.node);
  if (target.node == nullptr && target.failure.data.value("error", "") != "NODE_NOT_FOUND") {
    return target.failure;
  }
  if (target.node != nullptr) {
    if (bool_param(params, "clickAfter").value_or(true)) {
      StepOutcome clicked = click_node(context, *tree, *target.node, "default");
      if (!clicked.success) return clicked;
    }
    return with_warning(StepOutcome::ok(data), target.selection_warning);
  }
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
  Resolved container = resolve_container(*tree, params);
  if (container.node == nullptr) return container.failure;
  if (matcher) {
    Resolved target = resolve_within(*tree, params, *matcher, container.node);
    if (target.node == nullptr && target.failure.data.value("error", "") != "NODE_NOT_FOUND") {
      return target.failure;
    }
    if (target.node != nullptr) {
      if (bool_param(params, "clickAfter").value_or(false)) {
        StepOutcome clicked = click_node(context, *tree, *target.node, "default");
        if (!clicked.success) return clicked;
      }
      Json data = Json::object();
      data["termination_reason"] = "TARGET_FOUND";
      data["scrolls"] = std::to_string(search->scrolls);
      return with_warning(StepOutcome::ok(data), target.selection_warning);
    }
  }
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

// read_text with all: every match (inside the unique container), in document order.
StepOutcome read_all(VisibleTree& tree, const Json& params, const NodeMatcher& matcher) {
  Resolved container = explicit_container(tree, params);
  if (!container.failure.success) return container.failure;
  const auto found = tree.find(matcher, container.node);
  if (found.empty()) return not_found(matcher);
  Json texts = Json::array();
  for (const VisibleNode* node : found) texts.push_back(node->text());
  Json data = Json::object();
  data["text"] = found.front()->text();
  data["texts"] = dump_json(texts);
  data["count"] = std::to_string(found.size());
  return StepOutcome::ok(data);
}

StepOutcome read_text(const ActionContext& context, const Json& params) {
  const auto matcher = matcher_param(params, "matcher");
  if (!matcher) return bad_params("read_text requires params.matcher");
  AndroidSystem& system = *context.system;
  auto tree = system.ui().tree(system.now());
  if (bool_param(params, "all").value_or(false)) return read_all(*tree, params, *matcher);
  Resolved resolved = resolve_target(*tree, params, *matcher);
  if (resolved.node == nullptr) return resolved.failure;
  Json data = Json::object();
  data["text"] = resolved.node->text();
  if (!resolved.selection_warning.empty()) {
    data["selection_warning"] = resolved.selection_warning;
  }
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
  Resolved resolved = resolve_target(*tree, params, *matcher);
  if (resolved.node == nullptr) return resolved.failure;
  NodeSpec& field = *resolved.node->spec;
  if (!field.enabled) return StepOutcome::fail("NODE_NOT_CLICKABLE", "The text field is disabled");
  if (!field.editable) {
    return StepOutcome::fail("ACTION_FAILED",
                             "The matched node (" + field.class_name + ") does not accept text");
  }
  // ACTION_SET_TEXT replaces the content: `clear` changes nothing on Android.
  field.focused = true;
  system.ui().set_text(*resolved.node, *text);
  if (bool_param(params, "submit").value_or(false))
    system.ui().submit(*resolved.node, system.now());
  Json data = Json::object();
  data["text"] = *text;
  return with_warning(StepOutcome::ok(data), resolved.selection_warning);
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
    system.ui().home(system.now());
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
  Resolved resolved = resolve_within(*tree, params, *matcher, nullptr);
  if (resolved.node == nullptr) return resolved.failure;
  const VisibleNode* value = value_after(*resolved.node);
  if (value == nullptr) {
    return StepOutcome::fail("NODE_NOT_FOUND", "No value follows the label " + describe(*matcher));
  }
  Json data = Json::object();
  data["label"] = resolved.node->text();
  data["value"] = value->text();
  return with_warning(StepOutcome::ok(data), resolved.selection_warning);
}

// The Operator's answers (RecordingManager.kt): a refused start or stop is a failed step of
// a successful envelope.
StepOutcome recording_answer(Recorder::Answer answer) {
  StepOutcome outcome = StepOutcome::ok(std::move(answer.data));
  outcome.success = answer.ok;
  return outcome;
}

StepOutcome start_recording(const ActionContext& context, const Json& params) {
  return recording_answer(context.system->recorder().start(context.operator_package,
                                                           string_param(params, "sessionId")));
}

StepOutcome stop_recording(const ActionContext& context, const Json& params) {
  return recording_answer(context.system->recorder().stop(string_param(params, "sessionId")));
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

// ---- observation and gestures (docs/payload.md §10) --------------------------------------

constexpr std::size_t kMaxQueryBytes = 262144;  // the Operator never cuts data.query to fit

// capturedAt: the phone's own UTC clock.
std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

StepOutcome query_ui(const ActionContext& context, const Json& params) {
  AndroidSystem& system = *context.system;
  const std::string visibility = string_param(params, "visibility").value_or("on_screen");
  const bool everything = visibility == "all";
  auto tree = everything ? system.ui().full_tree(system.now()) : system.ui().tree(system.now());
  const auto matcher = matcher_param(params, "matcher");
  const auto limit =
      static_cast<std::size_t>(clamped_ms(number_param(params, "limit"), 100, 1, 1000).count());
  Json nodes = Json::array();
  std::size_t total = 0;
  const Eligibility eligibility = everything ? Eligibility::All : Eligibility::OnScreen;
  // Preorder; paths keep the child indices of the captured tree.
  std::function<void(const VisibleNode&)> visit = [&](const VisibleNode& node) {
    const bool eligible = everything || node.on_screen || node.parent == nullptr;
    if (eligible && (!matcher || node_matches(node, *matcher, eligibility))) {
      ++total;
      if (nodes.size() < limit) nodes.push_back(node_summary(node));
    }
    for (const VisibleNode& child : node.children) visit(child);
  };
  visit(tree->root);
  Json query = Json::object();
  query["schemaVersion"] = 1;
  query["snapshotId"] = "vdevice-" + context.command_id + "-" + tree->screen_id;
  query["capturedAt"] = utc_now();
  query["totalMatches"] = total;
  query["returnedCount"] = nodes.size();
  query["truncated"] = nodes.size() < total;
  query["nodes"] = std::move(nodes);
  std::string text = dump_json(query);
  if (text.size() > kMaxQueryBytes) {
    Json extra = Json::object();
    extra["query_bytes"] = std::to_string(text.size());
    extra["max_bytes"] = std::to_string(kMaxQueryBytes);
    return StepOutcome::fail("PAYLOAD_TOO_LARGE",
                             "query_ui result is " + std::to_string(text.size()) +
                                 " bytes, above 262144; reduce limit or narrow the matcher",
                             std::move(extra));
  }
  Json data = Json::object();
  data["query"] = std::move(text);
  return StepOutcome::ok(data);
}

struct Point {
  int x = 0;
  int y = 0;
};

std::optional<Point> point_param(const Json& params, const char* key) {
  const Json* value = param(params, key);
  if (value == nullptr || !value->is_object()) return std::nullopt;
  const auto x = number_param(*value, "x");
  const auto y = number_param(*value, "y");
  if (!x || !y) return std::nullopt;
  return Point{static_cast<int>(*x), static_cast<int>(*y)};
}

std::string point_text(const Point& point) {
  return "{\"x\":" + std::to_string(point.x) + ",\"y\":" + std::to_string(point.y) + "}";
}

// The scrollable node under `point`, innermost first.
VisibleNode* scrollable_at(VisibleTree& tree, const Point& point) {
  for (VisibleNode* node = tree.at_point(point.x, point.y); node != nullptr; node = node->parent) {
    if (node->spec->scrollable) return node;
  }
  return nullptr;
}

// A finger moving from `start` to `end` over a scrollable node scrolls it the other way:
// up the screen shows what is below.
void scroll_under(AndroidSystem& system, VisibleTree& tree, const Point& start, const Point& end) {
  VisibleNode* container = scrollable_at(tree, start);
  if (container == nullptr) return;
  const int dx = start.x - end.x;
  const int dy = start.y - end.y;
  const bool vertical = std::abs(dy) >= std::abs(dx);
  const ScrollDirection direction = vertical
                                        ? (dy > 0 ? ScrollDirection::Down : ScrollDirection::Up)
                                        : (dx > 0 ? ScrollDirection::Right : ScrollDirection::Left);
  const int extent = vertical ? container->bounds.height() : container->bounds.width();
  const double ratio = extent > 0 ? static_cast<double>(std::abs(vertical ? dy : dx)) / extent : 0;
  system.ui().scroll(*container, direction, ratio);
}

StepOutcome gesture_failed(const std::string& message, bool accepted) {
  Json extra = Json::object();
  extra["dispatch_method"] = "coordinate_gesture";
  extra["dispatch_accepted"] = accepted ? "true" : "false";
  return StepOutcome::fail("GESTURE_FAILED", message, std::move(extra));
}

bool on_display(const AndroidSystem& system, const Point& point) {
  const DisplaySpec& display = system.scenario().display;
  return point.x >= 0 && point.y >= 0 && point.x < display.width && point.y < display.height;
}

StepOutcome swipe(const ActionContext& context, const Json& params) {
  const auto start = point_param(params, "start");
  const auto end = point_param(params, "end");
  if (!start || !end) return bad_params("swipe requires params.start and params.end");
  AndroidSystem& system = *context.system;
  if (!on_display(system, *start) || !on_display(system, *end)) {
    return gesture_failed("swipe endpoints must lie inside the display", false);
  }
  const milliseconds duration = clamped_ms(number_param(params, "durationMs"), 300, 1, 10000);
  auto tree = system.ui().tree(system.now());
  scroll_under(system, *tree, *start, *end);
  Json data = Json::object();
  data["start"] = point_text(*start);
  data["end"] = point_text(*end);
  data["duration_ms"] = std::to_string(duration.count());
  data["dispatch_method"] = "coordinate_gesture";
  data["dispatch_accepted"] = "true";
  data["elapsed_ms"] = std::to_string(duration.count());
  return StepOutcome::later(duration, [data] { return StepOutcome::ok(data); });
}

StepOutcome drag(const ActionContext& context, const Json& params) {
  const auto start = point_param(params, "start");
  const auto end = point_param(params, "end");
  if (!start || !end) return bad_params("drag requires params.start and params.end");
  AndroidSystem& system = *context.system;
  // Continued strokes arrived with API 26; the Operator refuses below it.
  const int sdk = std::atoi(system.property("ro.build.version.sdk").value_or("0").c_str());
  if (sdk < 26) {
    return StepOutcome::fail("GESTURE_UNSUPPORTED",
                             "Continued-pointer gestures require Android API 26 or newer");
  }
  if (!on_display(system, *start) || !on_display(system, *end)) {
    return gesture_failed("drag endpoints must lie inside the display", false);
  }
  const milliseconds hold = clamped_ms(number_param(params, "holdDurationMs"), 500, 1, 10000);
  const milliseconds move = clamped_ms(number_param(params, "moveDurationMs"), 500, 1, 10000);
  auto tree = system.ui().tree(system.now());
  VisibleNode* grabbed = tree->at_point(start->x, start->y);
  while (grabbed != nullptr && !grabbed->spec->draggable) grabbed = grabbed->parent;
  if (grabbed != nullptr) {
    // The node follows the finger and stays where it is released.
    Bounds moved = grabbed->bounds;
    moved.left += end->x - start->x;
    moved.right += end->x - start->x;
    moved.top += end->y - start->y;
    moved.bottom += end->y - start->y;
    grabbed->spec->bounds = moved;
  } else {
    scroll_under(system, *tree, *start, *end);
  }
  Json data = Json::object();
  data["start"] = point_text(*start);
  data["end"] = point_text(*end);
  data["hold_duration_ms"] = std::to_string(hold.count());
  data["move_duration_ms"] = std::to_string(move.count());
  data["dispatch_method"] = "coordinate_gesture";
  data["dispatch_accepted"] = "true";
  data["elapsed_ms"] = std::to_string((hold + move).count());
  return StepOutcome::later(hold + move, [data] { return StepOutcome::ok(data); });
}

StepOutcome show_toast(const ActionContext& context, const Json& params) {
  const auto text = string_param(params, "text");
  if (!text || text->empty()) return bad_params("show_toast requires params.text");
  const std::string duration = string_param(params, "duration").value_or("short");
  // Toast.LENGTH_SHORT and LENGTH_LONG as the notification manager times them.
  const milliseconds shown(duration == "long" ? 3500 : 2000);
  AndroidSystem& system = *context.system;
  system.ui().show_toast(*text, system.now() + shown);
  Json data = Json::object();
  data["submitted"] = "true";
  data["duration"] = duration;
  return StepOutcome::ok(data);
}

StepOutcome cancel_toast(const ActionContext& context, const Json&) {
  context.system->ui().cancel_toast();
  Json data = Json::object();
  data["submitted"] = "true";
  return StepOutcome::ok(data);
}

// The actions that need the window's hierarchy (the UI_TREE_UNAVAILABLE fault).
bool reads_tree(contract::ActionType type, const Json& params) {
  using T = contract::ActionType;
  switch (type) {
    case T::Click:
      return param(params, "coordinate") == nullptr;
    case T::QueryUi:
    case T::Snapshot:
    case T::WaitForNode:
    case T::ScrollAndClick:
    case T::Scroll:
    case T::ScrollUntil:
    case T::ReadText:
    case T::EnterText:
    case T::ReadKeyValuePair:
      return true;
    default:
      return false;
  }
}

StepOutcome ui_tree_unavailable(AndroidSystem& system) {
  Json diagnostics = Json::object();
  diagnostics["serviceAvailable"] = true;
  diagnostics["rootAvailable"] = false;
  diagnostics["windowCount"] = 0;
  diagnostics["foregroundPackage"] = system.ui().foreground_package();
  Json extra = Json::object();
  extra["diagnostics"] = dump_json(diagnostics);
  StepOutcome outcome = StepOutcome::fail(
      "UI_TREE_UNAVAILABLE", "No accessibility window root is available", std::move(extra));
  outcome.envelope_error_code = "UI_TREE_UNAVAILABLE";
  return outcome;
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
      return start_recording;
    case T::StopRecording:
      return stop_recording;
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
    case T::QueryUi:
      return query_ui;
    case T::Swipe:
      return swipe;
    case T::Drag:
      return drag;
    case T::ShowToast:
      return show_toast;
    case T::CancelToast:
      return cancel_toast;
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
  const Json& given = params.is_object() ? params : Json::object();
  if (context.ui_tree_unavailable && reads_tree(spec->type, given)) {
    return ui_tree_unavailable(*context.system);
  }
  return handler(context, given);
}

}  // namespace clawperator::vdevice::android
