// What was meant when a matcher found nothing: the nodes whose text, content description or
// resource id come close to a value the matcher asked for, for NODE_NOT_FOUND's
// details.nearMatches (docs/contract.md §3.1, docs/payload.md §3.2). Close, from the closest:
// the same value under another field, the same but for case (compared as the matchers compare,
// contract/matcher_text.hpp), the same but for case and white space, a few characters apart,
// one holding the other, one word a few characters from one of the other's. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/json.hpp"

namespace clawperator::hierarchy {

// From the closest; the order near matches are listed in.
enum class Closeness : std::uint8_t {
  Same,        // byte for byte (under another field, or a screen that changed since)
  Case,        // the same but for case
  WhiteSpace,  // the same but for case and runs of white space, leading and trailing included
  Edits,       // within a few character edits of each other (edit_limit), case and spaces aside
  Contains,    // one holds the other, case and spaces aside
  Word,        // a one-word value within a few edits of one word of the other ("Netwrk")
};

struct NearMatch {
  std::size_t index = 0;  // the node in the tree
  // The field of the matcher that finds the node by the close value: textEquals,
  // contentDescEquals or resourceId, with the node's own value.
  contract::MatcherField field = contract::MatcherField::TextEquals;
  std::string value;
  Closeness closeness = Closeness::Same;
  std::size_t edits = 0;  // Edits: how many
  std::string why;        // for a person: "text differs only in case from textEquals \"…\""
};

// How many character edits still count as close for an asked value of `length` characters
// (case folded, spaces collapsed): none below 4 characters, one up to 7, then a quarter.
std::size_t edit_limit(std::size_t length);

// How close `node_value` is to `asked`, or nothing when it is not; `edits` receives the
// distance for Closeness::Edits and Closeness::Word.
std::optional<Closeness> closeness(std::string_view asked, std::string_view node_value,
                                   std::size_t& edits);

// Up to `limit` nodes of `tree` close to what `matcher`'s own text fields ask (textEquals,
// textContains, contentDescEquals, contentDescContains, resourceId; its role and relations
// are not compared), closest first, then in document order; one per pasteable matcher. A
// node's text that equals its content description counts as its description (a query_ui
// summary's label is its text, else its description: hierarchy/tree.hpp tree_of_query).
std::vector<NearMatch> near_matches(const Tree& tree, const contract::NodeMatcher& matcher,
                                    std::size_t limit = 5);

// {"text"?, "contentDesc"?, "resourceId"?, "matcher": {field: value}, "why"}.
Json to_json(const Tree& tree, const NearMatch& match);

}  // namespace clawperator::hierarchy
