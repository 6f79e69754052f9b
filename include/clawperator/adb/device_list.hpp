// `adb devices -l`, parsed (docs/wire-protocol.md §2.3).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clawperator::adb {

struct DeviceEntry {
  std::string serial;
  std::string state;  // "device", "unauthorized", "offline", "no permissions", …
  std::string product;
  std::string model;
  std::string device;
  std::string transport_id;
};

// Tolerates the daemon start-up lines adb prints first and unknown key:value
// fields; a line without a state gets "unknown".
std::vector<DeviceEntry> parse_device_list(std::string_view text);

}  // namespace clawperator::adb
