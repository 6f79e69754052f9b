// Text as the Operator's Kotlin code sees it: strings of UTF-16 units, compared case-blind
// per character (String.contains(…, ignoreCase = true)). The simulated Operator holds UTF-8;
// these helpers give it the Operator's lengths, cuts and comparisons.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace clawperator::vdevice::android {

// `part` occurs in `text`, comparing each character through its upper then its lower case
// (Unicode's simple case mappings), as Kotlin's ignoreCase does. An empty `part` occurs.
bool contains_ignoring_case(std::string_view text, std::string_view part);
bool equals_ignoring_case(std::string_view a, std::string_view b);

// How many UTF-16 units `text` takes (a character above U+FFFF takes two).
std::size_t utf16_length(std::string_view text);

// The longest prefix of `text` that takes at most `limit` UTF-16 units, never splitting a
// character (so never a surrogate pair).
std::string_view utf16_prefix(std::string_view text, std::size_t limit);

}  // namespace clawperator::vdevice::android
