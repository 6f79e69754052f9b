// The one matcher over a parsed hierarchy (hierarchy/tree.hpp): a NodeMatcher
// (contract/execution.hpp) compared field by field as the Operator does (the table in
// contract/matcher_fields.hpp), its relations included: `ancestor` is any strict ancestor,
// `descendant` any strict descendant. Used by recordings, serve's /query and, through them,
// the inspector. Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::hierarchy {

// Every field of `predicate` accepts the node (an empty predicate accepts every node).
bool satisfies(const Node& node, const contract::NodePredicate& predicate);

// The node at `index` satisfies the matcher's own fields and relations; a matcher with
// neither matches nothing.
bool matches(const Tree& tree, std::size_t index, const contract::NodeMatcher& matcher);

// The indices of the matching nodes, in document order.
std::vector<std::size_t> find_nodes(const Tree& tree, const contract::NodeMatcher& matcher);
std::size_t count_matches(const Tree& tree, const contract::NodeMatcher& matcher);

}  // namespace clawperator::hierarchy
