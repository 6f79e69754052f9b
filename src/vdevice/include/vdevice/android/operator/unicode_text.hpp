// Text as the Operator's Kotlin code sees it: strings of UTF-16 units, compared case-blind
// per character (String.contains(…, ignoreCase = true)). The simulated Operator holds UTF-8;
// these helpers give it the Operator's lengths, cuts and comparisons.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "clawperator/contract/matcher_text.hpp"

namespace clawperator::vdevice::android {

// The case-blind comparisons are the contract's (contract/matcher_text.hpp), shared with
// serve's /query so that both match as the Operator does.
using contract::contains_ignoring_case;
using contract::equals_ignoring_case;

// How many UTF-16 units `text` takes (a character above U+FFFF takes two).
std::size_t utf16_length(std::string_view text);

// The longest prefix of `text` that takes at most `limit` UTF-16 units, never splitting a
// character (so never a surrogate pair).
std::string_view utf16_prefix(std::string_view text, std::size_t limit);

}  // namespace clawperator::vdevice::android
