// Which rule a payload meets (docs/guardrails.md, "How a step is matched"). Pure.
#include <algorithm>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/policy/policy.hpp"

namespace clawperator::policy {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool any_glob(const std::vector<std::string>& patterns, std::string_view text) {
  for (const std::string& pattern : patterns) {
    if (glob_match(pattern, text)) return true;
  }
  return false;
}

bool matches(const Rule& rule, const StepTarget& step) {
  if (!rule.actions.empty() &&
      std::find(rule.actions.begin(), rule.actions.end(), step.action_type) == rule.actions.end()) {
    return false;
  }
  // A package rule meets a step whose package is not known: a guardrail errs on the side of
  // asking.
  if (!rule.packages.empty() && step.package && !any_glob(rule.packages, *step.package)) {
    return false;
  }
  if (!rule.labels.empty()) {
    // A point on the screen has no label the payload says: the same.
    if (step.coordinate) return true;
    bool found = false;
    for (const std::string& label : step.labels) found = found || any_glob(rule.labels, label);
    if (!found) return false;
  }
  return true;
}

void add_labels(const contract::NodeMatcher& matcher, std::vector<std::string>& labels) {
  for (const auto& [field, value] : matcher.node.fields) {
    (void)field;
    labels.push_back(value);
  }
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative wildcard match with one backtrack point: linear in practice, never exponential.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && lower(pattern[p]) == lower(text[t])) {
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

std::vector<StepTarget> step_targets(const contract::Execution& execution,
                                     const std::optional<std::string>& foreground) {
  std::vector<StepTarget> steps;
  for (std::size_t i = 0; i < execution.actions.size(); ++i) {
    const contract::Action& action = execution.actions[i];
    const contract::ActionParams& params = action.params_or_empty();
    StepTarget step;
    step.index = i;
    step.step_id = action.id;
    step.action_type = std::string(contract::action_spec(action.type).name);
    step.package = params.application_id ? params.application_id : foreground;
    if (params.matcher) add_labels(*params.matcher, step.labels);
    if (params.expected_node) add_labels(*params.expected_node, step.labels);
    if (params.label_matcher) add_labels(*params.label_matcher, step.labels);
    // A step that names no node of its own acts on its container (a scroll): that is its label.
    if (!params.matcher && !params.expected_node && params.container) {
      add_labels(*params.container, step.labels);
    }
    step.coordinate = params.coordinate.has_value() || params.start.has_value();
    if (const auto& at = params.coordinate ? params.coordinate : params.start) {
      step.point = std::make_pair(at->x.value(), at->y.value());
    }
    steps.push_back(std::move(step));
  }
  return steps;
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
