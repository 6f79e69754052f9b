// What a compiled recording names a node by: a resourceId, a textEquals and a contentDescEquals
// (each empty when unused), the fields that survive a replay best. Counted against a recorded
// snapshot by the one hierarchy matcher (hierarchy/match.hpp), so that a recording judges a
// target as /query and the Operator would.
#pragma once

#include <cstddef>
#include <string>

#include "clawperator/contract/execution.hpp"
#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::recording {

struct ExactMatcher {
  std::string resource_id;
  std::string text;
  std::string content_desc;
};

// The NodeMatcher of its non-empty values, in the order resourceId, textEquals,
// contentDescEquals (the payload keeps it).
contract::NodeMatcher node_matcher(const ExactMatcher& matcher);

// How many nodes of `tree` have every non-empty value of `matcher` (0 when it has none).
std::size_t count_matching_nodes(const hierarchy::Tree& tree, const ExactMatcher& matcher);

}  // namespace clawperator::recording
