// The parsers of adb's output: devices -l, pm list packages, adb's own errors.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/package_list.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto devices = clawperator::adb::parse_device_list(text);
  (void)clawperator::adb::select_device(devices, std::nullopt);
  if (!devices.empty()) (void)clawperator::adb::select_device(devices, devices.back().serial);
  (void)clawperator::adb::parse_package_list(text);
  (void)clawperator::adb::classify_adb_failure(text);
  return 0;
}
