// Which rule a payload meets (docs/guardrails.md, "How a step is matched"). Pure.
#include <algorithm>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/hierarchy/match.hpp"
#include "clawperator/policy/policy.hpp"

namespace clawperator::policy {
namespace {

bool any_glob(const std::vector<std::string>& patterns, std::string_view text) {
  for (const std::string& pattern : patterns) {
    if (glob_match(pattern, text)) return true;
  }
  return false;
}

// The rule's actions, effects and packages accept the step (labels aside). A package rule
// meets a step whose package is not known: a guardrail errs on the side of asking.
bool matches_all_but_labels(const Rule& rule, const StepTarget& step) {
  if (!rule.actions.empty() &&
      std::find(rule.actions.begin(), rule.actions.end(), step.action_type) == rule.actions.end()) {
    return false;
  }
  if (!rule.effects.empty() &&
      std::find(rule.effects.begin(), rule.effects.end(), step.effect) == rule.effects.end()) {
    return false;
  }
  return rule.packages.empty() || !step.package || any_glob(rule.packages, *step.package);
}

bool matches(const Rule& rule, const StepTarget& step) {
  if (!matches_all_but_labels(rule, step)) return false;
  if (rule.labels.empty() || step.unread) return true;
  return std::any_of(step.labels.begin(), step.labels.end(),
                     [&](const std::string& label) { return any_glob(rule.labels, label); });
}

void add_label(std::vector<std::string>& labels, std::string_view text) {
  if (text.empty()) return;
  if (std::find(labels.begin(), labels.end(), text) == labels.end()) labels.emplace_back(text);
}

void add_labels(const contract::NodePredicate& predicate, std::vector<std::string>& labels) {
  for (const auto& [field, value] : predicate.fields) {
    (void)field;
    add_label(labels, value);
  }
}

// Every value the matcher names, its relations' included: a relation-only matcher
// ({"descendant": {"textEquals": "Pay"}}) names its target by them.
void add_labels(const contract::NodeMatcher& matcher, std::vector<std::string>& labels) {
  add_labels(matcher.node, labels);
  if (matcher.ancestor) add_labels(*matcher.ancestor, labels);
  if (matcher.descendant) add_labels(*matcher.descendant, labels);
}

void add_node_labels(const hierarchy::Node& node, std::vector<std::string>& labels) {
  for (const char* attribute : {"text", "content-desc", "resource-id"}) {
    add_label(labels, node.attribute(attribute));
  }
}

bool clickable(const hierarchy::Node& node) {
  return node.attribute("clickable") == "true";
}

// What a person sees a tap on `index` activate: its nearest clickable ancestor-or-self and
// everything inside that (the whole row of a list, not only the title the matcher named).
void add_activated(const hierarchy::Tree& screen, std::size_t index,
                   std::vector<std::string>& labels) {
  std::size_t scope = index;
  for (int at = static_cast<int>(index); at >= 0; at = screen.nodes[at].parent) {
    if (clickable(screen.nodes[at])) {
      scope = static_cast<std::size_t>(at);
      break;
    }
  }
  add_node_labels(screen.nodes[index], labels);
  for (std::size_t i = scope; i < screen.nodes[scope].subtree_end; ++i) {
    add_node_labels(screen.nodes[i], labels);
  }
}

// The smallest node holding the point, and the smallest clickable one; npos when none.
std::pair<std::size_t, std::size_t> nodes_under(const hierarchy::Tree& screen, double x, double y) {
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t smallest = none, tappable = none;
  double smallest_area = 0, tappable_area = 0;
  for (std::size_t i = 0; i < screen.nodes.size(); ++i) {
    const auto bounds = hierarchy::bounds_of(screen.nodes[i]);
    if (!bounds || !bounds->holds(x, y)) continue;
    const double area = bounds->area();
    if (smallest == none || area < smallest_area) {
      smallest = i;
      smallest_area = area;
    }
    if (clickable(screen.nodes[i]) && (tappable == none || area < tappable_area)) {
      tappable = i;
      tappable_area = area;
    }
  }
  return {smallest, tappable};
}

}  // namespace

bool glob_match(std::string_view pattern_text, std::string_view subject) {
  const std::string pattern = contract::lowercase_unicode(pattern_text);
  const std::string text = contract::lowercase_unicode(subject);
  // Iterative wildcard match with one backtrack point: linear in practice, never exponential.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

StepTarget step_target(const contract::Execution& execution, std::size_t index,
                       const std::optional<std::string>& foreground) {
  const contract::Action& action = execution.actions[index];
  const contract::ActionParams& params = action.params_or_empty();
  StepTarget step;
  step.index = index;
  step.step_id = action.id;
  step.action_type = std::string(contract::action_spec(action.type).name);
  step.effect = contract::effect_of(action);
  step.package = params.application_id ? params.application_id : foreground;
  if (params.matcher) add_labels(*params.matcher, step.labels);
  if (params.expected_node) add_labels(*params.expected_node, step.labels);
  if (params.label_matcher) add_labels(*params.label_matcher, step.labels);
  // A step that names no node of its own acts on its container (a scroll): that is its label.
  if (!params.matcher && !params.expected_node && params.container) {
    add_labels(*params.container, step.labels);
  }
  if (const auto& at = params.coordinate ? params.coordinate : params.start) {
    step.point = std::make_pair(at->x.value(), at->y.value());
    step.unread = true;
  }
  return step;
}

std::vector<StepTarget> step_targets(const contract::Execution& execution,
                                     const std::optional<std::string>& foreground) {
  std::vector<StepTarget> steps;
  for (std::size_t i = 0; i < execution.actions.size(); ++i) {
    steps.push_back(step_target(execution, i, foreground));
  }
  return steps;
}

bool could_match(const Policy& policy, const StepTarget& step) {
  return std::any_of(policy.rules.begin(), policy.rules.end(),
                     [&](const Rule& rule) { return matches_all_but_labels(rule, step); });
}

bool wants_screen(const Policy& policy, const StepTarget& step) {
  // A step with neither a point nor a label of its own targets nothing on the screen (an
  // open_app, a key): there is nothing there to read.
  if (!step.point && step.labels.empty()) return false;
  return std::any_of(policy.rules.begin(), policy.rules.end(), [&](const Rule& rule) {
    return !rule.labels.empty() && matches_all_but_labels(rule, step);
  });
}

bool wants_foreground(const Policy& policy, const StepTarget& step) {
  if (step.package) return false;
  return std::any_of(policy.rules.begin(), policy.rules.end(), [&](const Rule& rule) {
    return !rule.packages.empty() && matches_all_but_labels(rule, step);
  });
}

void label_from_screen(StepTarget& step, const contract::Action& action,
                       const hierarchy::Tree& screen) {
  // A screen without a node is no reading of it.
  if (screen.nodes.empty()) {
    step.unread = true;
    return;
  }
  const contract::ActionParams& params = action.params_or_empty();
  const contract::NodeMatcher* target =
      params.matcher ? &*params.matcher : (params.container ? &*params.container : nullptr);
  if (target != nullptr) {
    for (const std::size_t index : hierarchy::find_nodes(screen, *target)) {
      add_activated(screen, index, step.labels);
    }
  }
  if (step.point) {
    const auto [smallest, tappable] = nodes_under(screen, step.point->first, step.point->second);
    if (smallest != static_cast<std::size_t>(-1))
      add_node_labels(screen.nodes[smallest], step.labels);
    if (tappable != static_cast<std::size_t>(-1)) add_activated(screen, tappable, step.labels);
  }
  step.unread = false;
}

std::vector<Segment> plan_segments(const Policy& policy, const contract::Execution& execution) {
  std::vector<Segment> segments(1);
  bool screen_may_change = false;
  for (std::size_t i = 0; i < execution.actions.size(); ++i) {
    const StepTarget step = step_target(execution, i, std::nullopt);
    if (could_match(policy, step)) {
      if (screen_may_change) {
        segments.back().end = i;
        segments.push_back(Segment{i, i, {}});
        screen_may_change = false;
      }
      segments.back().judged.push_back(i);
    }
    if (step.effect != contract::StepEffect::Observe) screen_may_change = true;
  }
  segments.back().end = execution.actions.size();
  return segments;
}

Verdict evaluate(const Policy& policy, const std::vector<StepTarget>& steps) {
  Verdict confirm;
  for (const StepTarget& step : steps) {
    for (const Rule& rule : policy.rules) {
      if (!matches(rule, step)) continue;
      if (rule.decision == Decision::Deny) return Verdict{Decision::Deny, &rule, step};
      if (confirm.decision == Decision::Allow) confirm = Verdict{Decision::Confirm, &rule, step};
    }
  }
  return confirm;
}

}  // namespace clawperator::policy
