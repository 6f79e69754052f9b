#include "clawperator/adb/device_settings.hpp"

#include <charconv>

#include "clawperator/text.hpp"

namespace clawperator::adb {
namespace {

std::optional<int> parse_positive(std::string_view text) {
  text = trim(text);
  int value = 0;
  const auto [next, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || next != text.data() + text.size() || value <= 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<std::string> parse_setting_value(std::string_view text) {
  const std::string_view value = trim(text);
  if (value.empty() || value == "null") return std::nullopt;
  return std::string(value);
}

bool component_list_contains(std::string_view list, std::string_view component) {
  const std::string_view wanted = trim(component);
  while (!list.empty()) {
    const auto end = list.find(':');
    if (trim(list.substr(0, end)) == wanted) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

std::string component_list_with(const std::optional<std::string>& list,
                                std::string_view component) {
  if (!list || trim(*list).empty()) return std::string(component);
  return std::string(trim(*list)) + ":" + std::string(component);
}

DisplayMetrics parse_display_metrics(std::string_view wm_output) {
  DisplayMetrics metrics;
  bool size_overridden = false;
  bool density_overridden = false;
  while (!wm_output.empty()) {
    const auto end = wm_output.find('\n');
    const std::string_view line = trim(wm_output.substr(0, end));
    wm_output = end == std::string_view::npos ? std::string_view() : wm_output.substr(end + 1);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view label = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    const bool is_override = label.rfind("Override", 0) == 0;
    if (label.find("size") != std::string_view::npos && !value.empty()) {
      if (is_override || !size_overridden) metrics.size = std::string(value);
      size_overridden = size_overridden || is_override;
    } else if (label.find("density") != std::string_view::npos) {
      if (auto density = parse_positive(value); density && (is_override || !density_overridden)) {
        metrics.density = density;
        density_overridden = density_overridden || is_override;
      }
    }
  }
  return metrics;
}

std::optional<int> parse_sdk_level(std::string_view text) {
  return parse_positive(text);
}

}  // namespace clawperator::adb
