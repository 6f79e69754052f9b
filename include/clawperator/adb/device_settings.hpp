// What `settings get`, `getprop` and `wm` print, and the colon-separated
// component lists of the secure settings the Operator's services live in.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

// The value of `settings get …`: trimmed; nullopt for an unset key ("null" or empty).
std::optional<std::string> parse_setting_value(std::string_view text);

// Whether a colon-separated list ("a/b:c/d") holds `component` as a whole entry.
bool component_list_contains(std::string_view list, std::string_view component);
// The list with `component` appended (an unset list becomes just the component).
std::string component_list_with(const std::optional<std::string>& list, std::string_view component);

struct DisplayMetrics {
  std::optional<std::string> size;  // "1080x2400" (the override when one is set)
  std::optional<int> density;       // 420
};

// `wm size` and `wm density` output (Physical/Override lines; Override wins).
DisplayMetrics parse_display_metrics(std::string_view wm_output);

// A positive API level from `getprop ro.build.version.sdk`.
std::optional<int> parse_sdk_level(std::string_view text);

}  // namespace clawperator::adb
