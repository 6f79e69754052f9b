#include "clawperator/hierarchy/match.hpp"

#include "clawperator/contract/matcher_fields.hpp"

namespace clawperator::hierarchy {

bool satisfies(const Node& node, const contract::NodePredicate& predicate) {
  for (const auto& [field, wanted] : predicate.fields) {
    const contract::MatcherFieldRow& row = contract::matcher_field_row(field);
    if (!contract::field_accepts(row, node.attribute(row.node_attribute), wanted)) return false;
  }
  return true;
}

bool matches(const Tree& tree, std::size_t index, const contract::NodeMatcher& matcher) {
  if (matcher.node.fields.empty() && !matcher.ancestor && !matcher.descendant) return false;
  const Node& node = tree.nodes[index];
  if (!satisfies(node, matcher.node)) return false;
  if (matcher.ancestor) {
    bool found = false;
    for (int up = node.parent; up >= 0 && !found;
         up = tree.nodes[static_cast<std::size_t>(up)].parent) {
      found = satisfies(tree.nodes[static_cast<std::size_t>(up)], *matcher.ancestor);
    }
    if (!found) return false;
  }
  if (matcher.descendant) {
    bool found = false;
    for (std::size_t down = index + 1; down < node.subtree_end && !found; ++down) {
      found = satisfies(tree.nodes[down], *matcher.descendant);
    }
    if (!found) return false;
  }
  return true;
}

std::vector<std::size_t> find_nodes(const Tree& tree, const contract::NodeMatcher& matcher) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    if (matches(tree, i, matcher)) found.push_back(i);
  }
  return found;
}

std::size_t count_matches(const Tree& tree, const contract::NodeMatcher& matcher) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    if (matches(tree, i, matcher)) ++count;
  }
  return count;
}

}  // namespace clawperator::hierarchy
