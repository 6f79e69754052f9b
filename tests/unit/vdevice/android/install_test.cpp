// pm install / pm uninstall on the simulated device: APK bytes arrive on stdin, as adb's
// streamed install sends them, and the package manager's state changes as on a phone.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "android_test_support.hpp"
#include "clawperator/transport/envelope.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"
#include "vdevice/android/formats/zip_archive.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const std::string kOperatorService =
    std::string(kOperatorPackage) + "/" + kAccessibilityServiceClass;

std::string apk(const std::string& package, const std::string& version_name,
                std::int64_t version_code) {
  return make_virtual_apk({package, version_name, version_code});
}

// What adb 29 opens for `adb install [-r] FILE`, fed the file in WRTE-sized pieces.
ShellResult stream_install(Harness& harness, std::string_view bytes, const std::string& flags = "",
                           std::size_t piece = 65536) {
  std::string command = "cmd package 'install'";
  if (!flags.empty()) command += " '" + flags + "'";
  command += " -S " + std::to_string(bytes.size());
  Stream stream = harness.open_exec(command);
  for (std::size_t at = 0; at < bytes.size() && !stream.ended(); at += piece) {
    stream.session->on_input(bytes.substr(at, piece));
  }
  harness.finish(stream, milliseconds(10000));
  CHECK_FALSE(stream.output->misuse);
  return {stream.output->out, stream.output->err, stream.output->exit_code.value_or(-1)};
}

Scenario fresh_phone() {
  auto scenario = load_scenario(R"({
    "packages": [{"name": "com.clawperator.operator", "installed": false}],
    "accessibilityService": false,
    "logcat": {"noiseLinesPerSecond": 0, "initialLines": 3}
  })");
  REQUIRE(scenario);
  return std::move(scenario).value();
}

std::string ping_status(Harness& harness, const std::string& id) {
  ResultCapture capture(harness, id, id);
  REQUIRE(harness.broadcast(payload(id, Json::array({action("p", "doctor_ping")}))).status == 0);
  const auto& result = capture.complete();
  return result.envelope.status +
         (result.envelope.errorCode ? " " + *result.envelope.errorCode : std::string());
}

}  // namespace

TEST_CASE("a streamed install of a virtual APK installs the package", "[vdevice][android][apk]") {
  Harness harness;
  CHECK(harness.shell("pm list packages com.example").out.empty());
  const ShellResult result = stream_install(harness, apk("com.example.app", "1.2", 12), "-r");
  CHECK(result.out == "Success\n");
  CHECK(result.err.empty());
  CHECK(result.status == 0);
  CHECK(harness.shell("pm list packages com.example").out == "package:com.example.app\n");
  CHECK(harness.shell("pm list packages -3").out.find("package:com.example.app\n") !=
        std::string::npos);
  const std::string dump = harness.shell("dumpsys package com.example.app").out;
  CHECK(dump.find("    versionCode=12 ") != std::string::npos);
  CHECK(dump.find("    versionName=1.2\n") != std::string::npos);
  CHECK(dump.find("installerPackageName=com.android.shell") != std::string::npos);
  const std::string path = harness.shell("pm path com.example.app").out;
  CHECK(path.starts_with("package:/data/app/~~"));
  CHECK(path.ends_with("/com.example.app-" + path.substr(path.rfind('-') + 1)));
  // An application uid of its own.
  const std::string uids = harness.shell("pm list packages -U com.example.app").out;
  CHECK(uids.starts_with("package:com.example.app uid:10"));
  const std::string listing = harness.shell("pm list packages -U").out;
  const std::string uid = uids.substr(uids.find(" uid:"));
  CHECK(listing.find(uid) == listing.rfind(uid));

  SECTION("an update replaces the version and moves the code path") {
    const ShellResult update = stream_install(harness, apk("com.example.app", "1.3", 13), "-r");
    CHECK(update.out == "Success\n");
    CHECK(harness.shell("dumpsys package com.example.app").out.find("    versionName=1.3\n") !=
          std::string::npos);
    CHECK(harness.shell("pm path com.example.app").out != path);
    CHECK(harness.shell("pm list packages -U com.example.app").out == uids);
  }
  SECTION("pm install reads stdin the same way, in pieces of any size") {
    const std::string bytes = apk("com.example.other", "2.0", 20);
    Stream stream = harness.open_exec("pm install -t -g -S " + std::to_string(bytes.size()));
    for (std::size_t at = 0; at < bytes.size(); at += 7) {
      stream.session->on_input(std::string_view(bytes).substr(at, 7));
    }
    harness.finish(stream);
    CHECK(stream.output->out == "Success\n");
    CHECK(stream.output->exit_code == 0);
    CHECK(harness.shell("pm list packages com.example.other").out == "package:com.example.other\n");
  }
}

TEST_CASE("installs fail as the package manager's do", "[vdevice][android][apk]") {
  Harness harness;
  SECTION("bytes that are not a zip") {
    const ShellResult result = stream_install(harness, "this is not an APK", "-r");
    CHECK(result.out.starts_with("Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse "));
    CHECK(result.out.ends_with("]\n"));
    CHECK(result.status == 1);
  }
  SECTION("a zip without the virtual manifest") {
    const ShellResult result =
        stream_install(harness, write_zip({{"AndroidManifest.xml", "x"}}), "-r");
    CHECK(result.out.starts_with("Failure [INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: "));
    CHECK(result.out.find("no entry vdevice-manifest.json") != std::string::npos);
    CHECK(result.status == 1);
  }
  SECTION("an installed package without -r") {
    const ShellResult result = stream_install(harness, apk(kOperatorPackage, "0.5.4", 504));
    CHECK(result.out ==
          "Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install "
          "com.clawperator.operator without first uninstalling.]\n");
    CHECK(result.status == 1);
  }
  SECTION("a lower versionCode without -d, then with it") {
    const ShellResult refused = stream_install(harness, apk(kOperatorPackage, "0.4.2", 402), "-r");
    CHECK(refused.out ==
          "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code "
          "402 is older than current 503]\n");
    CHECK(refused.status == 1);
    CHECK(harness.shell("dumpsys package com.clawperator.operator").out.find("versionCode=503") !=
          std::string::npos);
    Stream stream = harness.open_exec("cmd package install -r -d -S " +
                                      std::to_string(apk(kOperatorPackage, "0.4.2", 402).size()));
    stream.session->on_input(apk(kOperatorPackage, "0.4.2", 402));
    harness.finish(stream);
    CHECK(stream.output->out == "Success\n");
    CHECK(harness.shell("dumpsys package com.clawperator.operator").out.find("versionCode=402") !=
          std::string::npos);
  }
  SECTION("a system package") {
    const ShellResult result = stream_install(harness, apk("com.android.settings", "99", 99), "-r");
    CHECK(result.out.starts_with("Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: "));
    CHECK(result.status == 1);
  }
  SECTION("stdin ends before -S bytes arrived") {
    Stream stream = harness.open("cmd package install -S 100");
    stream.session->on_input("only a few bytes");
    stream.session->on_input_closed();
    harness.finish(stream);
    CHECK(stream.output->err == "Error: failed to write; stdin ended after 16 of 100 bytes\n");
    CHECK(stream.output->exit_code == 1);
  }
  SECTION("usage errors") {
    CHECK(harness.shell("pm install").err ==
          "Error: must either specify a package size or an APK file\n");
    const ShellResult path = harness.shell("pm install -r /data/local/tmp/app.apk");
    CHECK(path.err.starts_with("Error: Unable to open file: /data/local/tmp/app.apk\n"));
    CHECK(path.status == 1);
    const ShellResult option = harness.shell("pm install --bogus -S 10");
    CHECK(option.err ==
          "Exception occurred while executing 'install':\n"
          "java.lang.IllegalArgumentException: Unknown option --bogus\n");
    CHECK(option.status == 255);
    CHECK(harness.shell("pm install -S ten").err.find("NumberFormatException") !=
          std::string::npos);
  }
  // Nothing of it was installed.
  CHECK(harness.shell("pm list packages com.example").out.empty());
}

TEST_CASE("the scenario's installFailure answers every install", "[vdevice][android][apk]") {
  auto scenario = load_scenario(R"({"installFailure": "INSTALL_FAILED_INSUFFICIENT_STORAGE"})");
  REQUIRE(scenario);
  CHECK(scenario->install_failure == "INSTALL_FAILED_INSUFFICIENT_STORAGE");
  Harness harness(*scenario);
  const ShellResult result = stream_install(harness, apk("com.example.app", "1", 1), "-r");
  CHECK(result.out ==
        "Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE: Requested internal only, but not enough "
        "space]\n");
  CHECK(result.status == 1);
  CHECK(harness.shell("pm list packages com.example").out.empty());

  const auto bad = load_scenario(R"({"installFailure": "DISK_FULL"})");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().path == "installFailure");
  CHECK(bad.error().message == "expected an INSTALL_FAILED_… code, got \"DISK_FULL\"");
}

TEST_CASE("a fresh Operator install needs its accessibility service enabled",
          "[vdevice][android][apk]") {
  Harness harness(fresh_phone());
  CHECK(harness.shell("pm list packages com.clawperator").out.empty());
  const ShellResult install = stream_install(harness, apk(kOperatorPackage, "0.5.3", 503), "-r");
  REQUIRE(install.out == "Success\n");
  CHECK(harness.shell("pm list packages com.clawperator").out ==
        "package:com.clawperator.operator\n");
  // The scenario's declaration came back: label, launch activity, screen.
  CHECK(harness.shell("am start -n com.clawperator.operator/clawperator.activity.MainActivity")
            .status == 0);
  // The installer enables nothing: the secure settings are as they were.
  CHECK(harness.shell("settings get secure enabled_accessibility_services").out == "null\n");
  CHECK(harness.shell("settings get secure enabled_notification_listeners").out == "null\n");
  CHECK(harness.shell("dumpsys package com.clawperator.operator").out.find("granted=true") ==
        std::string::npos);
  CHECK(ping_status(harness, "before") == "failed SERVICE_UNAVAILABLE");

  harness.shell("settings put secure enabled_accessibility_services " + kOperatorService);
  CHECK(harness.shell("settings get secure accessibility_enabled").out == "1\n");
  CHECK(ping_status(harness, "after") == "success");
}

TEST_CASE("an update keeps the Operator's permissions and services", "[vdevice][android][apk]") {
  Harness harness;
  REQUIRE(harness.shell("pm grant com.clawperator.operator android.permission.POST_NOTIFICATIONS")
              .status == 0);
  const ShellResult update = stream_install(harness, apk(kOperatorPackage, "0.6.0", 600), "-r");
  REQUIRE(update.out == "Success\n");
  CHECK(harness.shell("settings get secure enabled_accessibility_services").out ==
        kOperatorService + "\n");
  const std::string dump = harness.shell("dumpsys package com.clawperator.operator").out;
  CHECK(dump.find("android.permission.POST_NOTIFICATIONS: granted=true") != std::string::npos);
  CHECK(dump.find("versionName=0.6.0") != std::string::npos);
  CHECK(ping_status(harness, "updated") == "success");
}

TEST_CASE("uninstall removes a package and what the system kept for it",
          "[vdevice][android][apk]") {
  Harness harness;
  harness.shell("cmd notification allow_listener com.clawperator.operator/x.Listener");
  const ShellResult removed = harness.shell("cmd package 'uninstall' 'com.clawperator.operator'");
  CHECK(removed.out == "Success\n");
  CHECK(removed.status == 0);
  CHECK(harness.shell("pm list packages com.clawperator").out.empty());
  CHECK(harness.shell("pm path com.clawperator.operator").status == 1);
  CHECK(harness.shell("settings get secure enabled_accessibility_services").out == "\n");
  CHECK(harness.shell("settings get secure accessibility_enabled").out == "0\n");
  CHECK(harness.shell("settings get secure enabled_notification_listeners").out == "\n");

  const ShellResult again = harness.shell("pm uninstall com.clawperator.operator");
  CHECK(again.out == "Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
  CHECK(again.status == 1);
  CHECK(harness.shell("pm uninstall com.android.settings").out ==
        "Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
  CHECK(harness.shell("pm uninstall").err == "Error: package name not specified\n");
  CHECK(harness.shell("pm uninstall -x com.example").out == "Error: Unknown option: -x\n");

  // Installing it again is a fresh install: the service stays off.
  REQUIRE(stream_install(harness, apk(kOperatorPackage, "0.5.3", 503)).out == "Success\n");
  CHECK(ping_status(harness, "reinstalled") == "failed SERVICE_UNAVAILABLE");
}

TEST_CASE("a host that closes mid-install ends it quietly", "[vdevice][android][apk]") {
  Harness harness;
  const std::string bytes = apk("com.example.app", "1", 1);
  Stream stream = harness.open_exec("cmd package install -S " + std::to_string(bytes.size()));
  stream.session->on_input(bytes.substr(0, 10));
  stream.session->on_host_close();
  harness.advance(milliseconds(50));
  CHECK(stream.output->out.empty());
  CHECK_FALSE(stream.ended());
  CHECK(harness.shell("pm list packages com.example").out.empty());
}
