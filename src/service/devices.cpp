#include "clawperator/service/devices.hpp"

#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::service {

contract::Outcome<Json> list_devices(const adb::AdbSettings& settings) {
  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, settings);
  const process::Completion completion = client.devices();
  if (auto status =
          adb::adb_call_failure(completion, client.settings(), "adb devices", "ADB_SERVER_FAILED");
      !status) {
    return contract::failed(status.error());
  }
  Json devices = Json::array();
  for (const adb::DeviceEntry& device : adb::parse_device_list(completion.out)) {
    devices.push_back(adb::device_to_json(device));
  }
  Json out = Json::object();
  out["devices"] = std::move(devices);
  return out;
}

}  // namespace clawperator::service
