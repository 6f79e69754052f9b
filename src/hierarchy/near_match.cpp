#include "clawperator/hierarchy/near_match.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>

#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/suggest.hpp"
#include "clawperator/text.hpp"

namespace clawperator::hierarchy {
namespace {

using contract::MatcherField;

// Longer values are compared for containment only: the distance costs their product.
constexpr std::size_t kMaxEditedLength = 256;

// Runs of white space as one space, none at either end.
std::u32string collapse_white_space(const std::u32string& text) {
  std::u32string out;
  out.reserve(text.size());
  bool pending = false;
  for (const char32_t c : text) {
    if (is_white_space(c)) {
      pending = !out.empty();
      continue;
    }
    if (pending) out.push_back(U' ');
    pending = false;
    out.push_back(c);
  }
  return out;
}

// The node attributes a near match may name, with the field that finds a node by each.
struct Attribute {
  std::string_view name;    // the hierarchy's: "text"
  std::string_view reader;  // for `why`: "content description"
  MatcherField field;
};
constexpr std::array<Attribute, 3> kAttributes = {{
    {"text", "text", MatcherField::TextEquals},
    {"content-desc", "content description", MatcherField::ContentDescEquals},
    {"resource-id", "resource id", MatcherField::ResourceId},
}};

bool is_text_field(MatcherField field) {
  return field != MatcherField::Role;
}

// The node's value of `attribute`, empty when it has none or when its text is only its
// description again (a query_ui summary's label).
std::string_view value_of(const Node& node, const Attribute& attribute) {
  const std::string_view value = node.attribute(attribute.name);
  if (attribute.field == MatcherField::TextEquals && value == node.attribute("content-desc")) {
    return {};
  }
  return value;
}

std::string why_of(const Attribute& attribute, std::string_view asked, Closeness closeness,
                   std::size_t edits) {
  const std::string quoted = "\"" + std::string(asked) + "\"";
  const std::string subject(attribute.reader);
  switch (closeness) {
    case Closeness::Same:
      return subject + " is exactly " + quoted;
    case Closeness::Case:
      return subject + " differs from " + quoted + " only in case";
    case Closeness::WhiteSpace:
      return subject + " differs from " + quoted + " only in case and spacing";
    case Closeness::Edits:
      return subject + " is " + std::to_string(edits) + " character" + (edits == 1 ? "" : "s") +
             " from " + quoted;
    case Closeness::Contains:
      return subject + " and " + quoted + " hold one another";
    case Closeness::Word:
      break;
  }
  return subject + " has a word " + std::to_string(edits) + " character" + (edits == 1 ? "" : "s") +
         " from " + quoted;
}

auto rank(const NearMatch& match) {
  return std::make_tuple(match.closeness, match.edits, match.index);
}

}  // namespace

std::size_t edit_limit(std::size_t length) {
  if (length < 4) return 0;
  if (length <= 7) return 1;
  return length / 4;
}

std::optional<Closeness> closeness(std::string_view asked, std::string_view node_value,
                                   std::size_t& edits) {
  if (asked.empty() || node_value.empty()) return std::nullopt;
  if (asked == node_value) return Closeness::Same;
  const std::u32string folded_asked = contract::case_folded(asked);
  const std::u32string folded_value = contract::case_folded(node_value);
  if (folded_asked == folded_value) return Closeness::Case;
  const std::u32string a = collapse_white_space(folded_asked);
  const std::u32string v = collapse_white_space(folded_value);
  if (a.empty() || v.empty()) return std::nullopt;
  if (a == v) return Closeness::WhiteSpace;
  const std::size_t limit = edit_limit(a.size());
  const std::size_t apart = a.size() > v.size() ? a.size() - v.size() : v.size() - a.size();
  if (limit > 0 && apart <= limit && a.size() <= kMaxEditedLength && v.size() <= kMaxEditedLength) {
    if (const std::size_t distance = clawperator::edit_distance(a, v); distance <= limit) {
      edits = distance;
      return Closeness::Edits;
    }
  }
  // The node holds what was asked ("internet" in "Network & internet"), or what was asked
  // holds the node's whole value, when that is at least half of it.
  if (a.size() >= 3 && v.find(a) != std::u32string::npos) return Closeness::Contains;
  if (v.size() >= 3 && v.size() * 2 >= a.size() && a.find(v) != std::u32string::npos) {
    return Closeness::Contains;
  }
  // One word asked, misspelt, of a longer value: "Netwrk" of "Network & internet".
  if (limit > 0 && a.size() <= kMaxEditedLength && a.find(U' ') == std::u32string::npos) {
    std::size_t best = limit + 1;
    for (std::size_t start = 0; start < v.size();) {
      const std::size_t space = std::min(v.find(U' ', start), v.size());
      const std::u32string_view word = std::u32string_view(v).substr(start, space - start);
      best = std::min(best, clawperator::edit_distance(a, word));
      start = space + 1;
    }
    if (best <= limit) {
      edits = best;
      return Closeness::Word;
    }
  }
  return std::nullopt;
}

std::vector<NearMatch> near_matches(const Tree& tree, const contract::NodeMatcher& matcher,
                                    std::size_t limit) {
  std::vector<std::string_view> asked;
  for (const auto& [field, value] : matcher.node.fields) {
    if (is_text_field(field) && !is_blank(value)) asked.push_back(value);
  }
  std::vector<NearMatch> found;
  if (asked.empty() || limit == 0) return found;
  for (std::size_t index = 0; index < tree.nodes.size(); ++index) {
    std::optional<NearMatch> best;
    for (const Attribute& attribute : kAttributes) {
      const std::string_view value = value_of(tree.nodes[index], attribute);
      // An id is also compared by its entry name alone ("title" of "android:id/title").
      const std::size_t slash =
          attribute.field == MatcherField::ResourceId ? value.rfind('/') : std::string_view::npos;
      const std::string_view entry =
          slash == std::string_view::npos ? std::string_view() : value.substr(slash + 1);
      for (const std::string_view wanted : asked) {
        std::size_t edits = 0;
        std::optional<Closeness> close = closeness(wanted, value, edits);
        std::size_t entry_edits = 0;
        if (const std::optional<Closeness> by_entry = closeness(wanted, entry, entry_edits);
            by_entry && (!close || std::tie(*by_entry, entry_edits) < std::tie(*close, edits))) {
          close = by_entry;
          edits = entry_edits;
        }
        if (!close) continue;
        NearMatch candidate{index,  attribute.field, std::string(value),
                            *close, edits,           why_of(attribute, wanted, *close, edits)};
        if (!best || rank(candidate) < rank(*best)) best = std::move(candidate);
      }
    }
    if (best) found.push_back(std::move(*best));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const NearMatch& a, const NearMatch& b) { return rank(a) < rank(b); });
  // One per matcher: nodes alike (a list's repeated rows) would paste the same one.
  std::vector<NearMatch> distinct;
  for (NearMatch& match : found) {
    const bool repeated = std::any_of(distinct.begin(), distinct.end(), [&](const NearMatch& kept) {
      return kept.field == match.field && kept.value == match.value;
    });
    if (repeated) continue;
    distinct.push_back(std::move(match));
    if (distinct.size() == limit) break;
  }
  return distinct;
}

Json to_json(const Tree& tree, const NearMatch& match) {
  const Node& node = tree.nodes[match.index];
  Json out = Json::object();
  static constexpr std::array<std::pair<std::size_t, std::string_view>, 3> kKeys = {
      {{0, "text"}, {1, "contentDesc"}, {2, "resourceId"}}};
  for (const auto& [attribute, key] : kKeys) {
    const std::string_view value = value_of(node, kAttributes[attribute]);
    if (!value.empty()) out[std::string(key)] = std::string(value);
  }
  Json pasteable = Json::object();
  pasteable[std::string(contract::matcher_field_row(match.field).key)] = match.value;
  out["matcher"] = std::move(pasteable);
  out["why"] = match.why;
  return out;
}

}  // namespace clawperator::hierarchy
