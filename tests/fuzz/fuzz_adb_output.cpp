// The parsers of adb's and the device's output: devices -l, pm list packages,
// adb's own errors, adb version, dumpsys package, settings, wm and getprop.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/adb/adb_version.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_dump.hpp"
#include "clawperator/adb/package_list.hpp"
#include "clawperator/contract/operator_version.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace adb = clawperator::adb;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto devices = adb::parse_device_list(text);
  (void)adb::select_device(devices, std::nullopt);
  if (!devices.empty()) (void)adb::select_device(devices, devices.back().serial);
  (void)adb::parse_package_list(text);
  (void)adb::parse_package_uids(text);
  (void)adb::classify_adb_failure(text);
  if (const auto version = adb::parse_adb_version(text)) {
    (void)adb::version_at_least(version->protocol, adb::kMinimumAdbProtocol);
  }
  const auto package = adb::parse_package_version(text, "com.clawperator.operator");
  if (package.version_name)
    (void)clawperator::contract::operator_compatibility(*package.version_name);
  const auto setting = adb::parse_setting_value(text);
  (void)adb::component_list_contains(text, "com.clawperator.operator/a.B");
  (void)adb::component_list_with(setting, "com.clawperator.operator/a.B");
  (void)adb::parse_display_metrics(text);
  (void)adb::parse_sdk_level(text);
  (void)clawperator::adb::split_exit_marker(text);
  return 0;
}
