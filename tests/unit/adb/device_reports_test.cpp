// What adb and the device print about themselves: adb version, dumpsys package,
// settings values, wm and getprop.
#include <catch2/catch.hpp>

#include "clawperator/adb/adb_version.hpp"
#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/package_dump.hpp"

using namespace clawperator::adb;

TEST_CASE("adb version output", "[adb][parsers]") {
  const auto debian = parse_adb_version(
      "Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\nInstalled as "
      "/usr/lib/android-sdk/platform-tools/adb\n");
  REQUIRE(debian);
  CHECK(debian->protocol == "1.0.41");
  CHECK(debian->release == "29.0.6-debian");
  CHECK(debian->installed_as == "/usr/lib/android-sdk/platform-tools/adb");
  const auto old = parse_adb_version("Android Debug Bridge version 1.0.32\r\n");
  REQUIRE(old);
  CHECK(old->protocol == "1.0.32");
  CHECK(old->release.empty());
  CHECK_FALSE(parse_adb_version(""));
  CHECK_FALSE(parse_adb_version("Version 29.0.6\nsh: adb: not found\n"));
  CHECK(version_at_least("1.0.41", "1.0.36"));
  CHECK(version_at_least("1.0.36", "1.0.36"));
  CHECK(version_at_least("1.1", "1.0.36"));
  CHECK_FALSE(version_at_least("1.0.32", "1.0.36"));
  CHECK_FALSE(version_at_least("1.0.x", "1.0.36"));
  CHECK_FALSE(version_at_least("", "1.0.36"));
}

TEST_CASE("dumpsys package: the package's own version", "[adb][parsers]") {
  const std::string dump =
      "Activity Resolver Table:\n  versionName=wrong\n"
      "Packages:\n"
      "  Package [com.other] (1):\n    versionCode=7 minSdk=21\n    versionName=9.9.9\n"
      "  Package [com.clawperator.operator] (2):\n    versionCode=503 minSdk=26 targetSdk=34\n"
      "    versionName=0.5.3\n";
  const PackageVersion version = parse_package_version(dump, "com.clawperator.operator");
  CHECK(version.version_name == "0.5.3");
  CHECK(version.version_code == 503);
  const PackageVersion flat =
      parse_package_version("    versionCode=12 targetSdk=30\n    versionName=1.2 beta\n", "x");
  CHECK(flat.version_name == "1.2 beta");
  CHECK(flat.version_code == 12);
  const PackageVersion missing =
      parse_package_version("Unable to find package: com.clawperator.operator\n", "x");
  CHECK_FALSE(missing.version_name);
  CHECK_FALSE(missing.version_code);
  CHECK_FALSE(parse_package_version("versionCode=12abc\n", "x").version_code);
  CHECK_FALSE(parse_package_version("xversionName=1.0.0\n", "x").version_name);
}

TEST_CASE("settings values and component lists", "[adb][parsers]") {
  CHECK(parse_setting_value("1\n") == "1");
  CHECK_FALSE(parse_setting_value("null\n"));
  CHECK_FALSE(parse_setting_value("  \n"));
  const std::string service = "com.clawperator.operator/a.B";
  CHECK(component_list_contains("x/y:com.clawperator.operator/a.B", service));
  CHECK_FALSE(component_list_contains("com.clawperator.operator.dev/a.B", service));
  CHECK_FALSE(component_list_contains("", service));
  CHECK(component_list_with(std::nullopt, service) == service);
  CHECK(component_list_with(std::string(" "), service) == service);
  CHECK(component_list_with(std::string("x/y"), service) == "x/y:" + service);
}

TEST_CASE("wm and getprop output", "[adb][parsers]") {
  const DisplayMetrics physical =
      parse_display_metrics("Physical size: 1080x2400\nPhysical density: 420\n");
  CHECK(physical.size == "1080x2400");
  CHECK(physical.density == 420);
  const DisplayMetrics overridden = parse_display_metrics(
      "Physical size: 1080x2400\nOverride size: 720x1600\nPhysical density: 420\n"
      "Override density: 320\n");
  CHECK(overridden.size == "720x1600");
  CHECK(overridden.density == 320);
  const DisplayMetrics none = parse_display_metrics("Error: no display\n");
  CHECK_FALSE(none.size);
  CHECK_FALSE(none.density);
  CHECK(parse_sdk_level("34\n") == 34);
  CHECK_FALSE(parse_sdk_level(""));
  CHECK_FALSE(parse_sdk_level("abc"));
  CHECK_FALSE(parse_sdk_level("0"));
}
