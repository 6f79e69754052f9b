#include "vdevice/android/scenario/scenario.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "android_test_support.hpp"
#include "test_locations.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

std::string error_of(const std::string& json) {
  const auto scenario = load_scenario(json);
  REQUIRE_FALSE(scenario);
  return scenario.error().text();
}

}  // namespace

TEST_CASE("the default scenario", "[vdevice][android]") {
  const auto loaded = load_scenario(default_scenario_json());
  REQUIRE(loaded);
  const Scenario scenario = default_scenario();
  CHECK(scenario.name == "default");
  const PackageSpec* operator_app = scenario.find_package(kOperatorPackage);
  REQUIRE(operator_app != nullptr);
  CHECK(operator_app->version_name == "0.5.3");
  CHECK(operator_app->operator_app);
  CHECK_FALSE(operator_app->system);
  CHECK(scenario.find_package("com.android.settings") != nullptr);
  CHECK(scenario.find_screen("launcher.home") != nullptr);
  CHECK(scenario.home_screen == "launcher.home");
  CHECK(scenario.initial_screen == "launcher.home");
  CHECK(scenario.settings.at("secure").at("accessibility_enabled") == "1");
  // The launcher shows one icon per launchable app.
  const NodeSpec& workspace = scenario.find_screen("launcher.home")->root.children.at(1);
  REQUIRE(workspace.children.size() == 3);
  CHECK(workspace.children[0].text == "Settings");
  CHECK(workspace.children[0].navigate_to == "settings.main");
  // Property placeholders are filled in.
  const NodeSpec& about_row = scenario.find_screen("settings.main")->root.children[2].children[14];
  CHECK(about_row.children[1].text == "Virtual Pixel");
  // The scroll window comes from the offscreen children.
  const NodeSpec& list = scenario.find_screen("settings.main")->root.children[2];
  CHECK(list.first_visible == 0);
  CHECK(list.visible_count == 8);
}

TEST_CASE("a scenario file overlays the default", "[vdevice][android]") {
  const auto scenario = load_scenario(R"({
    "name": "dev variant",
    "properties": { "ro.product.model": "Lab Phone" },
    "packages": [
      { "name": "com.clawperator.operator", "installed": false },
      { "name": "com.clawperator.operator.dev", "versionName": "0.5.4-d",
        "launchScreen": "operator.main" }
    ],
    "faults": { "answerLateMs": 250, "count": 2 }
  })");
  REQUIRE(scenario);
  CHECK(scenario->name == "dev variant");
  CHECK(scenario->properties.at("ro.product.model") == "Lab Phone");
  CHECK(scenario->properties.at("ro.product.name") == "vpixel");
  CHECK(scenario->find_package(kOperatorPackage) == nullptr);
  // The operator's screen went with its package.
  CHECK(scenario->find_screen("operator.main") == nullptr);
  const PackageSpec* dev = scenario->find_package(kOperatorDevPackage);
  REQUIRE(dev != nullptr);
  CHECK(dev->operator_app);
  CHECK(scenario->faults.answer_late_ms == 250);
  CHECK(scenario->faults.count == std::optional<int>(2));
  CHECK(scenario->settings.at("secure").at("enabled_accessibility_services") ==
        "com.clawperator.operator.dev/" + std::string(kAccessibilityServiceClass));

  Harness harness(*scenario);
  CHECK(harness.shell("pm list packages com.clawperator.operator").out ==
        "package:com.clawperator.operator.dev\n");
  CHECK(harness.shell("getprop ro.product.model").out == "Lab Phone\n");
}

TEST_CASE("the minimal base keeps the system, the launcher and the Operator",
          "[vdevice][android]") {
  const auto scenario = load_scenario(R"({"base": "minimal"})");
  REQUIRE(scenario);
  CHECK(scenario->find_package("com.android.settings") == nullptr);
  CHECK(scenario->find_package(kOperatorPackage) != nullptr);
  CHECK(scenario->find_screen("launcher.home") != nullptr);
}

TEST_CASE("scenario errors name the place", "[vdevice][android]") {
  CHECK(error_of("{").find("scenario is not valid JSON: parse error at line 1") == 0);
  CHECK(error_of("[]") == "scenario: expected a JSON object");
  CHECK(error_of(R"({"faults": {"neverAnswr": true}})") == "faults.neverAnswr: unknown key");
  CHECK(error_of(R"({"faults": {"answerLateMs": "soon"}})") ==
        "faults.answerLateMs: expected an integer");
  CHECK(error_of(R"({"packages": [{"name": "com.x", "versionCode": "7"}]})") ==
        "packages[\"com.x\"].versionCode: expected an integer");
  CHECK(error_of(R"({"packages": [{"versionCode": 7}]})") ==
        "packages[0].name: expected a non-empty string");
  CHECK(error_of(R"({"screens": [{"id": "s", "package": "android",
                    "root": {"children": [{"bounds": "[0,0]"}]}}]})") ==
        "screens[\"s\"].root.children[0].bounds: expected \"[left,top][right,bottom]\"");
  CHECK(error_of(R"({"screens": [{"id": "s", "package": "android",
                    "root": {"navigateTo": "nowhere"}}]})") ==
        "screens[\"s\"].root.navigateTo: unknown screen \"nowhere\"");
  CHECK(error_of(R"({"screens": [{"id": "s", "package": "com.nope", "root": {}}]})") ==
        "screens[\"s\"].package: unknown package \"com.nope\" (declare it in packages)");
  CHECK(error_of(R"({"homeScreen": "settings.main", "packages": [
                    {"name": "com.android.settings", "installed": false}]})") ==
        "homeScreen: must name a screen of an installed package, got \"settings.main\"");
  CHECK(error_of(R"({"screens": [{"id": "s", "package": "android", "root": {
                    "children": [{"offscreen": true}]}}]})") ==
        "screens[\"s\"].root.children[0].offscreen: needs a scrollable parent");
  CHECK(error_of(R"({"logcat": {"showUids": "no"}})") == "logcat.showUids: expected true or false");
  CHECK(error_of(R"({"logcat": {"attachDelayMs": 60001}})") ==
        "logcat.attachDelayMs: must be at most 60000");
  CHECK(error_of(R"({"logcat": {"attachDelayMs": -1}})") ==
        "logcat.attachDelayMs: must be between 0 and 60000");
  CHECK(error_of(R"({"logcat": {"attachDelayMs": 0.5}})") ==
        "logcat.attachDelayMs: expected an integer");
  CHECK(load_scenario(R"({"logcat": {"attachDelayMs": 60000}})")->logcat.attach_delay_ms == 60000);
  CHECK(error_of(R"({"forger": {}})") == "forger.package: expected a package name");
  CHECK(error_of(R"({"forger": {"package": "com.clawperator.operator"}})") ==
        "forger.package: must not be an Operator");
  CHECK(error_of(R"({"forger": {"package": "com.x", "pid": 4000}, "operator": {"pid": 4000}})") ==
        "forger.pid: must differ from the Operator's pid");
  CHECK(error_of(
            R"({"forger": {"package": "com.x"}, "packages": [{"name": "com.x", "uid": 10100}]})") ==
        "forger.package: shares the Operator's uid 10100");
  CHECK(error_of(R"({"forger": {"package": "com.x", "chunky": true}})") ==
        "forger.chunky: unknown key");
  CHECK(error_of(R"({"base": "other"})") == "base: expected \"default\" or \"minimal\"");
  CHECK(error_of(R"({"operator": {"snapshotTransport": "carrier pigeon"}})") ==
        "operator.snapshotTransport: expected \"envelope\" or \"logcat\"");
  CHECK(error_of(std::string(R"({"name": "caf)") + "\xFF\"}") ==
        "scenario is not valid UTF-8 (byte 0xFF at offset 13)");
  CHECK(error_of("{\"name\": \"\xED\xA0\x80\"}") ==
        "scenario is not valid UTF-8 (byte 0xED at offset 10)");
  const auto missing = load_scenario_file("/nonexistent/scenario.json");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().text().rfind("cannot read /nonexistent/scenario.json: ", 0) == 0);
}

TEST_CASE("a scenario's problem keeps the path of its field apart from the message",
          "[vdevice][android]") {
  const auto base = load_scenario(R"({"base": "other"})");
  REQUIRE_FALSE(base);
  CHECK(base.error() == clawperator::Problem{"base", "expected \"default\" or \"minimal\""});
  const auto background = load_scenario(R"({"backgroundServices": {"queryFails": 1}})");
  REQUIRE_FALSE(background);
  CHECK(background.error() ==
        clawperator::Problem{"backgroundServices.queryFails", "expected true or false"});
  // Not JSON at all: no field is at fault.
  const auto syntax = load_scenario("{");
  REQUIRE_FALSE(syntax);
  CHECK(syntax.error().path.empty());
}

TEST_CASE("a scenario file that is not UTF-8 is refused with the byte's offset",
          "[vdevice][android]") {
  const std::string path = std::filesystem::temp_directory_path() /
                           ("clawperator-scenario-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path, std::ios::binary)
      << "{\"name\": \"ok\",\n \"properties\": {\"x\": \"\xC0\xAF\"}}";
  const auto loaded = load_scenario_file(path);
  std::filesystem::remove(path);
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().path == path);
  CHECK(loaded.error().message == "scenario is not valid UTF-8 (byte 0xC0 at offset 37)");
  CHECK(loaded.error().text() == path + ": scenario is not valid UTF-8 (byte 0xC0 at offset 37)");
}

TEST_CASE("every example scenario loads", "[vdevice][android]") {
  const std::filesystem::path folder =
      std::filesystem::path(CLAWPERATOR_SOURCE_DIR) / "examples" / "scenarios";
  REQUIRE(std::filesystem::is_directory(folder));
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    const auto scenario = load_scenario_file(entry.path().string());
    if (!scenario) FAIL(scenario.error().text());
    ++count;
  }
  CHECK(count >= 10);
}
