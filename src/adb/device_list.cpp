#include "clawperator/adb/device_list.hpp"

namespace clawperator::adb {
namespace {

std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

bool is_field(std::string_view token) {
  const auto colon = token.find(':');
  return colon != std::string_view::npos && colon > 0 &&
         token.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == colon;
}

}  // namespace

std::vector<DeviceEntry> parse_device_list(std::string_view text) {
  std::vector<DeviceEntry> devices;
  bool in_list = false;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.rfind("List of devices attached", 0) == 0) {
      in_list = true;
      continue;
    }
    // "* daemon not running; starting now …" and similar chatter.
    if (!in_list || line.empty() || line.front() == '*') continue;
    const std::vector<std::string_view> tokens = split_whitespace(line);
    if (tokens.empty()) continue;
    DeviceEntry entry;
    entry.serial = tokens[0];
    std::size_t i = 1;
    // The state may be several words ("no permissions (…); see […]") up to the fields.
    while (i < tokens.size() && !is_field(tokens[i])) {
      if (!entry.state.empty()) entry.state += ' ';
      entry.state += tokens[i];
      ++i;
    }
    if (entry.state.rfind("no permissions", 0) == 0) entry.state = "no permissions";
    if (entry.state.empty()) entry.state = "unknown";
    for (; i < tokens.size(); ++i) {
      const std::string_view token = tokens[i];
      const auto colon = token.find(':');
      const std::string_view key = token.substr(0, colon);
      const std::string value(token.substr(colon + 1));
      if (key == "product") {
        entry.product = value;
      } else if (key == "model") {
        entry.model = value;
      } else if (key == "device") {
        entry.device = value;
      } else if (key == "transport_id") {
        entry.transport_id = value;
      }
    }
    devices.push_back(std::move(entry));
  }
  return devices;
}

}  // namespace clawperator::adb
