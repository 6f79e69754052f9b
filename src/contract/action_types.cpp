#include "clawperator/contract/action_types.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace clawperator::contract {
namespace {

// `snapshot` is the newer canonical name; `snapshot_ui` stays accepted as an alias.
constexpr std::array<std::string_view, 18> kCanonical = {
    "open_app",
    "open_uri",
    "close_app",
    "start_recording",
    "stop_recording",
    "wait_for_node",
    "click",
    "scroll_and_click",
    "scroll",
    "scroll_until",
    "read_text",
    "enter_text",
    "snapshot",
    "take_screenshot",
    "sleep",
    "press_key",
    "wait_for_navigation",
    "read_key_value_pair",
};

constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kAliases = {{
    {"open_url", "open_uri"},
    {"tap", "click"},
    {"press", "click"},
    {"wait_for", "wait_for_node"},
    {"find", "wait_for_node"},
    {"find_node", "wait_for_node"},
    {"read", "read_text"},
    {"snapshot_ui", "snapshot"},
    {"screenshot", "take_screenshot"},
    {"capture_screenshot", "take_screenshot"},
    {"type_text", "enter_text"},
    {"text_entry", "enter_text"},
    {"input_text", "enter_text"},
    {"key_press", "press_key"},
}};

constexpr std::array<std::string_view, 9> kReadOnly = {
    "snapshot",      "snapshot_ui",         "read_text",       "read_key_value_pair",
    "wait_for_node", "wait_for_navigation", "take_screenshot", "sleep",
    "doctor_ping",
};

constexpr std::array<std::string_view, 9> kNoEffectCodes = {
    "NODE_NOT_FOUND",      "NODE_AMBIGUOUS",          "NODE_NOT_CLICKABLE",
    "CONTAINER_NOT_FOUND", "CONTAINER_AMBIGUOUS",     "CONTAINER_NOT_SCROLLABLE",
    "GESTURE_UNSUPPORTED", "SECURITY_BLOCK_DETECTED", "SERVICE_UNAVAILABLE",
};

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

}  // namespace

std::span<const std::string_view> canonical_action_types() {
  return kCanonical;
}

std::string normalize_action_type(std::string_view raw) {
  while (!raw.empty() && is_space(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
  std::string lowered(raw);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  for (const auto& [alias, canonical] : kAliases) {
    if (alias == lowered) return std::string(canonical);
  }
  return lowered;
}

bool is_supported_action_type(std::string_view canonical) {
  return contains(kCanonical, canonical);
}

bool is_read_only_action(std::string_view type) {
  return contains(kReadOnly, type) || contains(kReadOnly, normalize_action_type(type));
}

bool is_no_effect_error_code(std::string_view code) {
  return contains(kNoEffectCodes, code);
}

}  // namespace clawperator::contract
