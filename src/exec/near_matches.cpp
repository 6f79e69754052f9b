#include "near_matches.hpp"

#include "clawperator/hierarchy/near_match.hpp"
#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::exec {

const contract::NodeMatcher* missed_matcher(const contract::Execution& execution,
                                            const Json& failure) {
  const auto code = failure.find("code");
  const auto step = failure.find("failedStep");
  if (code == failure.end() || *code != "NODE_NOT_FOUND" || step == failure.end()) return nullptr;
  const auto id = step->find("id");
  if (id == step->end() || !id->is_string()) return nullptr;
  for (const contract::Action& action : execution.actions) {
    if (action.id != id->get_ref<const std::string&>() || !action.params) continue;
    if (action.params->matcher) return &*action.params->matcher;
    if (action.params->label_matcher) return &*action.params->label_matcher;
    return nullptr;
  }
  return nullptr;
}

std::optional<Json> near_matches_json(const contract::NodeMatcher& matcher,
                                      const ScreenReader& read_screen) {
  const Expected<Json, ScreenReadError> screen = read_screen();
  if (!screen) return std::nullopt;
  const hierarchy::Tree tree = hierarchy::tree_of_query(*screen);
  Json out = Json::array();
  for (const hierarchy::NearMatch& match : hierarchy::near_matches(tree, matcher)) {
    out.push_back(hierarchy::to_json(tree, match));
  }
  return out;
}

}  // namespace clawperator::exec
