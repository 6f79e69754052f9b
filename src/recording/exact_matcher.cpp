#include "clawperator/recording/exact_matcher.hpp"

#include "clawperator/hierarchy/match.hpp"

namespace clawperator::recording {

contract::NodeMatcher node_matcher(const ExactMatcher& matcher) {
  contract::NodeMatcher out;
  auto& fields = out.node.fields;
  if (!matcher.resource_id.empty()) {
    fields.emplace_back(contract::MatcherField::ResourceId, matcher.resource_id);
  }
  if (!matcher.text.empty()) fields.emplace_back(contract::MatcherField::TextEquals, matcher.text);
  if (!matcher.content_desc.empty()) {
    fields.emplace_back(contract::MatcherField::ContentDescEquals, matcher.content_desc);
  }
  return out;
}

std::size_t count_matching_nodes(const hierarchy::Tree& tree, const ExactMatcher& matcher) {
  return hierarchy::count_matches(tree, node_matcher(matcher));
}

}  // namespace clawperator::recording
