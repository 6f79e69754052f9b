// The JavaScript each operation evaluates in the page (Runtime.evaluate, returnByValue), built
// from the CSS selector as a JSON string literal so that no selector can break out of it. Pure:
// the texts only; src/webview/operations.cpp runs them. Each returns a plain object, and an
// invalid selector is answered as {"invalidSelector": message} rather than thrown, so that it
// is told apart from an expression of the caller's that throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace clawperator::webview {

// Text and attribute values are cut at this many UTF-16 units; at most this many matches are
// described (the count is always whole).
inline constexpr std::size_t kMaxTextLength = 200;
inline constexpr std::size_t kMaxDescribedMatches = 50;

// {count, innerWidth, matches: [{tag, text, textTruncated, attributes, bounds}]}; bounds in CSS
// pixels of the viewport (getBoundingClientRect).
std::string query_script(std::string_view css);

// Exactly one match: scrolled into view (centred), then {count: 1, innerWidth, match, x, y}
// with x/y its centre in CSS pixels. Otherwise {count, innerWidth, matches} as query_script.
std::string click_target_script(std::string_view css);

// Exactly one match: scrolled into view, focused, its value emptied first when `clear` (an
// `input` event tells the page's own listeners), then {count: 1, innerWidth, match, focused}.
std::string focus_script(std::string_view css, bool clear);

// {count}: how many elements match now (wait's probe).
std::string count_script(std::string_view css);
// {count, labels: [[words of one match], …]} (at most kMaxDescribedMatches): what a person reads
// on each match and on what a tap on it activates (docs/guardrails.md, "WebViews"): its text,
// id, name, aria-label, title, alt, placeholder, a button input's value, its <label>s' text,
// and the same of its nearest a, button, label or role=button/link ancestor. Each word cut as
// the descriptions are. Or {invalidSelector}.
std::string labels_script(std::string_view css);

}  // namespace clawperator::webview
