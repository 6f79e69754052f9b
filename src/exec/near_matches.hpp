// What NODE_NOT_FOUND adds when the screen has something close to what the failed step asked
// for (docs/contract.md §3.1): details.nearMatches, from one read of the screen made only on
// that failure, so the success path costs nothing (hierarchy/near_match.hpp says what is close).
#pragma once

#include <optional>

#include "clawperator/contract/execution.hpp"
#include "clawperator/json.hpp"
#include "policy_gate.hpp"

namespace clawperator::exec {

// The target matcher of the step a failed execution's document names (`failure`: the members
// failure_fields gives it) when its code is NODE_NOT_FOUND: its `matcher`, else its
// `labelMatcher`; nullptr for any other failure or a step without either.
const contract::NodeMatcher* missed_matcher(const contract::Execution& execution,
                                            const Json& failure);

// details.nearMatches for `matcher` from one `read_screen` (query_ui's parsed `query`): the
// nodes hierarchy::near_matches finds, each as hierarchy::to_json gives it; an empty array when
// nothing on the screen is close; nullopt when the read failed (the failure stands as it was).
std::optional<Json> near_matches_json(const contract::NodeMatcher& matcher,
                                      const ScreenReader& read_screen);

}  // namespace clawperator::exec
