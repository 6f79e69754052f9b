// "Did you mean …?" for mistyped commands, flags and error codes (docs/contract.md §1.4). Pure.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace clawperator {

std::size_t edit_distance(std::string_view a, std::string_view b);
// The same over decoded characters (the near matches of NODE_NOT_FOUND, hierarchy/near_match.hpp).
std::size_t edit_distance(std::u32string_view a, std::u32string_view b);

// A command within max(2, len/2) edits; ties go to the shorter distance, then
// to the earlier candidate (primary names come before synonyms).
std::optional<std::string> suggest_command(std::string_view typed,
                                           std::span<const std::string> candidates);

// A flag whose similarity 1 - distance/maxLength exceeds 0.75.
std::optional<std::string> suggest_flag(std::string_view typed,
                                        std::span<const std::string> candidates);

}  // namespace clawperator
