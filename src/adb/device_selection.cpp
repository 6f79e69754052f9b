#include "clawperator/adb/device_selection.hpp"

namespace clawperator::adb {
namespace {

using contract::HostError;

constexpr std::string_view kUsableState = "device";

using contract::readiness_error;

Json device_list_json(const std::vector<DeviceEntry>& devices) {
  Json list = Json::array();
  for (const DeviceEntry& device : devices) list.push_back(device_to_json(device));
  return list;
}

// A device that is listed but cannot be used gets its own code.
contract::Status unusable_device_error(const DeviceEntry& device) {
  if (device.state == "unauthorized") {
    HostError error = readiness_error(
        "DEVICE_UNAUTHORIZED", "Device " + device.serial +
                                   " is unauthorized: accept the USB debugging prompt on the "
                                   "device");
    return contract::failed(std::move(error));
  }
  if (device.state == "offline") {
    HostError error = readiness_error("DEVICE_OFFLINE", "Device " + device.serial + " is offline");
    return contract::failed(std::move(error));
  }
  if (device.state == "no permissions") {
    HostError error = readiness_error("ADB_NO_USB_PERMISSIONS",
                                      "adb has no permission to open device " + device.serial);
    return contract::failed(std::move(error));
  }
  return {};
}

}  // namespace

Json device_to_json(const DeviceEntry& device) {
  Json out = Json::object();
  out["serial"] = device.serial;
  out["state"] = device.state;
  out["product"] = device.product.empty() ? Json(nullptr) : Json(device.product);
  out["model"] = device.model.empty() ? Json(nullptr) : Json(device.model);
  out["device"] = device.device.empty() ? Json(nullptr) : Json(device.device);
  out["transportId"] = device.transport_id.empty() ? Json(nullptr) : Json(device.transport_id);
  return out;
}

contract::Outcome<DeviceEntry> select_device(const std::vector<DeviceEntry>& devices,
                                             const std::optional<std::string>& requested) {
  std::vector<std::string> usable;
  for (const DeviceEntry& device : devices) {
    if (device.state == kUsableState) usable.push_back(device.serial);
  }

  if (requested) {
    for (const DeviceEntry& device : devices) {
      if (device.serial != *requested) continue;
      if (device.state == kUsableState) return device;
      if (auto status = unusable_device_error(device); !status) {
        status.error().details["deviceId"] = device.serial;
        status.error().details["state"] = device.state;
        return contract::failed(std::move(status.error()));
      }
    }
    HostError error = readiness_error("DEVICE_NOT_FOUND",
                                      "Device " + *requested + " not found or not in device state");
    error.details["deviceId"] = *requested;
    error.details["connected"] = usable;
    error.details["devices"] = device_list_json(devices);
    return contract::failed(std::move(error));
  }

  if (usable.size() == 1) {
    for (const DeviceEntry& device : devices) {
      if (device.serial == usable.front()) return device;
    }
  }
  if (usable.empty()) {
    if (devices.size() == 1) {
      if (auto status = unusable_device_error(devices.front()); !status) {
        status.error().details["deviceId"] = devices.front().serial;
        status.error().details["state"] = devices.front().state;
        return contract::failed(std::move(status.error()));
      }
    }
    HostError error = readiness_error("NO_DEVICES", "No connected devices");
    error.details["devices"] = device_list_json(devices);
    return contract::failed(std::move(error));
  }

  std::string message = "Multiple devices are connected; choose one with --device:";
  for (const std::string& serial : usable) message += "\n  " + serial;
  message += "\nRetry with: --device " + usable.front();
  HostError error = readiness_error("MULTIPLE_DEVICES_DEVICE_ID_REQUIRED", message);
  error.details["devices"] = usable;
  Json candidates = Json::array();
  for (const DeviceEntry& device : devices) {
    if (device.state == kUsableState) candidates.push_back(device_to_json(device));
  }
  error.details["candidates"] = std::move(candidates);
  return contract::failed(std::move(error));
}

}  // namespace clawperator::adb
