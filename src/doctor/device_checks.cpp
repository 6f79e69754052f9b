// The device: is exactly one usable, and does its shell answer.
#include "checks.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/text.hpp"

namespace clawperator::doctor {

Check check_device_discovery(DoctorContext& context) {
  Check check;
  check.id = "device.discovery";
  const process::Completion completion = context.client.devices();
  if (auto status = adb::adb_call_failure(completion, context.client.settings(), "adb devices",
                                          "ADB_SERVER_FAILED");
      !status) {
    check.status = Status::Fail;
    check.code = status.error().code;
    check.summary = "adb could not list devices";
    check.detail = status.error().message;
    check.fix = restart_adb_server_fix(context);
    return check;
  }
  const std::vector<adb::DeviceEntry> devices = adb::parse_device_list(completion.out);
  Json listed = Json::array();
  for (const adb::DeviceEntry& device : devices) listed.push_back(adb::device_to_json(device));
  check.evidence["devices"] = listed;
  const contract::Outcome<adb::DeviceEntry> selected =
      adb::select_device(devices, context.options.device);
  if (selected) {
    context.serial = selected->serial;
    check.summary = "Device " + selected->serial + " is connected and authorized";
    check.evidence["serial"] = selected->serial;
    return check;
  }
  const contract::HostError& error = selected.error();
  check.code = error.code;
  check.detail = error.message;
  if (error.details.contains("state")) check.evidence["targetState"] = error.details["state"];
  if (error.code == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") {
    check.status = Status::Warn;
    check.summary = "Several devices are connected; doctor needs one";
    std::string retry =
        "clawperator doctor --device " + error.details["devices"][0].get<std::string>();
    check.fix =
        Fix{"Choose the device", {manual_step("Rerun with --device: " + retry)}, kDevicesDocs};
    return check;
  }
  check.status = Status::Fail;
  if (error.code == "NO_DEVICES") {
    check.summary = "No device is connected";
    check.fix = Fix{"Connect a device",
                    {manual_step("Connect a phone by USB with USB debugging enabled, or run "
                                 "'adb connect HOST:PORT' for a network device"),
                     manual_step("Then check it is listed: clawperator devices")},
                    kDevicesDocs};
  } else if (error.code == "DEVICE_UNAUTHORIZED") {
    check.summary = "The device has not authorized this computer";
    check.fix = Fix{"Authorize USB debugging",
                    {manual_step("Unlock the device and accept the 'Allow USB debugging' dialog "
                                 "(tick 'Always allow from this computer')")},
                    kDevicesDocs};
    check.device_guidance =
        DeviceGuidance{"Device Dialog",
                       {"Unlock the screen", "Accept 'Allow USB debugging?'",
                        "If no dialog shows, revoke USB debugging authorizations in Developer "
                        "options and reconnect the cable"}};
  } else if (error.code == "DEVICE_OFFLINE") {
    check.summary = "The device is offline";
    check.fix = restart_adb_server_fix(context);
  } else if (error.code == "ADB_NO_USB_PERMISSIONS") {
    check.summary = "adb may not open the USB device";
    check.fix = Fix{"Allow access to the USB device",
                    {manual_step("Add a udev rule for the device and add yourself to the plugdev "
                                 "group, then reconnect it")},
                    kDevicesDocs};
  } else {
    check.summary = "The requested device is not available";
    check.fix = Fix{"Pick a connected device",
                    {manual_step("Run 'clawperator devices' and pass one of the listed serials "
                                 "with --device")},
                    kDevicesDocs};
  }
  return check;
}

Check check_device_capability(DoctorContext& context) {
  Check check;
  check.id = "device.capability";
  const std::string& serial = *context.serial;
  // One round trip; each answer on its own line(s), the SDK level first.
  const contract::Outcome<adb::ShellOutput> output = adb::run_device_shell(
      context.client, serial,
      {"getprop ro.build.version.sdk; getprop ro.build.version.release; wm size; wm density",
       "adb shell getprop"});
  std::string_view text = output ? std::string_view(output->out) : std::string_view();
  const std::string_view sdk_line = text.substr(0, text.find('\n'));
  text = text.find('\n') == std::string_view::npos ? std::string_view()
                                                   : text.substr(text.find('\n') + 1);
  const std::string_view release_line = trim(text.substr(0, text.find('\n')));
  const std::optional<int> sdk = adb::parse_sdk_level(sdk_line);
  if (!output || !sdk) {
    check.status = Status::Fail;
    check.code = !output ? output.error().code : "DEVICE_SHELL_UNAVAILABLE";
    check.summary = "The device shell does not answer";
    check.detail = !output ? output.error().message
                           : "'getprop ro.build.version.sdk' printed no API level" +
                                 (trim(output->err).empty()
                                      ? std::string()
                                      : ": " + std::string(trim(output->err)).substr(0, 400));
    check.fix = Fix{"Reconnect the device",
                    {manual_step("Reconnect the device (or run 'adb reconnect') and check that "
                                 "'adb -s " +
                                 serial + " shell echo ok' prints ok")},
                    kDevicesDocs};
    return check;
  }
  const adb::DisplayMetrics metrics = adb::parse_display_metrics(text);
  check.summary = "Android " + std::string(release_line) + " (API " + std::to_string(*sdk) +
                  ") answers on its shell";
  check.evidence = Json{{"sdk", *sdk},
                        {"release", std::string(release_line)},
                        {"wmSize", metrics.size ? Json(*metrics.size) : Json(nullptr)},
                        {"wmDensity", metrics.density ? Json(*metrics.density) : Json(nullptr)}};
  return check;
}

}  // namespace clawperator::doctor
