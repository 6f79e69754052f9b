#include "clawperator/adb/device_list.hpp"

#include <catch2/catch.hpp>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/package_list.hpp"

using namespace clawperator::adb;
using clawperator::contract::HostError;

namespace {

// Real `adb devices -l` output of adb 29.0.6 (serial padded to 22 columns).
const char* kThreeDevices =
    "* daemon not running; starting now at tcp:5037\n"
    "* daemon started successfully\n"
    "List of devices attached\n"
    "127.0.0.1:5555         device product:vd_phone model:Virtual_Pixel device:vd transport_id:1\n"
    "emulator-5554          unauthorized transport_id:2\n"
    "0123456789ABCDEF       offline transport_id:3\n"
    "\n";

HostError error_of(const clawperator::contract::Outcome<DeviceEntry>& result) {
  REQUIRE_FALSE(result);
  return result.error();
}

}  // namespace

TEST_CASE("adb devices -l is parsed with every state and field", "[adb][devices]") {
  const auto devices = parse_device_list(kThreeDevices);
  REQUIRE(devices.size() == 3);
  CHECK(devices[0].serial == "127.0.0.1:5555");
  CHECK(devices[0].state == "device");
  CHECK(devices[0].product == "vd_phone");
  CHECK(devices[0].model == "Virtual_Pixel");
  CHECK(devices[0].device == "vd");
  CHECK(devices[0].transport_id == "1");
  CHECK(devices[1].state == "unauthorized");
  CHECK(devices[1].model.empty());
  CHECK(devices[1].transport_id == "2");
  CHECK(devices[2].state == "offline");
}

TEST_CASE("device list edge cases", "[adb][devices]") {
  CHECK(parse_device_list("List of devices attached\n\n").empty());
  CHECK(parse_device_list("").empty());
  CHECK(parse_device_list("garbage before the header\n").empty());
  // Plain `adb devices` separates with a TAB; CRLF line ends.
  const auto plain = parse_device_list("List of devices attached\r\nemulator-5556\tdevice\r\n");
  REQUIRE(plain.size() == 1);
  CHECK(plain[0].serial == "emulator-5556");
  CHECK(plain[0].state == "device");
  const auto no_permissions = parse_device_list(
      "List of devices attached\n"
      "1234 no permissions (user in plugdev group; are your udev rules wrong?); see "
      "[http://developer.android.com/tools/device.html] usb:1-1 transport_id:4\n");
  REQUIRE(no_permissions.size() == 1);
  CHECK(no_permissions[0].state == "no permissions");
  CHECK(no_permissions[0].transport_id == "4");
  const auto stateless = parse_device_list("List of devices attached\nlonely\n");
  REQUIRE(stateless.size() == 1);
  CHECK(stateless[0].state == "unknown");
}

TEST_CASE("device selection outcomes", "[adb][devices]") {
  const auto devices = parse_device_list(kThreeDevices);
  SECTION("the single usable device") {
    const auto result = select_device(devices, std::nullopt);
    REQUIRE(result);
    CHECK(result->serial == "127.0.0.1:5555");
  }
  SECTION("an explicit usable device") {
    const auto result = select_device(devices, "127.0.0.1:5555");
    REQUIRE(result);
  }
  SECTION("an explicit unauthorized device") {
    const HostError error = error_of(select_device(devices, "emulator-5554"));
    CHECK(error.code == "DEVICE_UNAUTHORIZED");
    CHECK(error.details["deviceId"] == "emulator-5554");
    CHECK(exit_code_of(error) == 3);
  }
  SECTION("an explicit offline device") {
    CHECK(error_of(select_device(devices, "0123456789ABCDEF")).code == "DEVICE_OFFLINE");
  }
  SECTION("an explicit unknown device") {
    const HostError error = error_of(select_device(devices, "nope"));
    CHECK(error.code == "DEVICE_NOT_FOUND");
    CHECK(error.message == "Device nope not found or not in device state");
    CHECK(error.details["connected"] == clawperator::Json::array({"127.0.0.1:5555"}));
    CHECK(disposition_of(error).retry == clawperator::contract::Retry::Safe);
  }
  SECTION("no devices at all") {
    const HostError error = error_of(select_device({}, std::nullopt));
    CHECK(error.code == "NO_DEVICES");
    CHECK(error.message == "No connected devices");
    CHECK(exit_code_of(error) == 3);
  }
  SECTION("only an unauthorized device") {
    const auto only = parse_device_list("List of devices attached\nx unauthorized\n");
    CHECK(error_of(select_device(only, std::nullopt)).code == "DEVICE_UNAUTHORIZED");
  }
  SECTION("two usable devices and no --device") {
    const auto two = parse_device_list(
        "List of devices attached\na device model:A\nb device model:B\nc offline\n");
    const HostError error = error_of(select_device(two, std::nullopt));
    CHECK(error.code == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED");
    CHECK(error.details["devices"] == clawperator::Json::array({"a", "b"}));
    CHECK(error.details["candidates"].size() == 2);
    const auto json = to_json(error);
    CHECK(json["recovery"]["strategy"] == "select_device_then_retry_original");
    CHECK(json["disposition"]["delivery"] == "not_delivered");
  }
}

TEST_CASE("adb failure texts are classified", "[adb][errors]") {
  struct Case {
    const char* text;
    const char* code;
  };
  const Case cases[] = {
      {"error: no devices/emulators found", "NO_DEVICES"},
      {"error: device 'X' not found", "DEVICE_NOT_FOUND"},
      {"error: no device with transport id '99'", "DEVICE_NOT_FOUND"},
      {"error: more than one device/emulator", "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED"},
      {"- waiting for device -\nerror: more than one device/emulator",
       "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED"},
      {"error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb "
       "kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your "
       "device.",
       "DEVICE_UNAUTHORIZED"},
      {"error: device offline", "DEVICE_OFFLINE"},
      {"* daemon not running; starting now at tcp:5037\nADB server didn't ACK\n* failed to "
       "start daemon\nerror: cannot connect to daemon",
       "ADB_SERVER_FAILED"},
      {"adb: failed to check server version: protocol fault (couldn't read status): Connection "
       "reset by peer",
       "ADB_SERVER_FAILED"},
      {"adb: $ANDROID_ADB_SERVER_PORT must be a positive number less than 65535: got \"abc\"",
       "ADB_SERVER_FAILED"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(classify_adb_failure(c.text) == c.code);
  }
  CHECK_FALSE(
      classify_adb_failure("* daemon not running; starting now at tcp:5037\n"
                           "* daemon started successfully\n"));
  CHECK_FALSE(classify_adb_failure("/system/bin/sh: pm: inaccessible or not found"));
}

TEST_CASE("pm list packages output and Operator variants", "[adb][packages]") {
  const auto packages = parse_package_list(
      "package:com.clawperator.operator.dev\r\n  package:com.android.settings \nnoise\n"
      "package:\n");
  CHECK(packages == std::set<std::string>{"com.clawperator.operator.dev", "com.android.settings"});
  CHECK(alternate_operator_variant("com.clawperator.operator") == "com.clawperator.operator.dev");
  CHECK(alternate_operator_variant("com.clawperator.operator.dev") == "com.clawperator.operator");
}
