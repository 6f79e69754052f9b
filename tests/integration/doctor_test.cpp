// doctor, version --check-compat, packages and grant-device-permissions through
// the real adb against virtual devices.
#include "farm_fixture.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

const json* find_check(const json& report, const std::string& id) {
  for (const json& check : report["checks"]) {
    if (check["id"] == id) return &check;
  }
  return nullptr;
}

json doctor(const Farm& farm, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"doctor", "--device", farm.serials().front()};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult result = farm.clawperator(args);
  json report = single_document(result);
  report["exitCode"] = result.exit_code;
  return report;
}

void expect_failed_check(const json& report, const std::string& id, const std::string& code) {
  INFO(report.dump(2));
  CHECK(report["ok"] == false);
  CHECK(report["code"] == "DOCTOR_FAILED");
  CHECK(report["exitCode"] == 1);
  const json* check = find_check(report, id);
  REQUIRE(check != nullptr);
  CHECK((*check)["status"] == "fail");
  CHECK((*check)["code"] == code);
}

}  // namespace

TEST_CASE("doctor passes every critical check on a healthy virtual device",
          "[integration][doctor]") {
  Farm farm({"default"});
  const json report = doctor(farm, {"--full"});
  INFO(report.dump(2));
  CHECK(report["ok"] == true);
  CHECK(report["exitCode"] == 0);
  CHECK(report["skippedChecks"].empty());
  for (const json& check : report["checks"]) {
    if (check["critical"] == true) CHECK(check["status"] == "pass");
  }
  for (const char* id :
       {"host.adb.presence", "host.adb.server", "device.discovery", "device.capability",
        "readiness.apk.presence", "readiness.version.compatibility", "readiness.handshake",
        "readiness.device.interactive", "readiness.smoke"}) {
    INFO(id);
    CHECK(find_check(report, id) != nullptr);
  }
  CHECK(find_check(report, "device.capability")->at("evidence")["sdk"] == 34);

  // Without --device, the one connected device is found.
  const RunResult implicit = farm.clawperator({"doctor"});
  CHECK(implicit.exit_code == 0);
  CHECK(single_document(implicit)["deviceId"] == farm.serials().front());
}

TEST_CASE("doctor names the failing check on broken virtual devices", "[integration][doctor]") {
  SECTION("the Operator is missing") {
    Farm farm({"operator-missing"});
    expect_failed_check(doctor(farm), "readiness.apk.presence", "OPERATOR_NOT_INSTALLED");
  }
  SECTION("the other variant is installed") {
    Farm farm({"operator-dev-variant"});
    const json report = doctor(farm);
    expect_failed_check(report, "readiness.apk.presence", "OPERATOR_VARIANT_MISMATCH");
    CHECK(find_check(report, "readiness.handshake") == nullptr);
  }
  SECTION("the accessibility service is off") {
    Farm farm({"accessibility-off"});
    expect_failed_check(doctor(farm), "readiness.handshake", "DEVICE_ACCESSIBILITY_NOT_RUNNING");
  }
  SECTION("the device has not authorized this computer") {
    Farm farm({"unauthorized"});
    expect_failed_check(doctor(farm), "device.discovery", "DEVICE_UNAUTHORIZED");
  }
  SECTION("the Operator is too old") {
    Farm farm({"operator-outdated"});
    expect_failed_check(doctor(farm), "readiness.version.compatibility", "VERSION_INCOMPATIBLE");
  }
  SECTION("the screen is off") {
    Farm farm({"screen-off"});
    expect_failed_check(doctor(farm), "readiness.device.interactive", "DEVICE_NOT_INTERACTIVE");
  }
}

TEST_CASE("doctor --fix repairs what it can and checks again", "[integration][doctor]") {
  Farm farm({"accessibility-off"});
  const json report = doctor(farm, {"--fix"});
  INFO(report.dump(2));
  CHECK(report["ok"] == true);
  CHECK(report["exitCode"] == 0);
  bool granted = false;
  for (const json& fix : report["fixesApplied"]) {
    granted = granted || (fix["checkId"] == "readiness.handshake" && fix["ok"] == true);
  }
  CHECK(granted);
  // The repair lasts: a plain doctor now passes too.
  CHECK(doctor(farm)["ok"] == true);
}

TEST_CASE("doctor --check-only reports and changes nothing", "[integration][doctor]") {
  Farm farm({"accessibility-off"});
  const json report = doctor(farm, {"--check-only"});
  expect_failed_check(report, "readiness.handshake", "DEVICE_ACCESSIBILITY_NOT_RUNNING");
  CHECK_FALSE(report.contains("fixesApplied"));
  // Nothing was enabled behind the user's back.
  expect_failed_check(doctor(farm), "readiness.handshake", "DEVICE_ACCESSIBILITY_NOT_RUNNING");
}

TEST_CASE("version --check-compat, packages and grants against the real adb",
          "[integration][setup]") {
  SECTION("a supported Operator") {
    Farm farm({"default"});
    const RunResult result = farm.clawperator({"version", "--check-compat"});
    const json document = single_document(result);
    CHECK(result.exit_code == 0);
    CHECK(document["compatible"] == true);
    CHECK(document["apkVersion"] == "0.5.3");
    CHECK(document["apkVersionCode"] == 503);

    const RunResult packages = farm.clawperator({"packages", "list", "--third-party"});
    const json listed = single_document(packages);
    CHECK(packages.exit_code == 0);
    CHECK(listed["packages"] == json::array({"com.clawperator.operator"}));
    const json all = single_document(farm.clawperator({"packages", "list"}));
    CHECK(all["count"].get<int>() > 1);

    const RunResult grants = farm.clawperator({"grant-device-permissions"});
    const json granted = single_document(grants);
    INFO(granted.dump(2));
    CHECK(grants.exit_code == 0);
    CHECK(granted["accessibility"]["alreadyEnabled"] == true);
    CHECK(granted["notificationListener"]["ok"] == true);
  }
  SECTION("an outdated Operator fails the check with exit 1") {
    Farm farm({"operator-outdated"});
    const RunResult result = farm.clawperator({"version", "--check-compat"});
    const json document = single_document(result);
    CHECK(result.exit_code == 1);
    CHECK(document["ok"] == false);
    CHECK(document["compatible"] == false);
    CHECK(document["code"] == "VERSION_INCOMPATIBLE");
    CHECK(document["apkVersion"] == "0.4.2");
  }
  SECTION("a missing Operator") {
    Farm farm({"operator-missing"});
    const RunResult result = farm.clawperator({"version", "--check-compat"});
    const json document = single_document(result);
    CHECK(result.exit_code == 1);
    CHECK(document["code"] == "OPERATOR_NOT_INSTALLED");
    clawperator::testing::expect_error(farm.clawperator({"grant-device-permissions"}),
                                       "OPERATOR_NOT_INSTALLED", 3);
  }
  SECTION("an unauthorized device") {
    Farm farm({"unauthorized"});
    clawperator::testing::expect_error(farm.clawperator({"version", "--check-compat"}),
                                       "DEVICE_UNAUTHORIZED", 3);
    clawperator::testing::expect_error(farm.clawperator({"packages", "list"}),
                                       "DEVICE_UNAUTHORIZED", 3);
  }
}

TEST_CASE("a fresh phone: operator setup, then doctor passes", "[integration][setup]") {
  Farm farm({"fresh-phone"});
  const json before = doctor(farm);
  expect_failed_check(before, "readiness.apk.presence", "OPERATOR_NOT_INSTALLED");

  const TemporaryDirectory scratch("apk");
  const std::string dir = scratch.path().string();
  const std::string apk = dir + "/operator-v0.5.3.apk";
  std::ofstream(apk, std::ios::binary) << clawperator::vdevice::android::make_virtual_apk(
      {"com.clawperator.operator", "0.5.3", 503}, 256 * 1024);

  const RunResult setup = farm.clawperator({"operator", "setup", "--apk", apk});
  const json document = single_document(setup);
  INFO(document.dump(2));
  CHECK(setup.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["operatorPackage"] == "com.clawperator.operator");
  CHECK(document["install"]["ok"] == true);
  CHECK(document["permissions"]["accessibility"]["alreadyEnabled"] == false);
  CHECK(document["verification"]["packageInstalled"] == true);

  const json after = doctor(farm);
  INFO(after.dump(2));
  CHECK(after["ok"] == true);
  CHECK(after["exitCode"] == 0);

  // Again: nothing left to change.
  const json again = single_document(farm.clawperator({"operator", "setup", "--apk", apk}));
  CHECK(again["permissions"]["accessibility"]["alreadyEnabled"] == true);
  CHECK(again["permissions"]["notificationListener"]["alreadyEnabled"] == true);

  // A file that is not an APK is refused by the package manager.
  const std::string bogus = dir + "/bogus.apk";
  std::ofstream(bogus) << "not a zip";
  const json refused = clawperator::testing::expect_error(
      farm.clawperator({"operator", "setup", "--apk", bogus}), "OPERATOR_INSTALL_FAILED", 3);
  CHECK(refused["details"]["installFailureReason"] == "INSTALL_PARSE_FAILED_NOT_APK");
}

TEST_CASE("operator setup when every install fails", "[integration][setup]") {
  Farm farm({"install-fails"});
  const TemporaryDirectory scratch("apk");
  const std::string apk = scratch / "operator.apk";
  std::ofstream(apk, std::ios::binary) << clawperator::vdevice::android::make_virtual_apk(
      {"com.clawperator.operator", "0.5.4", 504});
  const json refused = clawperator::testing::expect_error(
      farm.clawperator({"operator", "setup", "--apk", apk}), "OPERATOR_INSTALL_FAILED", 3);
  CHECK(refused["install"]["ok"] == false);
  CHECK(refused["install"]["error"] == refused["message"]);  // the original's shape
  CHECK(refused["details"]["installFailureReason"].get<std::string>().rfind("INSTALL_FAILED_", 0) ==
        0);
}
