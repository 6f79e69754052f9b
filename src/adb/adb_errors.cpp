#include "clawperator/adb/adb_errors.hpp"

#include <array>
#include <utility>

namespace clawperator::adb {

std::optional<std::string> classify_adb_failure(std::string_view output) {
  // Order matters: the most specific fragment wins.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> kFragments = {{
      {"device unauthorized", "DEVICE_UNAUTHORIZED"},
      {"device offline", "DEVICE_OFFLINE"},
      {"more than one device", "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED"},
      {"no devices/emulators found", "NO_DEVICES"},
      {"' not found", "DEVICE_NOT_FOUND"},
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

}  // namespace clawperator::adb
