// operator setup and grant-device-permissions against scripted adb: each phase's
// failure with its code, exit code and disposition, and idempotent success.
#include "clawperator/operator_app/setup.hpp"

#include <catch2/catch.hpp>
#include <fstream>

#include "clawperator/operator_app/permissions.hpp"
#include "scripted_device.hpp"

using namespace clawperator;
using namespace clawperator::test;

namespace {

const std::string kAccessibility =
    "com.clawperator.operator/clawperator.operator.accessibilityservice."
    "OperatorAccessibilityService";
const std::string kListener =
    "com.clawperator.operator/action.notification.NotificationListenerService";

struct Harness {
  ScriptedRunner runner;
  TemporaryDirectory dir{"operator-setup"};
  operator_app::SetupRequest request;

  Harness() {
    request.apk_path = (dir.path() / "operator.apk").string();
    std::ofstream(request.apk_path) << "PK\x03\x04 not really an apk";
    request.device = kSerial;
    request.operator_package = kOperator;
    request.adb.executable = "adb";
  }

  Argv install_argv() const { return adb_argv({"-s", kSerial, "install", "-r", request.apk_path}); }

  void installs() {
    runner.on_run(install_argv(),
                  ScriptedRunner::exited(0, "Performing Streamed Install\nSuccess\n"));
  }
  void lists(const std::string& packages, const std::string& filter = kOperator) {
    runner.on_run(marked_shell("pm list packages -U '" + filter + "'"),
                  ScriptedRunner::exited(0, marked(packages)));
  }
  void accessibility_already_on() {
    runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                  ScriptedRunner::exited(0, marked(kAccessibility + "\n")));
    runner.on_run(marked_shell("settings get secure accessibility_enabled"),
                  ScriptedRunner::exited(0, marked("1\n")));
  }
  void notification_granted(
      const process::Completion& answer = ScriptedRunner::exited(0, marked(""))) {
    runner.on_run(
        marked_shell("pm grant 'com.clawperator.operator' android.permission.POST_NOTIFICATIONS"),
        answer);
  }
  void listener_already_on() {
    runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                  ScriptedRunner::exited(0, marked(kListener + "\n")));
  }

  Json setup() { return finish(operator_app::run_operator_setup(request, runner)); }
  Json grants() { return finish(operator_app::run_permission_grants(request, runner)); }

  int exit_code = -1;

 private:
  Json finish(operator_app::SetupReport report) {
    exit_code = report.exit_code;
    return report.document;
  }
};

void expect_error(const Harness& harness, const Json& document, const std::string& code,
                  int exit_code) {
  INFO(document.dump(2));
  CHECK(document["ok"] == false);
  CHECK(document["code"] == code);
  CHECK(harness.exit_code == exit_code);
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK(document["disposition"]["retry"] == "safe");
  CHECK(document["details"]["phase"] == "readiness");
}

// A setup failure before the APK was installed: the original's install {ok:false, error}.
void expect_not_installed(const Json& document) {
  CHECK(document["install"]["ok"] == false);
  CHECK(document["install"]["error"] == document["message"]);
  CHECK_FALSE(document["install"]["error"].get<std::string>().empty());
}

// After it was: install {ok:true}, without an error.
void expect_installed(const Json& document) {
  CHECK(document["install"] == Json{{"ok", true}});
}

}  // namespace

TEST_CASE("operator setup installs, grants and verifies", "[operator][setup]") {
  Harness harness;
  harness.installs();
  harness.lists("package:com.clawperator.operator\n");
  harness.accessibility_already_on();
  harness.notification_granted();
  harness.listener_already_on();
  const Json document = harness.setup();
  INFO(document.dump(2));
  CHECK(harness.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["operatorPackage"] == kOperator);
  CHECK(document["deviceId"] == kSerial);
  CHECK(document["install"]["ok"] == true);
  CHECK(document["permissions"]["accessibility"] ==
        Json{{"ok", true}, {"alreadyEnabled", true}, {"method", "settings"}});
  CHECK(document["permissions"]["notification"]["skipped"] == false);
  CHECK(document["permissions"]["notificationListener"]["alreadyEnabled"] == true);
  CHECK(document["verification"] == Json{{"ok", true}, {"packageInstalled", true}});
  CHECK(document["message"] == "Operator installed. Required permissions were already enabled.");
  CHECK(harness.runner.unexpected_calls().empty());
}

TEST_CASE("operator setup: each phase's failure", "[operator][setup]") {
  Harness harness;
  SECTION("the APK file does not exist") {
    harness.request.apk_path = (harness.dir.path() / "missing.apk").string();
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_APK_NOT_FOUND", 3);
    CHECK(document["details"]["apkPath"] == harness.request.apk_path);
    expect_not_installed(document);
    CHECK(document["install"]["error"].get<std::string>().rfind("APK file not found: ", 0) == 0);
    CHECK(harness.runner.calls().empty());
  }
  SECTION("the APK path is a directory") {
    harness.request.apk_path = harness.dir.path().string();
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_APK_NOT_FOUND", 3);
    expect_not_installed(document);
  }
  SECTION("no device") {
    harness.request.device.reset();
    harness.runner.on_run(adb_argv({"devices", "-l"}),
                          ScriptedRunner::exited(0, "List of devices attached\n\n"));
    const Json document = harness.setup();
    expect_error(harness, document, "NO_DEVICES", 3);
    expect_not_installed(document);
  }
  SECTION("the package manager refuses the APK") {
    harness.runner.on_run(
        harness.install_argv(),
        ScriptedRunner::exited(1, "Performing Streamed Install\n",
                               "adb: failed to install " + harness.request.apk_path +
                                   ": Failure [INSTALL_FAILED_VERSION_DOWNGRADE: "
                                   "Downgrade detected]\n"));
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_INSTALL_FAILED", 3);
    CHECK(document["details"]["installFailureReason"] == "INSTALL_FAILED_VERSION_DOWNGRADE");
    expect_not_installed(document);
    CHECK(document["install"]["reason"] == "INSTALL_FAILED_VERSION_DOWNGRADE");
    CHECK_FALSE(document.contains("permissions"));
  }
  SECTION("adb install exits 0 without Success") {
    harness.runner.on_run(harness.install_argv(), ScriptedRunner::exited(0, ""));
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_INSTALL_FAILED", 3);
    expect_not_installed(document);
  }
  SECTION("the device disappears during the install: its own code") {
    harness.runner.on_run(harness.install_argv(),
                          ScriptedRunner::exited(1, "", "adb: device offline\n"));
    const Json document = harness.setup();
    expect_error(harness, document, "DEVICE_OFFLINE", 3);
    expect_not_installed(document);
  }
  SECTION("no Operator after the install") {
    harness.installs();
    harness.lists("");
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_VERIFY_FAILED", 3);
    CHECK(document["verification"]["packageInstalled"] == false);
    expect_installed(document);
  }
  SECTION("both variants installed and none named") {
    harness.installs();
    harness.lists("package:com.clawperator.operator\npackage:com.clawperator.operator.dev\n");
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_VERIFY_FAILED", 3);
    CHECK(document["details"]["installed"].size() == 2);
  }
  SECTION("the accessibility grant does not stick") {
    harness.installs();
    harness.lists("package:com.clawperator.operator\n");
    harness.runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                          ScriptedRunner::exited(0, marked("null\n")));
    harness.runner.on_run(marked_shell("settings get secure accessibility_enabled"),
                          ScriptedRunner::exited(0, marked("0\n")));
    harness.runner
        .on_run(ScriptedRunner::starts_with(adb_argv({"-s", kSerial, "shell"})), "settings put",
                ScriptedRunner::exited(0, marked("")))
        .times(1);
    harness.runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                          ScriptedRunner::exited(0, marked("null\n")));
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_GRANT_FAILED", 3);
    CHECK(document["details"]["grant"] == "accessibility");
    CHECK(document["permissions"]["accessibility"]["ok"] == false);
    expect_installed(document);
  }
  SECTION("the notification permission is refused") {
    harness.installs();
    harness.lists("package:com.clawperator.operator\n");
    harness.accessibility_already_on();
    harness.notification_granted(ScriptedRunner::exited(
        0, marked("", 255), "Exception occurred: java.lang.SecurityException: denied\n"));
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_GRANT_FAILED", 3);
    CHECK(document["details"]["grant"] == "notification");
    CHECK(document["message"].get<std::string>().find("SecurityException") != std::string::npos);
  }
  SECTION("the listener service cannot be allowed") {
    harness.installs();
    harness.lists("package:com.clawperator.operator\n");
    harness.accessibility_already_on();
    harness.notification_granted();
    harness.runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                          ScriptedRunner::exited(0, marked("null\n")));
    harness.runner.on_run(marked_shell("getprop ro.build.version.sdk"),
                          ScriptedRunner::exited(0, marked("34\n")));
    harness.runner.on_run(marked_shell("cmd notification allow_listener '" + kListener + "'"),
                          ScriptedRunner::exited(0, marked("", 20), "cmd: Can't find service\n"));
    const Json document = harness.setup();
    expect_error(harness, document, "OPERATOR_GRANT_FAILED", 3);
    CHECK(document["details"]["grant"] == "notificationListener");
  }
}

TEST_CASE("grant-device-permissions enables what is missing", "[operator][grants]") {
  Harness harness;
  SECTION("first time: every grant is written, the listener by settings on old Android") {
    harness.lists("package:com.clawperator.operator\n");
    harness.runner.on_run(marked_shell("settings get secure enabled_accessibility_services"),
                          ScriptedRunner::exited(0, marked("com.other/x.Y\n")));
    harness.runner.on_run(marked_shell("settings get secure accessibility_enabled"),
                          ScriptedRunner::exited(0, marked("1\n")));
    const Argv put = marked_shell(
        "settings put secure enabled_accessibility_services "
        "'com.other/x.Y:" +
        kAccessibility + "' && settings put secure accessibility_enabled 1");
    harness.runner.on_run(put, ScriptedRunner::exited(0, marked("")));
    harness.runner.on_run(
        marked_shell("settings get secure enabled_accessibility_services"),
        ScriptedRunner::exited(0, marked("com.other/x.Y:" + kAccessibility + "\n")));
    harness.notification_granted(
        ScriptedRunner::exited(0, marked("", 255), "Unknown permission: POST_NOTIFICATIONS\n"));
    harness.runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                          ScriptedRunner::exited(0, marked("null\n")));
    harness.runner.on_run(marked_shell("getprop ro.build.version.sdk"),
                          ScriptedRunner::exited(0, marked("26\n")));
    const Argv listener =
        marked_shell("settings put secure enabled_notification_listeners '" + kListener + "'");
    harness.runner.on_run(listener, ScriptedRunner::exited(0, marked("")));
    const Json document = harness.grants();
    INFO(document.dump(2));
    CHECK(harness.exit_code == 0);
    CHECK(document["accessibility"]["alreadyEnabled"] == false);
    CHECK(document["notification"]["skipped"] == true);
    CHECK(document["notificationListener"]["method"] == "settings");
    CHECK(document["message"] == "Operator permissions enabled.");
    CHECK(harness.runner.call_count(put) == 1);
    CHECK(harness.runner.call_count(listener) == 1);
    CHECK(harness.runner.unexpected_calls().empty());
  }
  SECTION("a notification service without shell commands: the setting instead") {
    harness.lists("package:com.clawperator.operator\n");
    harness.accessibility_already_on();
    harness.notification_granted();
    harness.runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                          ScriptedRunner::exited(0, marked("com.other/x.L\n")));
    harness.runner.on_run(marked_shell("getprop ro.build.version.sdk"),
                          ScriptedRunner::exited(0, marked("30\n")));
    const Argv allow = marked_shell("cmd notification allow_listener '" + kListener + "'");
    harness.runner.on_run(
        allow, ScriptedRunner::exited(0, marked("", 255), "No shell command implementation.\n"));
    const Argv listener = marked_shell(
        "settings put secure enabled_notification_listeners 'com.other/x.L:" + kListener + "'");
    harness.runner.on_run(listener, ScriptedRunner::exited(0, marked("")));
    const Json document = harness.grants();
    INFO(document.dump(2));
    CHECK(harness.exit_code == 0);
    CHECK(document["notificationListener"]["method"] == "settings");
    CHECK(harness.runner.call_count(allow) == 1);
    CHECK(harness.runner.call_count(listener) == 1);
  }
  SECTION("the listener is refused by the notification service") {
    harness.lists("package:com.clawperator.operator\n");
    harness.accessibility_already_on();
    harness.notification_granted();
    harness.runner.on_run(marked_shell("settings get secure enabled_notification_listeners"),
                          ScriptedRunner::exited(0, marked("null\n")));
    harness.runner.on_run(marked_shell("getprop ro.build.version.sdk"),
                          ScriptedRunner::exited(0, marked("34\n")));
    harness.runner.on_run(
        marked_shell("cmd notification allow_listener '" + kListener + "'"),
        ScriptedRunner::exited(0, marked("", 255),
                               "Exception occurred: java.lang.SecurityException: denied\n"));
    const Json document = harness.grants();
    expect_error(harness, document, "OPERATOR_GRANT_FAILED", 3);
    CHECK(document["details"]["grant"] == "notificationListener");
    CHECK(document["disposition"]["delivery"] == "not_delivered");
  }
  SECTION("no Operator installed") {
    harness.lists("");
    const Json document = harness.grants();
    expect_error(harness, document, "OPERATOR_NOT_INSTALLED", 3);
    CHECK_FALSE(document.contains("install"));  // granting installs nothing
  }
  SECTION("an explicit package that is missing") {
    harness.request.operator_package = "com.acme.operator";
    harness.request.operator_package_explicit = true;
    harness.lists("", "com.acme.operator");
    const Json document = harness.grants();
    expect_error(harness, document, "OPERATOR_NOT_INSTALLED", 3);
    CHECK(document["details"]["expectedPackage"] == "com.acme.operator");
  }
}

TEST_CASE("pm grant answers that mean there is nothing to grant", "[operator][grants]") {
  CHECK(operator_app::grant_is_not_applicable("Unknown permission: x"));
  CHECK(operator_app::grant_is_not_applicable(
      "Permission android.permission.X is not a changeable permission type"));
  CHECK(operator_app::grant_is_not_applicable("Package x has not requested permission y"));
  CHECK_FALSE(operator_app::grant_is_not_applicable("java.lang.SecurityException: denied"));
}
