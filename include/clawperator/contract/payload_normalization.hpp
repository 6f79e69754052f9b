// The payload as the newest Clawperator accepts it, before validation (docs/payload.md §11):
// snake_case top-level keys, the params' alias keys and the matchers' alias keys become the
// canonical names. Pure and driven by tables; validation then sees canonical keys only, and
// `--validate-only` prints what will be sent.
#pragma once

#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::contract {

// Order: the top-level keys, then per action (its row's InputForm decides whether its params
// are aliased) the params keys, then the keys of the matchers in matcher, container,
// expectedNode and labelMatcher (not inside ancestor/descendant). A canonical key that is
// present wins over its aliases; among aliases the last one wins. Unknown keys pass through
// (validation refuses them); anything that is not an object is left as it is.
Json normalize_payload(const Json& payload);

// One matcher's alias keys renamed (its own, not its relations'), by the same rule; anything
// that is not an object as it is.
Json normalize_matcher(const Json& matcher);

// The canonical name of a params key: "filePath" -> "path"; a canonical or unknown key as
// it is.
std::string_view canonical_param_key(std::string_view key);

}  // namespace clawperator::contract
