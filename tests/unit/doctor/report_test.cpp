// The doctor report as data: readiness, exit codes, next actions, JSON shape.
#include "clawperator/doctor/report.hpp"

#include <catch2/catch.hpp>

using namespace clawperator;
using doctor::Check;
using doctor::Status;

namespace {

Check check(const std::string& id, Status status, const std::string& code = {}) {
  Check out;
  out.id = id;
  out.status = status;
  out.code = code;
  out.summary = id + " summary";
  return out;
}

doctor::FixStep shell(const std::string& value) {
  return doctor::FixStep{doctor::FixStep::Kind::Shell, value, nullptr};
}

}  // namespace

TEST_CASE("which checks are critical", "[doctor][report]") {
  CHECK(doctor::is_critical("host.adb.presence"));
  CHECK(doctor::is_critical("readiness.handshake"));
  CHECK(doctor::is_critical("readiness.smoke"));
  CHECK_FALSE(doctor::is_critical("host.logs.writable"));
  CHECK_FALSE(doctor::is_critical("readiness.settings.dev_options"));
  CHECK_FALSE(doctor::is_critical("host.adb.version"));
}

TEST_CASE("readiness and exit codes of a report", "[doctor][report]") {
  doctor::Report report;
  report.operator_package = "com.clawperator.operator";
  report.checks = {check("host.adb.presence", Status::Pass),
                   check("host.logs.writable", Status::Warn, "LOG_DIRECTORY_UNWRITABLE")};
  SECTION("advisory warnings keep it ready") {
    CHECK(doctor::report_ok(report));
    CHECK(doctor::exit_code(report) == 0);
    CHECK_FALSE(doctor::to_json(report).contains("code"));
  }
  SECTION("a failed critical check fails it with exit 1") {
    report.checks.push_back(check("device.discovery", Status::Fail, "NO_DEVICES"));
    CHECK_FALSE(doctor::critical_ok(report));
    CHECK(doctor::exit_code(report) == 1);
    const Json json = doctor::to_json(report);
    CHECK(json["code"] == "DOCTOR_FAILED");
    CHECK(json["message"] == "Critical checks failed: device.discovery");
    CHECK(json["checks"][2]["critical"] == true);
    CHECK(json["checks"][1]["critical"] == false);
  }
  SECTION("skipped required checks fail it even without a failed check") {
    report.skipped.push_back(
        {"device.capability", "no single usable device", {"device.discovery"}});
    CHECK(doctor::critical_ok(report));
    CHECK_FALSE(doctor::report_ok(report));
    CHECK(doctor::exit_code(report) == 1);
    CHECK(doctor::to_json(report)["message"] ==
          "Some required checks could not run: device.capability");
  }
  SECTION("a missing adb is exit 3 with its own code") {
    report.checks[0] = check("host.adb.presence", Status::Fail, "ADB_NOT_FOUND");
    report.adb_missing = true;
    CHECK(doctor::exit_code(report) == 3);
    CHECK(doctor::to_json(report)["code"] == "ADB_NOT_FOUND");
  }
  SECTION("an interrupt wins") {
    report.signal_exit = 130;
    CHECK(doctor::exit_code(report) == 130);
  }
}

TEST_CASE("next actions list each step once and leave out applied fixes", "[doctor][report]") {
  doctor::Report report;
  report.device_id = "emulator-5554";
  Check first = check("device.discovery", Status::Fail, "DEVICE_OFFLINE");
  first.fix = doctor::Fix{"Restart", {shell("adb kill-server"), shell("adb start-server")}, ""};
  Check second = check("host.adb.server", Status::Fail, "ADB_SERVER_FAILED");
  second.fix = first.fix;
  second.device_guidance = doctor::DeviceGuidance{"Device Dialog", {"Accept"}};
  report.checks = {first, second};
  CHECK(doctor::next_actions(report) ==
        std::vector<std::string>{"Run: adb kill-server", "Run: adb start-server",
                                 "On the device, open Device Dialog and follow the listed steps."});
  report.fix_requested = true;
  report.fixes_applied.push_back({"device.discovery", "adb kill-server", {true, ""}});
  report.fixes_applied.push_back({"host.adb.server", "adb kill-server", {true, ""}});
  CHECK(doctor::next_actions(report).front() == "Run: adb start-server");
  const Json json = doctor::to_json(report);
  REQUIRE(json["fixesApplied"].size() == 2);
  CHECK(json["fixesApplied"][0]["step"] == "adb kill-server");
  CHECK(json["checks"][1]["fix"]["steps"][0] ==
        Json{{"kind", "shell"}, {"value", "adb kill-server"}});
}
