// `clawperator emulator …` through the real adb, with the test SDK (tests/emulator_sdk/) whose
// emulator is `clawperator-vdevice emulator`: create, start, status, exec, stop and delete;
// provision's paths; every fault with its code, exit code and disposition; and no emulator
// left running after a start that failed or was interrupted (docs/emulator.md).
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "clawperator/transport/sha256.hpp"
#include "emulator_process.hpp"
#include "farm_fixture.hpp"
#include "proc_files.hpp"
#include "release_server.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using clawperator::testing::eventually;
using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::free_console_port;
using clawperator::testing::process_running_with;
using clawperator::testing::processes_with;
using clawperator::testing::read_file;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

// A copy of the test SDK, a HOME and an AVD home of its own, and a private adb server; the
// clawperator it runs finds all three through the environment, as a CI job's would.
class EmulatorCli {
 public:
  EmulatorCli() : port_(free_console_port()) {
    fs::copy(CLAWPERATOR_EMULATOR_SDK_DIR, sdk(), fs::copy_options::recursive);
    fs::create_directories(home());
    farm_.set_env("ANDROID_HOME", sdk().string());
    farm_.set_env("HOME", home().string());
    farm_.set_env("CLAWPERATOR_VDEVICE", CLAWPERATOR_VDEVICE_BINARY);
    farm_.set_env("CLAWPERATOR_TEST_EMULATOR_PORT", std::to_string(port_));
    farm_.set_env("CLAWPERATOR_TEST_EMULATOR_BOOT_DELAY_MS", "300");
    farm_.set_env("CLAWPERATOR_TEST_SDK_FAULT", "");
    for (const char* name : {"ANDROID_SDK_ROOT", "ANDROID_AVD_HOME", "ANDROID_USER_HOME",
                             "EMULATOR_PATH", "SDKMANAGER_PATH", "AVDMANAGER_PATH"}) {
      farm_.set_env(name, "");
    }
  }
  // An emulator still running at the end is stopped, so the farm's leftover check is about us.
  ~EmulatorCli() {
    // It was detached from clawperator, so not our child: SIGTERM by its command line (an
    // emulator that ignores `emu kill` still ends on it).
    for (const pid_t pid : processes_with(console_needle())) ::kill(pid, SIGTERM);
    eventually([this] { return !process_running_with(console_needle()); }, 5s);
  }

  fs::path sdk() const { return root_.path() / "sdk"; }
  fs::path home() const { return root_.path() / "home"; }
  fs::path avds() const { return home() / ".android" / "avd"; }
  std::string serial() const { return "emulator-" + std::to_string(port_); }
  std::string console_needle() const { return "--console-port " + std::to_string(port_); }
  Farm& farm() { return farm_; }

  RunResult run(const std::vector<std::string>& args) const { return farm_.clawperator(args); }
  json document(const RunResult& result) const {
    INFO(result.out << result.err);
    return clawperator::testing::single_document(result);
  }
  void fault(const std::string& faults) { farm_.set_env("CLAWPERATOR_TEST_SDK_FAULT", faults); }
  std::string setting(const std::string& key) {
    return farm_.adb({"-s", serial(), "shell", "settings get global " + key}).out;
  }
  bool listed() { return farm_.adb({"devices"}).out.find(serial()) != std::string::npos; }

 private:
  TemporaryDirectory root_{"emulator-cli"};
  Farm farm_{Farm::Built{}};
  std::uint16_t port_;
};

const std::vector<std::string> kCliImageFlags = {"--api",       "35",    "--target",
                                                 "google_apis", "--abi", "x86_64"};

std::vector<std::string> with_image(std::vector<std::string> args) {
  args.insert(args.end(), kCliImageFlags.begin(), kCliImageFlags.end());
  return args;
}

}  // namespace

TEST_CASE("emulator: create, start, status, exec, stop and delete through the real adb",
          "[integration][emulator]") {
  EmulatorCli cli;
  const RunResult created = cli.run(with_image({"emulator", "create", "--name", "ci-35"}));
  REQUIRE(created.exit_code == 0);
  const json avd = cli.document(created);
  CHECK(avd["name"] == "ci-35");
  CHECK(avd["exists"] == true);
  CHECK(avd["systemImage"] == "system-images;android-35;google_apis;x86_64");
  CHECK(avd["supported"] == true);
  // The image was installed, its licence accepted on the way.
  CHECK(read_file((cli.sdk() / ".installed").string())
            .find("system-images;android-35;google_apis;x86_64") != std::string::npos);
  CHECK(fs::exists(cli.avds() / "ci-35.avd" / "config.ini"));
  // Never over an existing AVD without --force.
  const json again = expect_error(cli.run(with_image({"emulator", "create", "--name", "ci-35"})),
                                  "ANDROID_AVD_CREATE_FAILED", 3);
  CHECK(again["disposition"]["retry"] == "safe");
  CHECK(cli.run(with_image({"emulator", "create", "--name", "ci-35", "--force"})).exit_code == 0);

  const RunResult started =
      cli.run(with_image({"emulator", "start", "ci-35", "--headless", "--", "-memory", "2048"}));
  REQUIRE(started.exit_code == 0);
  const json up = cli.document(started);
  CHECK(up["serial"] == cli.serial());
  CHECK(up["avdName"] == "ci-35");
  CHECK(up["booted"] == true);
  CHECK(up["animationsDisabled"] == true);
  CHECK(up["logFile"].get<std::string>().find("emulator-ci-35.log") != std::string::npos);
  CHECK(read_file((cli.sdk() / ".emulator-calls").string())
            .find("@ci-35 -no-snapshot-load -no-boot-anim -no-window -no-audio -gpu "
                  "swiftshader_indirect -memory 2048") != std::string::npos);
  for (const char* key :
       {"window_animation_scale", "transition_animation_scale", "animator_duration_scale"}) {
    INFO(key);
    CHECK(cli.setting(key) == "0\n");
  }
  CHECK(cli.setting("development_settings_enabled") == "1\n");
  const json busy = expect_error(cli.run(with_image({"emulator", "start", "ci-35"})),
                                 "EMULATOR_ALREADY_RUNNING", 3);
  CHECK(busy["details"]["serial"] == cli.serial());

  const json status = cli.document(cli.run(with_image({"emulator", "status"})));
  REQUIRE(status["devices"].size() == 1);
  json expected = json::parse(R"({"type": "emulator", "avdName": "ci-35",
      "booted": true, "supported": true, "unsupportedReasons": []})");
  expected["serial"] = cli.serial();
  CHECK(status["devices"][0] == expected);
  const json listed = cli.document(cli.run(with_image({"emulator", "list"})));
  REQUIRE(listed["avds"].size() == 1);
  CHECK(listed["avds"][0]["running"] == true);

  // The emulator is a device like any other.
  const RunResult snapshot = cli.run({"snapshot", "--device", cli.serial()});
  CHECK(snapshot.exit_code == 0);
  CHECK(cli.document(snapshot)["ok"] == true);

  const json running_delete =
      expect_error(cli.run({"emulator", "delete", "ci-35"}), "EMULATOR_ALREADY_RUNNING", 3);
  CHECK(running_delete["message"] == "Cannot delete running emulator ci-35");
  const RunResult stopped = cli.run({"emulator", "stop", "ci-35"});
  REQUIRE(stopped.exit_code == 0);
  CHECK(cli.document(stopped) ==
        json{{"ok", true}, {"avdName", "ci-35"}, {"serial", cli.serial()}, {"stopped", true}});
  CHECK_FALSE(cli.listed());  // stop returns once adb no longer lists it
  CHECK(eventually([&] { return !process_running_with(cli.console_needle()); }, 3s));
  expect_error(cli.run({"emulator", "stop", "ci-35"}), "EMULATOR_NOT_RUNNING", 3);

  const RunResult deleted = cli.run({"emulator", "delete", "ci-35"});
  REQUIRE(deleted.exit_code == 0);
  CHECK(cli.document(deleted) == json{{"ok", true}, {"avdName", "ci-35"}, {"deleted", true}});
  CHECK_FALSE(fs::exists(cli.avds() / "ci-35.avd"));
  expect_error(cli.run({"emulator", "delete", "ci-35"}), "EMULATOR_NOT_FOUND", 3);
  expect_error(cli.run({"emulator", "start", "ci-35"}), "EMULATOR_NOT_FOUND", 3);
  // inspect of a missing AVD is no error.
  const json missing = cli.document(cli.run(with_image({"emulator", "inspect", "ci-35"})));
  CHECK(missing["exists"] == false);
}

TEST_CASE("emulator provision: created, then started, then reused, and an unsupported default",
          "[integration][emulator]") {
  EmulatorCli cli;
  const json created = cli.document(cli.run(with_image({"provision", "emulator", "--headless"})));
  CHECK(created["action"] == "created");
  CHECK(created["avdName"] == "clawperator-pixel");
  CHECK(created["created"] == true);
  CHECK(created["started"] == true);
  CHECK(created["reused"] == false);
  CHECK(created["serial"] == cli.serial());

  const json reused = cli.document(cli.run(with_image({"emulator", "provision"})));
  CHECK(reused["action"] == "reused");
  CHECK(reused["created"] == false);
  CHECK(reused["started"] == false);
  CHECK(reused["reused"] == true);

  REQUIRE(cli.run({"emulator", "stop", "clawperator-pixel"}).exit_code == 0);
  const json started = cli.document(cli.run(with_image({"emulator", "provision", "--headless"})));
  CHECK(started["action"] == "started");
  CHECK(started["created"] == false);
  CHECK(started["started"] == true);
  CHECK(started["reused"] == true);
  REQUIRE(cli.run({"emulator", "stop", "clawperator-pixel"}).exit_code == 0);

  // The same AVD judged against another image: it does not fit, and provision will not
  // replace it.
  const json unsupported = expect_error(cli.run({"provision", "emulator", "--api", "34", "--target",
                                                 "google_apis", "--abi", "x86_64"}),
                                        "EMULATOR_UNSUPPORTED", 3);
  CHECK(unsupported["details"]["unsupportedReasons"] == json::array({"unsupported_api_level"}));
  CHECK(unsupported["details"]["wantedSystemImage"] ==
        "system-images;android-34;google_apis;x86_64");
  CHECK_FALSE(cli.listed());
}

TEST_CASE("emulator provision --install-operator: the Operator from the release, doctor ready",
          "[integration][emulator][operator-install]") {
  EmulatorCli cli;
  clawperator::testing::ReleaseServer server;
  const std::string apk_path = "/operator/v0.5.4/operator-v0.5.4.apk";
  const std::string apk = clawperator::vdevice::android::make_virtual_apk(
      {"com.clawperator.operator", "0.5.4", 504}, 16 * 1024);
  server.route(apk_path, {200, apk, std::nullopt});
  server.route("/operator/latest.json", {200,
                                         json{{"version", "0.5.4"},
                                              {"apk_url", server.url(apk_path)},
                                              {"sha256", clawperator::transport::sha256_hex(apk)}}
                                             .dump(),
                                         std::nullopt});
  // A phone without the Operator, no accessibility service, no listener.
  cli.farm().set_env("CLAWPERATOR_TEST_EMULATOR_SCENARIO",
                     clawperator::testing::kScenarios + "/fresh-phone.json");

  // The install fails (no metadata there): its own code, the emulator up beside it.
  cli.farm().set_env("CLAWPERATOR_OPERATOR_METADATA_URL", server.url("/missing/latest.json"));
  const json failed = expect_error(
      cli.run(with_image({"emulator", "provision", "--headless", "--install-operator"})),
      "OPERATOR_DOWNLOAD_FAILED", 3);
  CHECK(failed["details"]["httpStatus"] == 404);
  CHECK(failed["emulator"]["serial"] == cli.serial());
  CHECK(failed["emulator"]["action"] == "created");

  cli.farm().set_env("CLAWPERATOR_OPERATOR_METADATA_URL", server.url("/operator/latest.json"));
  const RunResult provisioned =
      cli.run(with_image({"emulator", "provision", "--headless", "--install-operator"}));
  const json document = cli.document(provisioned);
  REQUIRE(provisioned.exit_code == 0);
  CHECK(document["serial"] == cli.serial());
  CHECK(document["action"] == "reused");
  CHECK(document["operator"]["deviceId"] == cli.serial());
  CHECK(document["operator"]["operatorVersion"] == "0.5.4");
  CHECK(document["operator"]["installed"] == true);
  CHECK(document["operator"]["reused"] == false);
  CHECK_FALSE(document["operator"].contains("ok"));
  CHECK(document["ready"] == true);
  CHECK(document["readyAfterMs"].is_number_integer());
  // One command gave a device an exec can use.
  CHECK(cli.run({"doctor", "--device", cli.serial()}).exit_code == 0);
  const RunResult snapshot = cli.run({"snapshot", "--device", cli.serial()});
  CHECK(snapshot.exit_code == 0);

  // Again (the original's spelling): the emulator reused, the Operator up to date, nothing
  // downloaded a second time.
  const json again =
      cli.document(cli.run(with_image({"provision", "emulator", "--install-operator"})));
  CHECK(again["operator"]["installed"] == false);
  CHECK(again["operator"]["skipped"] == "up_to_date");
  CHECK(again["ready"] == true);
  CHECK(server.count(apk_path) == 1);

  const json misplaced =
      expect_error(cli.run({"emulator", "start", "ci-35", "--install-operator"}), "USAGE", 2);
  CHECK(misplaced["details"]["flag"] == "--install-operator");
}

TEST_CASE("emulator: each fault of the SDK with its code, and no emulator left behind",
          "[integration][emulator]") {
  EmulatorCli cli;
  SECTION("avdmanager fails") {
    cli.fault("create_fails");
    const json error = expect_error(cli.run(with_image({"emulator", "create", "--name", "x"})),
                                    "ANDROID_AVD_CREATE_FAILED", 3);
    CHECK(error["details"]["exitCode"] == 1);
    CHECK_FALSE(error["details"]["stderr"].get<std::string>().empty());
  }
  SECTION("the image cannot be installed") {
    cli.fault("image_install_fails");
    const json error = expect_error(cli.run(with_image({"emulator", "create", "--name", "x"})),
                                    "ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", 3);
    CHECK(error["details"]["systemImage"] == "system-images;android-35;google_apis;x86_64");
  }
  SECTION("emulator -list-avds fails") {
    cli.fault("list_fails");
    expect_error(cli.run({"emulator", "list"}), "EMULATOR_NOT_FOUND", 3);
  }
  SECTION("a tool that is not there") {
    fs::remove(cli.sdk() / "cmdline-tools/latest/bin/avdmanager");
    cli.farm().set_env("PATH", "/usr/bin:/bin");
    const json error =
        expect_error(cli.run({"provision", "emulator"}), "ANDROID_SDK_TOOL_MISSING", 3);
    CHECK(error["details"]["missingTools"] == json::array({"avdmanager"}));
  }
  SECTION("the emulator never reaches adb, never boots, or exits at once") {
    REQUIRE(cli.run(with_image({"emulator", "create", "--name", "x"})).exit_code == 0);
    cli.fault("never_registers");
    json error =
        expect_error(cli.run(with_image({"emulator", "start", "x", "--boot-timeout", "2000"})),
                     "EMULATOR_START_FAILED", 3);
    CHECK(error["details"]["emulatorStopped"] == true);
    CHECK_FALSE(process_running_with(cli.console_needle()));

    cli.fault("never_boots");
    error = expect_error(cli.run(with_image({"emulator", "start", "x", "--boot-timeout", "2000"})),
                         "EMULATOR_BOOT_TIMEOUT", 3);
    CHECK(error["details"]["serial"] == cli.serial());
    CHECK(error["details"]["timeoutMs"] == 2000);
    CHECK(error["details"]["emulatorStopped"] == true);
    CHECK_FALSE(process_running_with(cli.console_needle()));
    CHECK(eventually([&] { return !cli.listed(); }, 3s));

    // The AVD's system image is gone: the emulator exits before adb sees it.
    cli.fault("");
    fs::remove_all(cli.sdk() / "system-images");
    error =
        expect_error(cli.run(with_image({"emulator", "start", "x"})), "EMULATOR_START_FAILED", 3);
    CHECK(error["message"].get<std::string>().find("exited with code") != std::string::npos);
  }
  SECTION("an emulator that ignores kill: stop says so after --stop-timeout") {
    REQUIRE(cli.run(with_image({"emulator", "create", "--name", "x"})).exit_code == 0);
    cli.fault("ignores_kill");
    REQUIRE(cli.run(with_image({"emulator", "start", "x"})).exit_code == 0);
    const json error = expect_error(cli.run({"emulator", "stop", "x", "--stop-timeout", "1500"}),
                                    "EMULATOR_STOP_FAILED", 3);
    CHECK(error["details"]["serial"] == cli.serial());
    CHECK(error["details"]["timeoutMs"] == 1500);
    CHECK(cli.listed());  // still up: the test's clean-up ends it with SIGTERM
  }
}

TEST_CASE("emulator start: Ctrl-C during the boot wait stops the emulator it started",
          "[integration][emulator]") {
  EmulatorCli cli;
  REQUIRE(cli.run(with_image({"emulator", "create", "--name", "x"})).exit_code == 0);
  cli.fault("never_boots");
  RunOptions options = cli.farm().environment();
  options.extra_env["CLAWPERATOR_LOG_LEVEL"] = "debug";
  options.signal = SIGINT;
  // Once it asks the emulator whether it has booted.
  options.signal_when = [&](const std::string&) {
    return cli.farm().logged_count("adb.command", "sys.boot_completed") > 0;
  };
  options.signal_after_ms = 30000;
  const RunResult interrupted = clawperator::testing::run_binary(
      clawperator::testing::kBinary, with_image({"emulator", "start", "x"}), options);
  const json error = expect_error(interrupted, "RESULT_TRANSPORT_CANCELLED", 130);
  CHECK(error["details"]["emulatorStopped"] == true);
  CHECK_FALSE(process_running_with(cli.console_needle()));
  CHECK(eventually([&] { return !cli.listed(); }, 3s));
}
