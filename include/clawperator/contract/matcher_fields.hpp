// The one table of a NodeMatcher's fields (docs/payload.md "Matchers"): each field's payload
// key, its aliases, the hierarchy attribute it reads and how it compares, the CLI's flags and
// the MCP selector's short key, with their help texts. The payload's validation and
// normalisation, the CLI's selector flags, the MCP schemas, serve's /query and the hierarchy
// matcher (src/hierarchy/match.cpp) are all made from it, so that a field is added once. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "clawperator/contract/execution.hpp"

namespace clawperator::contract {

// How a field's value is compared with a node's (docs/payload.md §3): as the Operator's
// Kotlin code does (contract/matcher_text.hpp).
enum class FieldComparison : std::uint8_t {
  Exact,                 // byte for byte
  ContainsIgnoringCase,  // String.contains(…, ignoreCase = true)
  Role,                  // the node's role (role_of_class) or its class's simple name, any case
};

struct MatcherFieldRow {
  MatcherField field;
  std::string_view key;             // the payload's key: "textContains"
  std::string_view node_attribute;  // the UI Automator XML attribute it reads: "text"
  FieldComparison comparison;
  std::string_view flag;            // the CLI's element flag: "--text-contains"
  std::string_view container_flag;  // its container flag: "--container-text-contains"
  std::string_view value_name;      // the flag's value in help: "<text>"
  std::string_view help;            // the element flag's help: "Partial text match"
  std::string_view container_help;  // the container flag's help
  // The MCP selector's short key ("id", "desc"; the key itself where the two agree) and its
  // description there.
  std::string_view short_key;
  std::string_view selector_help;
  // Other spellings a payload may use (snake_case, the original's aliases), renamed to `key`
  // before validation (contract/payload_normalization.hpp).
  std::span<const std::string_view> aliases;
};

// Every field, in MatcherField's order: the order validation reports and schemas list them.
std::span<const MatcherFieldRow> matcher_fields();
const MatcherFieldRow& matcher_field_row(MatcherField field);
// The row whose payload key is `key`; nullptr for anything else (the relations included).
const MatcherFieldRow* matcher_field_by_key(std::string_view key);
// The payload key an alias stands for; empty when `alias` is none.
std::string_view matcher_key_of_alias(std::string_view alias);

// The relation keys of a NodeMatcher: a predicate of the fields above, one level deep.
inline constexpr std::string_view kAncestorKey = "ancestor";
inline constexpr std::string_view kDescendantKey = "descendant";

// The role the Operator gives a node of class `class_name` ("android.widget.EditText" is
// "textfield"), for a `role` field; the class's simple name lowercased when it has none of its
// own.
std::string role_of_class(std::string_view class_name);

// Whether `node_value` (the node's `node_attribute`, or its class for Role) satisfies the
// field's `wanted` value.
bool field_accepts(const MatcherFieldRow& row, std::string_view node_value,
                   std::string_view wanted);

}  // namespace clawperator::contract
