// The payload as the newest Clawperator accepts it, before validation (docs/payload.md §11):
// snake_case top-level keys, the params' alias keys and the matchers' alias keys become the
// canonical names. Pure and driven by tables; validation then sees canonical keys only, and
// `--validate-only` prints what will be sent.
#pragma once

#include <string>
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

// The short form of a hand-written payload (docs/payload.md §13): what it leaves out, filled in.
// Random text (32 hex digits) comes from the caller, so that this layer stays pure: the front
// ends pass service::fresh_id_random, which draws it as the device commands' ids are drawn.
using RandomText = std::string (*)();
inline constexpr std::string_view kShortFormCommandPrefix = "exec";
inline constexpr std::string_view kShortFormSource = "clawperator-cli";
inline constexpr long long kShortFormTimeoutMs = 30000;  // the device commands' own default

// `payload` (normalised: its keys canonical) with each missing member given: commandId
// "exec-<random>", taskId the commandId, source kShortFormSource, expectedFormat
// "android-ui-automator", timeoutMs kShortFormTimeoutMs, and each action object without an id
// the first of a1, a2, … no action of the payload uses. A member that is present, whatever its
// value, is left for validation to judge; `random` is called only when commandId is missing.
// Anything that is not an object is returned as it is.
Json complete_short_form(Json payload, RandomText random);

// The canonical name of a params key: "filePath" -> "path"; a canonical or unknown key as
// it is.
std::string_view canonical_param_key(std::string_view key);

}  // namespace clawperator::contract
