// Which element a device-interaction command acts on, from its flags
// (docs/payload.md §7): the --text/--id/... shorthands or --selector JSON, for the element and
// for its scroll container, and click's --coordinate. Pure: the flags come in
// as typed, the NodeMatcher or the original CLI's error comes out.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/service/actions.hpp"

namespace clawperator::cli {

// The values typed after one occurrence of a flag; empty when the flag came
// last or straight before another flag ("--text" alone is not "--text ''").
using FlagOccurrence = std::vector<std::string>;
// Every value flag that was typed, by name ("--text"), each occurrence in order.
using TypedFlags = std::map<std::string, std::vector<FlagOccurrence>, std::less<>>;

enum class SelectorScope { Element, Container };

// The matcher fields the shorthand flags set, in the order the original checked them
// (--text, --text-contains, --id, --desc, --desc-contains, --role).
std::span<const contract::MatcherField> shorthand_fields();

// The flags of a scope: the JSON flag, then the shorthands in that order.
std::span<const std::string_view> selector_flag_names(SelectorScope scope);

bool has_selector_flag(const TypedFlags& typed, SelectorScope scope);

// The NodeMatcher the flags of `scope` describe, or nullopt when none of them
// was typed. Errors are EXECUTION_VALIDATION_FAILED, worded as the original's.
using SelectorResolution = contract::Outcome<std::optional<Json>>;
SelectorResolution resolve_selector(const TypedFlags& typed, SelectorScope scope);

// `--coordinate X Y`, or nullopt when it was not typed.
using CoordinateResolution = contract::Outcome<std::optional<service::Coordinate>>;
CoordinateResolution resolve_coordinate(const TypedFlags& typed);
// Any two-value pixel flag (`--start X Y`, `--end X Y`) the way --coordinate is read.
CoordinateResolution resolve_point(const TypedFlags& typed, std::string_view flag);

// What the MISSING_SELECTOR message lists: click also takes --coordinate, and
// type takes neither --text (the text to type) nor --coordinate.
enum class SelectorChoices { Standard, WithCoordinate, TypeTarget };
contract::HostError missing_selector(std::string_view command, SelectorChoices choices);

// The first flag typed more than once, among `names`, as the original words it.
contract::Status repeated_flag(const TypedFlags& typed, std::span<const std::string_view> names);

// A flag rule broken on the command line: EXECUTION_VALIDATION_FAILED, nothing sent.
contract::HostError invalid_flags(std::string message, std::string_view flag = {});

}  // namespace clawperator::cli
