// doctor against scripted adb processes: each check's outcomes, what a failure
// skips, the exit codes, --fix and the two renderings.
#include "clawperator/doctor/doctor.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>

#include "clawperator/process/interrupt.hpp"
#include "scripted_device.hpp"

using namespace clawperator;
using namespace clawperator::test;

namespace {

struct DoctorRun {
  doctor::Report report;
  Json document;
  int exit_code = 0;
  std::vector<ScriptedRunner::Call> calls;
};

struct Harness {
  ScriptedDevice device;
  ScriptedRunner runner;
  TemporaryDirectory logs{"doctor-logs"};
  TemporaryDirectory state{"doctor-state"};
  doctor::DoctorOptions options;

  Harness() {
    options.device = kSerial;
    options.operator_package = kOperator;
    options.adb.executable = "adb";
    options.log_dir = logs.path();
    options.state = test::private_state(state.path());
    options.probe_command_id = "probe-1";
    options.handshake_timeout = 1500ms;
  }

  DoctorRun run() {
    device.install(runner);
    DoctorRun result;
    result.report = doctor::run_doctor(options, runner);
    result.document = doctor::to_json(result.report);
    result.exit_code = doctor::exit_code(result.report);
    result.calls = runner.calls();
    return result;
  }
};

const Json* find_check(const Json& document, const std::string& id) {
  for (const Json& check : document["checks"]) {
    if (check["id"] == id) return &check;
  }
  return nullptr;
}

void expect_check(const DoctorRun& run, const std::string& id, const std::string& status,
                  const std::string& code = {}) {
  INFO(run.document.dump(2));
  const Json* check = find_check(run.document, id);
  REQUIRE(check != nullptr);
  CHECK((*check)["status"] == status);
  if (code.empty()) {
    CHECK_FALSE(check->contains("code"));
  } else {
    CHECK((*check)["code"] == code);
  }
}

std::vector<std::string> skipped_ids(const DoctorRun& run) {
  std::vector<std::string> ids;
  for (const Json& skipped : run.document["skippedChecks"]) ids.push_back(skipped["id"]);
  return ids;
}

void expect_failed_report(const DoctorRun& run, int exit_code, const std::string& code) {
  INFO(run.document.dump(2));
  CHECK(run.document["ok"] == false);
  CHECK(run.document["code"] == code);
  CHECK(run.exit_code == exit_code);
}

std::size_t count_calls(const DoctorRun& run, const Argv& argv) {
  return static_cast<std::size_t>(std::count_if(
      run.calls.begin(), run.calls.end(), [&](const auto& call) { return call.argv == argv; }));
}

}  // namespace

TEST_CASE("doctor passes every check on a healthy device", "[doctor]") {
  Harness harness;
  const DoctorRun run = harness.run();
  INFO(run.document.dump(2));
  CHECK(run.document["ok"] == true);
  CHECK(run.document["criticalOk"] == true);
  CHECK_FALSE(run.document.contains("code"));
  CHECK(run.exit_code == 0);
  CHECK(run.document["deviceId"] == kSerial);
  CHECK(run.document["operatorPackage"] == kOperator);
  CHECK(run.document["skippedChecks"].empty());
  const std::vector<std::string> expected = {"host.logs.writable",
                                             "host.video.dependencies",
                                             "host.adb.presence",
                                             "host.adb.version",
                                             "host.adb.server",
                                             "device.discovery",
                                             "device.capability",
                                             "readiness.apk.presence",
                                             "readiness.result.authenticity",
                                             "readiness.version.compatibility",
                                             "readiness.settings.dev_options",
                                             "readiness.settings.usb_debugging",
                                             "readiness.handshake",
                                             "readiness.device.interactive"};
  REQUIRE(run.document["checks"].size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(run.document["checks"][i]["id"] == expected[i]);
    CHECK(run.document["checks"][i]["status"] == "pass");
  }
  const Json& capability = *find_check(run.document, "device.capability");
  CHECK(capability["evidence"]["sdk"] == 34);
  CHECK(capability["evidence"]["wmSize"] == "1080x2400");
  CHECK(capability["evidence"]["wmDensity"] == 420);
  const Json& version = *find_check(run.document, "readiness.version.compatibility");
  CHECK(version["evidence"]["apkVersion"] == "0.5.3");
  CHECK(version["evidence"]["apkVersionCode"] == 503);
  CHECK(version["evidence"]["supportedRange"] == ">=0.5.0");
  CHECK(find_check(run.document, "host.adb.presence")->at("evidence")["version"] == "1.0.41");
  CHECK(run.document["nextActions"] ==
        Json::array({"Try: clawperator snapshot --device " + kSerial}));
  CHECK(harness.runner.unexpected_calls().empty());
  // doctor only observes: one probe broadcast, nothing that changes the device.
  for (const auto& call : run.calls) {
    const std::string joined = call.argv.size() > 4 ? call.argv[4] : "";
    CHECK(joined.find("settings put") == std::string::npos);
    CHECK(joined.find("input keyevent") == std::string::npos);
  }
}

TEST_CASE("doctor: adb itself", "[doctor]") {
  SECTION("adb cannot be started: ADB_NOT_FOUND, exit 3, nothing else runs") {
    Harness harness;
    harness.device.runs.erase("version");
    const DoctorRun run = harness.run();
    expect_failed_report(run, 3, "ADB_NOT_FOUND");
    expect_check(run, "host.adb.presence", "fail", "ADB_NOT_FOUND");
    CHECK(run.document["checks"].size() == 3);  // the log directory, video tools, then adb
    const auto skipped = skipped_ids(run);
    CHECK(skipped.front() == "host.adb.version");
    CHECK(skipped.back() == "readiness.device.interactive");
    CHECK(run.document["skippedChecks"][0]["blockedBy"] == Json::array({"host.adb.presence"}));
    const Json& check = *find_check(run.document, "host.adb.presence");
    CHECK(check["fix"]["steps"][0]["kind"] == "manual");
  }
  SECTION("a program that is not adb: ADB_NOT_FOUND") {
    Harness harness;
    harness.device.answer("version", ScriptedRunner::exited(0, "hello\n"));
    const DoctorRun run = harness.run();
    expect_failed_report(run, 3, "ADB_NOT_FOUND");
    CHECK(find_check(run.document, "host.adb.presence")
              ->at("detail")
              .get<std::string>()
              .find("printed no adb version") != std::string::npos);
  }
  SECTION("an old adb is only a warning") {
    Harness harness;
    harness.device.answer("version",
                          ScriptedRunner::exited(0, "Android Debug Bridge version 1.0.32\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "host.adb.version", "warn", "HOST_DEPENDENCY_MISSING");
    CHECK(run.document["ok"] == true);
    CHECK(run.exit_code == 0);
  }
  SECTION("the server does not start: ADB_SERVER_FAILED with the restart steps") {
    Harness harness;
    harness.device.answer("start-server",
                          ScriptedRunner::exited(255, "", "* failed to start daemon\n"));
    const DoctorRun run = harness.run();
    expect_failed_report(run, 1, "DOCTOR_FAILED");
    expect_check(run, "host.adb.server", "fail", "ADB_SERVER_FAILED");
    const Json& check = *find_check(run.document, "host.adb.server");
    CHECK(check["detail"] == "* failed to start daemon");
    CHECK(check["fix"]["steps"][0]["value"] == "adb kill-server");
    CHECK(check["fix"]["steps"][1]["value"] == "adb start-server");
    CHECK(skipped_ids(run).front() == "device.discovery");
  }
}

TEST_CASE("doctor: device discovery", "[doctor]") {
  Harness harness;
  SECTION("no devices") {
    harness.options.device.reset();
    harness.device.answer("devices", ScriptedRunner::exited(0, "List of devices attached\n\n"));
    const DoctorRun run = harness.run();
    expect_failed_report(run, 1, "DOCTOR_FAILED");
    expect_check(run, "device.discovery", "fail", "NO_DEVICES");
    CHECK(skipped_ids(run).front() == "device.capability");
    CHECK(run.document["deviceId"].is_null());
  }
  SECTION("unauthorized, with on-device guidance") {
    harness.device.answer("devices",
                          ScriptedRunner::exited(0, "List of devices attached\n" + kSerial +
                                                        "          unauthorized transport_id:3\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "device.discovery", "fail", "DEVICE_UNAUTHORIZED");
    const Json& check = *find_check(run.document, "device.discovery");
    CHECK(check["deviceGuidance"]["screen"] == "Device Dialog");
    CHECK(check["evidence"]["targetState"] == "unauthorized");
    CHECK(run.exit_code == 1);
  }
  SECTION("offline, with the adb restart as its fix") {
    harness.device.answer("devices",
                          ScriptedRunner::exited(0, "List of devices attached\n" + kSerial +
                                                        "          offline transport_id:3\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "device.discovery", "fail", "DEVICE_OFFLINE");
    CHECK(find_check(run.document, "device.discovery")->at("fix")["steps"].size() == 2);
  }
  SECTION("the requested serial is not connected") {
    harness.options.device = "R58M123";
    const DoctorRun run = harness.run();
    expect_check(run, "device.discovery", "fail", "DEVICE_NOT_FOUND");
  }
  SECTION("several devices and no --device: a warning that still fails the run") {
    harness.options.device.reset();
    harness.device.answer("devices", ScriptedRunner::exited(0,
                                                            "List of devices attached\n"
                                                            "emulator-5554 device\n"
                                                            "emulator-5556 device\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "device.discovery", "warn", "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED");
    CHECK(run.document["criticalOk"] == true);
    expect_failed_report(run, 1, "DOCTOR_FAILED");
    CHECK(run.document["skippedChecks"][0]["blockedBy"] == Json::array({"device.discovery"}));
  }
  SECTION("adb cannot reach its server") {
    harness.device.answer("devices",
                          ScriptedRunner::exited(1, "", "error: cannot connect to daemon\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "device.discovery", "fail", "ADB_SERVER_FAILED");
  }
}

TEST_CASE("doctor: device shell, Operator presence and version", "[doctor]") {
  Harness harness;
  SECTION("a shell that prints no API level") {
    harness.device.answer("capability", ScriptedRunner::exited(0, marked("", 127)));
    const DoctorRun run = harness.run();
    expect_check(run, "device.capability", "fail", "DEVICE_SHELL_UNAVAILABLE");
    CHECK(skipped_ids(run).front() == "readiness.apk.presence");
  }
  SECTION("the Operator is not installed") {
    harness.device.answer("pm-list", ScriptedRunner::exited(0, marked("")));
    const DoctorRun run = harness.run();
    expect_failed_report(run, 1, "DOCTOR_FAILED");
    expect_check(run, "readiness.apk.presence", "fail", "OPERATOR_NOT_INSTALLED");
    const Json& check = *find_check(run.document, "readiness.apk.presence");
    // The published release, fetched and checked: no APK to find first.
    CHECK(check["fix"]["steps"].size() == 1);
    CHECK(check["fix"]["steps"][0]["value"] == "clawperator operator install --device " + kSerial);
    const auto skipped = skipped_ids(run);
    CHECK(std::find(skipped.begin(), skipped.end(), "readiness.handshake") != skipped.end());
  }
  SECTION("the other variant is installed: a failure that skips the handshake") {
    harness.device.answer(
        "pm-list", ScriptedRunner::exited(0, marked("package:com.clawperator.operator.dev\n")));
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.apk.presence", "fail", "OPERATOR_VARIANT_MISMATCH");
    CHECK(find_check(run.document, "readiness.apk.presence")->at("evidence")["installedPackage"] ==
          "com.clawperator.operator.dev");
    const auto skipped = skipped_ids(run);
    CHECK(std::find(skipped.begin(), skipped.end(), "readiness.handshake") != skipped.end());
    CHECK(run.exit_code == 1);
  }
  auto with_version = [&](const std::string& line) {
    harness.device.answer(
        "dumpsys",
        ScriptedRunner::exited(0, marked("Packages:\n  Package [com.clawperator.operator] "
                                         "(1):\n    versionCode=402 minSdk=26\n" +
                                         line)));
  };
  SECTION("an Operator below the supported range: VERSION_INCOMPATIBLE") {
    with_version("    versionName=0.4.2\n");
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.version.compatibility", "fail", "VERSION_INCOMPATIBLE");
    CHECK(skipped_ids(run).front() == "readiness.settings.dev_options");
  }
  SECTION("no versionName: APK_VERSION_UNREADABLE") {
    with_version("");
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.version.compatibility", "fail", "APK_VERSION_UNREADABLE");
  }
  SECTION("a prerelease version: APK_VERSION_INVALID") {
    with_version("    versionName=0.6.0-beta.1\n");
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.version.compatibility", "fail", "APK_VERSION_INVALID");
  }
  SECTION("a debug build of a supported release passes") {
    with_version("    versionName=0.5.3-d\n");
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.version.compatibility", "pass");
  }
  SECTION("developer options off is advisory") {
    harness.device.answer("settings", ScriptedRunner::exited(0, marked("0\nnull\n")));
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.settings.dev_options", "warn", "DEVICE_DEV_OPTIONS_DISABLED");
    expect_check(run, "readiness.settings.usb_debugging", "warn", "DEVICE_USB_DEBUGGING_DISABLED");
    CHECK(run.document["ok"] == true);
    CHECK(run.exit_code == 0);
    const Json& check = *find_check(run.document, "readiness.settings.dev_options");
    CHECK(check["fix"]["steps"][0]["value"] ==
          "adb -s " + kSerial + " shell settings put global development_settings_enabled 1");
  }
}

TEST_CASE("doctor: the handshake and interactive readiness", "[doctor]") {
  Harness harness;
  SECTION("the accessibility service is off") {
    harness.device.logcat_sessions = {
        {ScriptedRunner::out_chunk("x\n"),
         ScriptedRunner::out_chunk(service_unavailable("probe-1"), 30ms)}};
    const DoctorRun run = harness.run();
    expect_failed_report(run, 1, "DOCTOR_FAILED");
    expect_check(run, "readiness.handshake", "fail", "DEVICE_ACCESSIBILITY_NOT_RUNNING");
    const Json& check = *find_check(run.document, "readiness.handshake");
    CHECK(check["fix"]["steps"][0]["value"] ==
          "clawperator grant-device-permissions --device " + kSerial);
    CHECK(check["deviceGuidance"]["screen"] == "Accessibility Settings");
    CHECK(skipped_ids(run) == std::vector<std::string>{"readiness.device.interactive"});
  }
  SECTION("no answer: RESULT_ENVELOPE_TIMEOUT") {
    harness.options.handshake_timeout = 300ms;
    harness.device.logcat_sessions = {{ScriptedRunner::out_chunk("x\n")}};
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.handshake", "fail", "RESULT_ENVELOPE_TIMEOUT");
    CHECK(find_check(run.document, "readiness.handshake")
              ->at("detail")
              .get<std::string>()
              .find("broadcast") != std::string::npos);
  }
  SECTION("a screen that is off") {
    harness.device.logcat_sessions = {
        {ScriptedRunner::out_chunk("x\n"),
         ScriptedRunner::out_chunk(probe_answer("probe-1", "false"), 30ms)}};
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.device.interactive", "fail", "DEVICE_NOT_INTERACTIVE");
    const Json& check = *find_check(run.document, "readiness.device.interactive");
    CHECK(check["evidence"]["screenOn"] == false);
    CHECK(check["fix"]["steps"][0]["value"] ==
          "adb -s " + kSerial + " shell input keyevent KEYCODE_WAKEUP");
    CHECK(run.exit_code == 1);
  }
}

// A device whose accessibility service and developer options are off, and the calls --fix
// makes to turn both on; developer options' `settings put` answers `dev_options_answer`.
struct FixCalls {
  Argv dev_options;
  Argv enable;
};
FixCalls script_fixes(Harness& harness, process::Completion dev_options_answer) {
  harness.options.fix = true;
  // First round: the accessibility service is off and developer options too.
  harness.device.logcat_sessions = {
      {ScriptedRunner::out_chunk("x\n"),
       ScriptedRunner::out_chunk(service_unavailable("probe-1"), 30ms)},
      {ScriptedRunner::out_chunk("x\n"), ScriptedRunner::out_chunk(probe_answer("probe-1"), 30ms)}};
  harness.runner.on_run(harness.device.runs["settings"].first,
                        ScriptedRunner::exited(0, marked("0\n1\n")));
  // The fixes: developer options, then the permission grants.
  FixCalls calls;
  calls.dev_options = marked_shell("settings put global development_settings_enabled 1");
  harness.runner.on_run(calls.dev_options, std::move(dev_options_answer));
  const std::string component =
      "com.clawperator.operator/clawperator.operator.accessibilityservice."
      "OperatorAccessibilityService";
  harness.runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                        ScriptedRunner::exited(0, marked("null\n")));
  harness.runner.on_run(marked_shell("settings get secure accessibility_enabled"),
                        ScriptedRunner::exited(0, marked("0\n")));
  calls.enable = marked_shell("settings put secure enabled_accessibility_services '" + component +
                              "' && settings put secure accessibility_enabled 1");
  harness.runner.on_run(calls.enable, ScriptedRunner::exited(0, marked("")));
  harness.runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                        ScriptedRunner::exited(0, marked(component + "\n")));
  harness.runner.on_run(
      marked_shell("pm grant 'com.clawperator.operator' android.permission.POST_NOTIFICATIONS"),
      ScriptedRunner::exited(0, marked("")));
  harness.runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                        ScriptedRunner::exited(0, marked("null\n")));
  harness.runner.on_run(marked_shell("getprop ro.build.version.sdk"),
                        ScriptedRunner::exited(0, marked("34\n")));
  harness.runner.on_run(
      marked_shell("cmd notification allow_listener "
                   "'com.clawperator.operator/action.notification.NotificationListenerService'"),
      ScriptedRunner::exited(0, marked("")));
  return calls;
}

TEST_CASE("doctor --fix applies the fix steps, then reports fresh results", "[doctor][fix]") {
  Harness harness;
  const FixCalls calls = script_fixes(harness, ScriptedRunner::exited(0, marked("")));
  const DoctorRun run = harness.run();
  INFO(run.document.dump(2));
  CHECK(run.document["ok"] == true);
  CHECK(run.exit_code == 0);
  REQUIRE(run.document["fixesApplied"].size() == 2);
  CHECK(run.document["fixesApplied"][0]["checkId"] == "readiness.settings.dev_options");
  CHECK(run.document["fixesApplied"][0]["ok"] == true);
  CHECK(run.document["fixesApplied"][1]["checkId"] == "readiness.handshake");
  CHECK(run.document["fixesApplied"][1]["ok"] == true);
  // Every check ran again after the fixes.
  CHECK(count_calls(run, adb_argv({"version"})) == 2);
  CHECK(count_calls(run, calls.enable) == 1);
  CHECK(count_calls(run, calls.dev_options) == 1);
  expect_check(run, "readiness.handshake", "pass");
  expect_check(run, "readiness.settings.dev_options", "pass");
  CHECK(harness.runner.unmet_expectations().empty());
}

TEST_CASE("a fix step whose shell closed before the device said how it ended did not succeed",
          "[doctor][fix]") {
  Harness harness;
  // adb exits 0 with nothing: the stream dropped before the exit marker (wire-protocol §2.5).
  script_fixes(harness, ScriptedRunner::exited(0, ""));
  const DoctorRun run = harness.run();
  INFO(run.document.dump(2));
  REQUIRE(run.document["fixesApplied"].size() == 2);
  CHECK(run.document["fixesApplied"][0]["checkId"] == "readiness.settings.dev_options");
  CHECK(run.document["fixesApplied"][0]["ok"] == false);
  CHECK_FALSE(run.document["fixesApplied"][0]["detail"].get<std::string>().empty());
  CHECK(run.document["fixesApplied"][1]["ok"] == true);
}

TEST_CASE("doctor --fix with nothing to fix runs the checks once", "[doctor][fix]") {
  Harness harness;
  harness.options.fix = true;
  const DoctorRun run = harness.run();
  CHECK(run.document["fixesApplied"].empty());
  CHECK(count_calls(run, adb_argv({"version"})) == 1);
  CHECK(run.exit_code == 0);
}

TEST_CASE("doctor: an unwritable log directory is advisory", "[doctor]") {
  Harness harness;
  harness.options.log_dir = harness.logs.path() / "file-not-dir";
  { std::ofstream(harness.options.log_dir) << "x"; }
  const DoctorRun run = harness.run();
  expect_check(run, "host.logs.writable", "warn", "LOG_DIRECTORY_UNWRITABLE");
  CHECK(find_check(run.document, "host.logs.writable")->at("evidence")["writable"] == false);
  CHECK(run.exit_code == 0);
}

TEST_CASE("doctor: no home for the log is advisory and writes nothing here", "[doctor]") {
  Harness harness;
  harness.options.log_dir.clear();  // HOME unset, no passwd home
  const TemporaryDirectory here("doctor-cwd");
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(here.path());
  const DoctorRun run = harness.run();
  std::filesystem::current_path(before);
  expect_check(run, "host.logs.writable", "warn", "LOG_DIRECTORY_UNWRITABLE");
  const Json& check = *find_check(run.document, "host.logs.writable");
  CHECK(check["evidence"]["writable"] == false);
  CHECK(check["evidence"]["logDir"] == "");
  CHECK(check["detail"].get<std::string>().find("HOME is unset") != std::string::npos);
  CHECK(std::filesystem::is_empty(here.path()));
  CHECK(run.exit_code == 0);
}

TEST_CASE("doctor creates a missing log directory 0700", "[doctor]") {
  Harness harness;
  harness.options.log_dir = harness.logs.path() / "new" / "logs";
  const mode_t umask_before = ::umask(022);
  const DoctorRun run = harness.run();
  ::umask(umask_before);
  expect_check(run, "host.logs.writable", "pass");
  CHECK((std::filesystem::status(harness.options.log_dir).permissions() &
         std::filesystem::perms::all) == std::filesystem::perms::owner_all);
}

TEST_CASE("doctor stops at an interrupt and says so", "[doctor][signals]") {
  process::install_interrupt_handlers();
  process::reset_interrupt_for_tests();
  Harness harness;
  std::raise(SIGTERM);
  const DoctorRun run = harness.run();
  process::reset_interrupt_for_tests();
  CHECK(run.exit_code == 143);
  CHECK(run.document["checks"].empty());
  REQUIRE_FALSE(run.document["skippedChecks"].empty());
  CHECK(run.document["skippedChecks"][0]["id"] == "host.logs.writable");
  CHECK(run.document["skippedChecks"][0]["reason"] == "interrupted");
  CHECK(run.calls.empty());
}

TEST_CASE("doctor's human report", "[doctor][pretty]") {
  Harness harness;
  harness.device.answer("pm-list", ScriptedRunner::exited(0, marked("")));
  harness.device.answer("version",
                        ScriptedRunner::exited(0, "Android Debug Bridge version 1.0.32\n"));
  const DoctorRun run = harness.run();
  const std::string text = doctor::render_pretty(run.report);
  INFO(text);
  CHECK(text.find("Device: " + kSerial) != std::string::npos);
  CHECK(text.find("[OK] host.adb.presence") != std::string::npos);
  CHECK(text.find("[FAIL] readiness.apk.presence") != std::string::npos);
  CHECK(text.find("(OPERATOR_NOT_INSTALLED)") != std::string::npos);
  CHECK(text.find("Advisory checks:\n  [WARN] host.adb.version") != std::string::npos);
  CHECK(text.find("Skipped checks:\n  - readiness.result.authenticity") != std::string::npos);
  CHECK(text.find("Docs: docs/operator.md") != std::string::npos);
  CHECK(text.find("[FAIL] Critical setup checks failed.") != std::string::npos);
  CHECK(text.find("Next actions:\n") != std::string::npos);
  CHECK(text.find("Run: clawperator operator install --device " + kSerial) != std::string::npos);

  Harness healthy;
  const std::string ok = doctor::render_pretty(healthy.run().report);
  CHECK(ok.find("[OK] Ready to use Clawperator.") != std::string::npos);
  CHECK(ok.find("[FAIL]") == std::string::npos);
}

TEST_CASE("doctor: readiness.result.authenticity warns when results cannot be proven",
          "[doctor][authenticity]") {
  SECTION("uids in pm and in logcat: pass") {
    Harness harness;
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.result.authenticity", "pass");
    const Json& evidence =
        find_check(run.document, "readiness.result.authenticity")->at("evidence");
    CHECK(evidence["operatorUids"] == Json::array({"10123"}));
    CHECK(evidence["logcatShowsUids"] == true);
  }
  SECTION("logcat shows no uid: a warning, and the device still ready") {
    Harness harness;
    harness.device.answer(
        "uid-check",
        ScriptedRunner::exited(0, marked("I/ClawperatorUidCheck(       4242): doctor: does "
                                         "logcat show uids\n")));
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.result.authenticity", "warn", "RESULT_AUTHENTICITY_UNAVAILABLE");
    CHECK(find_check(run.document, "readiness.result.authenticity")
              ->at("evidence")["logcatShowsUids"] == false);
    CHECK(run.document["ok"] == true);
    CHECK(run.exit_code == 0);
  }
  SECTION("the package manager prints no uid: a warning without asking logcat") {
    Harness harness;
    harness.device.answer("pm-list",
                          ScriptedRunner::exited(0, marked("package:com.clawperator.operator\n")));
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.result.authenticity", "warn", "RESULT_AUTHENTICITY_UNAVAILABLE");
    CHECK(count_calls(run, harness.device.runs.at("uid-check").first) == 0);
    CHECK(run.document["ok"] == true);
  }
  SECTION("our line does not come back: a warning that says so") {
    Harness harness;
    harness.device.answer("uid-check", ScriptedRunner::exited(0, marked("")));
    const DoctorRun run = harness.run();
    expect_check(run, "readiness.result.authenticity", "warn", "RESULT_AUTHENTICITY_UNAVAILABLE");
    CHECK(find_check(run.document, "readiness.result.authenticity")
              ->at("evidence")["logcatShowsUids"]
              .is_null());
  }
}

TEST_CASE("doctor: host.video.dependencies warns without failing the device's readiness",
          "[doctor][evidence]") {
  SECTION("ffprobe and scrcpy 3 usable: pass, both versions in the evidence") {
    Harness harness;
    harness.device.scrcpy_installed = true;
    harness.device.set(
        "scrcpy", {"scrcpy", "--version"},
        ScriptedRunner::exited(0, "scrcpy 3.1 <https://github.com/Genymobile/scrcpy>\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "host.video.dependencies", "pass");
    const Json& evidence = find_check(run.document, "host.video.dependencies")->at("evidence");
    CHECK(evidence["dependencies"][0]["version"] == "5.1.9-0+deb12u1");
    CHECK(evidence["dependencies"][1]["version"] == "3.1");
    CHECK(evidence["dependencies"][1]["usable"] == true);
  }
  SECTION("no ffprobe: a warning with HOST_DEPENDENCY_MISSING, and the device still ready") {
    Harness harness;
    harness.device.runs.erase("ffprobe");
    harness.runner.on_spawn_failure({"ffprobe", "-version"}, ENOENT).repeatedly();
    const DoctorRun run = harness.run();
    expect_check(run, "host.video.dependencies", "warn", "HOST_DEPENDENCY_MISSING");
    CHECK(run.document["ok"] == true);
    CHECK(run.exit_code == 0);
    const Json& check = *find_check(run.document, "host.video.dependencies");
    CHECK(check["evidence"]["dependencies"][0]["problem"] == "missing");
    CHECK(check["evidence"]["dependencies"][1]["problem"] == "missing");  // scrcpy, noted only
    CHECK(harness.runner.unexpected_calls().empty());
  }
  SECTION("an old scrcpy is noted, not warned about") {
    Harness harness;
    harness.device.scrcpy_installed = true;
    harness.device.set(
        "scrcpy", {"scrcpy", "--version"},
        ScriptedRunner::exited(0, "scrcpy 1.25 <https://github.com/Genymobile/scrcpy>\n"));
    const DoctorRun run = harness.run();
    expect_check(run, "host.video.dependencies", "pass");
    CHECK(find_check(run.document, "host.video.dependencies")
              ->at("evidence")["dependencies"][1]["problem"] == "version 1.25 is older than 3.0");
  }
}
