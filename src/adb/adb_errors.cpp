#include "clawperator/adb/adb_errors.hpp"

#include <array>
#include <utility>

namespace clawperator::adb {

std::optional<std::string> classify_adb_failure(std::string_view output) {
  // Order matters: the most specific fragment wins.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 15> kFragments = {{
      {"device unauthorized", "DEVICE_UNAUTHORIZED"},
      {"device offline", "DEVICE_OFFLINE"},
      {"more than one device", "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED"},
      {"no devices/emulators found", "NO_DEVICES"},
      {"' not found", "DEVICE_NOT_FOUND"},
      {"no device with transport id", "DEVICE_NOT_FOUND"},
      {"no permissions", "ADB_NO_USB_PERMISSIONS"},
      {"insufficient permissions", "ADB_NO_USB_PERMISSIONS"},
      {"cannot connect to daemon", "ADB_SERVER_FAILED"},
      {"failed to start daemon", "ADB_SERVER_FAILED"},
      {"failed to check server version", "ADB_SERVER_FAILED"},
      {"protocol fault", "ADB_SERVER_FAILED"},
      {"ANDROID_ADB_SERVER_PORT must be", "ADB_SERVER_FAILED"},
      {"Connection refused", "ADB_SERVER_FAILED"},
      {"daemon not running", "ADB_SERVER_FAILED"},
  }};
  for (const auto& [fragment, code] : kFragments) {
    if (output.find(fragment) != std::string_view::npos) {
      // "daemon not running; starting now" precedes a successful start too: only a
      // failure when nothing says it started.
      if (fragment == "daemon not running" &&
          output.find("daemon started successfully") != std::string_view::npos) {
        continue;
      }
      return std::string(code);
    }
  }
  return std::nullopt;
}

std::optional<std::string> adb_usage_error(std::string_view output) {
  // adb 29's words (docs/wire-protocol.md §2.6).
  const auto has = [](std::string_view line, std::string_view fragment) {
    return line.find(fragment) != std::string_view::npos;
  };
  while (!output.empty()) {
    const std::size_t end = output.find('\n');
    std::string_view line = output.substr(0, end);
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const bool usage =
        line.rfind("Android Debug Bridge version", 0) == 0 ||  // the help text's banner
        (line.rfind("adb: ", 0) == 0 &&
         (has(line, "unknown command") || has(line, "requires an argument") ||
          (has(line, " takes ") && has(line, " argument")) || line.rfind("adb: usage:", 0) == 0 ||
          has(line, "invalid transport id")));
    if (usage) return std::string(line);
  }
  return std::nullopt;
}

}  // namespace clawperator::adb
