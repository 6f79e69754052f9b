// How the Operator compares a matcher's text fields with a node's (docs/payload.md §3):
// `textContains`, `contentDescContains` and `role` character by character ignoring case, as
// its Kotlin code does (String.contains(…, ignoreCase = true)); the *Equals fields and
// `resourceId` exactly. One implementation for everything that matches nodes as the Operator
// would: the virtual device's simulated Operator and `serve`'s /query. Pure.
#pragma once

#include <string>
#include <string_view>

namespace clawperator::contract {

// `part` occurs in `text`, comparing each character through its upper then its lower case
// (Unicode's simple case mappings), as Kotlin's ignoreCase does. An empty `part` occurs.
bool contains_ignoring_case(std::string_view text, std::string_view part);
bool equals_ignoring_case(std::string_view a, std::string_view b);

// `text` decoded, each character through its upper then its lower case: the form the two
// comparisons above compare (and the near matches of NODE_NOT_FOUND, hierarchy/near_match.hpp).
std::u32string case_folded(std::string_view text);

// Each character through its lower case (Unicode's simple mappings): JavaScript's
// toLowerCase() but for its few multi-character and context rules (İ, final sigma). `text` is
// UTF-8 already checked.
std::string lowercase_unicode(std::string_view text);

}  // namespace clawperator::contract
