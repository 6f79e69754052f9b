// What lies under a point on the screen, for the rules that match labels (docs/guardrails.md §3).
#include <algorithm>
#include <limits>

#include "clawperator/policy/policy.hpp"

namespace clawperator::policy {
namespace {

struct Candidate {
  const Json* node = nullptr;
  double area = std::numeric_limits<double>::infinity();
};

std::optional<double> edge(const Json& bounds, const char* name) {
  const auto found = bounds.find(name);
  if (found == bounds.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

// The node's area when its bounds hold the point, else nullopt.
std::optional<double> area_holding(const Json& node, double x, double y) {
  const auto bounds = node.find("bounds");
  if (bounds == node.end() || !bounds->is_object()) return std::nullopt;
  const auto left = edge(*bounds, "left");
  const auto top = edge(*bounds, "top");
  const auto right = edge(*bounds, "right");
  const auto bottom = edge(*bounds, "bottom");
  if (!left || !top || !right || !bottom) return std::nullopt;
  if (x < *left || x >= *right || y < *top || y >= *bottom) return std::nullopt;
  return (*right - *left) * (*bottom - *top);
}

void add_node_labels(const Json& node, std::vector<std::string>& labels) {
  for (const char* key : {"label", "contentDescription", "resourceId"}) {
    const auto value = node.find(key);
    if (value == node.end() || !value->is_string()) continue;
    const std::string text = value->get<std::string>();
    if (text.empty()) continue;
    if (std::find(labels.begin(), labels.end(), text) == labels.end()) labels.push_back(text);
  }
}

}  // namespace

void label_points(std::vector<StepTarget>& steps, const Json& query) {
  if (!query.is_object()) return;
  const auto nodes = query.find("nodes");
  if (nodes == query.end() || !nodes->is_array()) return;
  for (StepTarget& step : steps) {
    if (!step.point) continue;
    const auto [x, y] = *step.point;
    Candidate smallest;
    Candidate clickable;
    for (const Json& node : *nodes) {
      if (!node.is_object()) continue;
      const std::optional<double> area = area_holding(node, x, y);
      if (!area) continue;
      if (*area < smallest.area) smallest = {&node, *area};
      const auto flag = node.find("clickable");
      const bool tappable = flag != node.end() && flag->is_boolean() && flag->get<bool>();
      if (tappable && *area < clickable.area) clickable = {&node, *area};
    }
    step.labels.clear();
    for (const Candidate* candidate : {&smallest, &clickable}) {
      if (candidate->node != nullptr) add_node_labels(*candidate->node, step.labels);
    }
    step.coordinate = false;
  }
}

}  // namespace clawperator::policy
