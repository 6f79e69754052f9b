// The action vocabulary of the execution payload (inventory 3.4).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace clawperator::contract {

// Canonical action types, in documentation order.
std::span<const std::string_view> canonical_action_types();

// Trims, lower-cases and resolves aliases ("tap" -> "click", "snapshot_ui" ->
// "snapshot"). Unknown types come back trimmed and lower-cased, unresolved.
std::string normalize_action_type(std::string_view raw);

bool is_supported_action_type(std::string_view canonical);

// Read-only actions leave the device as they found it (spec/contract.md §4).
// Takes canonical or raw names.
bool is_read_only_action(std::string_view type);

// Android step codes that prove a mutating step had no effect.
bool is_no_effect_error_code(std::string_view code);

}  // namespace clawperator::contract
