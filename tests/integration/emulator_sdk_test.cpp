// The test Android SDK (tests/emulator_sdk/): its sdkmanager, avdmanager and emulator keep
// their state in files as the real tools do, fail as they do, and start clawperator-vdevice
// emulator as the emulator a host tool launches.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "emulator_process.hpp"
#include "farm_fixture.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using clawperator::testing::EmulatorProcess;
using clawperator::testing::eventually;
using clawperator::testing::Farm;
using clawperator::testing::free_console_port;
using clawperator::testing::read_file;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;

constexpr const char* kImage = "system-images;android-35;google_apis;x86_64";
constexpr const char* kSdkManager = "cmdline-tools/latest/bin/sdkmanager";
constexpr const char* kAvdManager = "cmdline-tools/latest/bin/avdmanager";
constexpr const char* kEmulator = "emulator/emulator";

// A copy of the test SDK (its tools write into it) and a HOME of its own.
class TestSdk {
 public:
  TestSdk() {
    fs::copy(CLAWPERATOR_EMULATOR_SDK_DIR, sdk(), fs::copy_options::recursive);
    fs::create_directories(home());
  }
  fs::path sdk() const { return root_.path() / "sdk"; }
  fs::path home() const { return root_.path() / "home"; }
  fs::path avds() const { return home() / ".android" / "avd"; }

  RunResult run(const std::string& tool, const std::vector<std::string>& args,
                const std::string& input = "", std::map<std::string, std::string> env = {}) const {
    RunOptions options;
    options.extra_env = {{"ANDROID_HOME", sdk().string()}, {"HOME", home().string()}};
    for (auto& [name, value] : env) options.extra_env[name] = value;
    options.unset_env = {"ANDROID_AVD_HOME",
                         "ANDROID_USER_HOME",
                         "ANDROID_SDK_ROOT",
                         "CLAWPERATOR_TEST_SDK_FAULT",
                         "CLAWPERATOR_TEST_EMULATOR_PORT",
                         "CLAWPERATOR_VDEVICE"};
    for (const auto& [name, value] : options.extra_env) std::erase(options.unset_env, name);
    const fs::path stdin_file = root_.path() / "stdin";
    write_file(stdin_file, input);
    options.stdin_path = stdin_file.string();
    return clawperator::testing::run_binary((sdk() / tool).string(), args, options);
  }
  // The image installed with its license accepted, and Pixel_7 created from it.
  void provision() const {
    REQUIRE(run(kSdkManager, {"--licenses"}, "y\ny\n").exit_code == 0);
    REQUIRE(run(kSdkManager, {kImage}).exit_code == 0);
    REQUIRE(run(kAvdManager,
                {"create", "avd", "--force", "--name", "Pixel_7", "--package", kImage, "--device",
                 "pixel_7"},
                "no\n")
                .exit_code == 0);
  }

 private:
  TemporaryDirectory root_{"emulator-sdk"};
};

}  // namespace

TEST_CASE("test SDK: sdkmanager installs, lists and asks for the license",
          "[integration][emulator]") {
  TestSdk sdk;
  const std::string computing =
      "[=======================================] 100% Computing updates...             \n";
  CHECK(sdk.run(kSdkManager, {"--list_installed"}).out == computing + "Installed packages:\n");
  CHECK(sdk.run(kSdkManager, {"--help"}).exit_code == 0);

  const RunResult declined = sdk.run(kSdkManager, {kImage}, "n\n");
  CHECK(declined.exit_code == 1);
  CHECK(declined.out.find("Skipping following packages as the license is not accepted:") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(sdk.sdk() / ".installed"));

  const RunResult licenses = sdk.run(kSdkManager, {"--licenses"}, "y\ny\n");
  CHECK(licenses.exit_code == 0);
  CHECK(licenses.out.find("All SDK package licenses accepted") != std::string::npos);
  CHECK(fs::exists(sdk.sdk() / "licenses" / "android-sdk-license"));
  CHECK(sdk.run(kSdkManager, {"--licenses"}).out == "All SDK package licenses accepted.\n");

  REQUIRE(sdk.run(kSdkManager, {kImage, "platform-tools"}).exit_code == 0);
  CHECK(read_file((sdk.sdk() / ".installed").string()) ==
        std::string(kImage) + "\nplatform-tools\n");
  CHECK(fs::is_directory(sdk.sdk() / "system-images/android-35/google_apis/x86_64"));
  CHECK(sdk.run(kSdkManager, {"--list_installed"}).out ==
        computing +
            "Installed packages:\n"
            "  Path                                        | Version | Description                "
            "                | Location\n"
            "  -------                                     | ------- | -------                    "
            "                | -------\n"
            "  system-images;android-35;google_apis;x86_64 | 1       | Google APIs Intel x86_64 "
            "Atom System Image | system-images/android-35/google_apis/x86_64\n"
            "  platform-tools                              | 1       | Android SDK Platform-Tools "
            "                | platform-tools\n");

  const RunResult unknown = sdk.run(kSdkManager, {"system-imagez;x"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err == "Warning: Failed to find package 'system-imagez;x'\n");
}

TEST_CASE("test SDK: avdmanager writes the AVD where and as the real one does, lists, deletes",
          "[integration][emulator]") {
  TestSdk sdk;
  const std::vector<std::string> create = {"create",    "avd",  "--force",  "--name", "Pixel_7",
                                           "--package", kImage, "--device", "pixel_7"};
  const RunResult missing_image = sdk.run(kAvdManager, create, "no\n");
  CHECK(missing_image.exit_code == 1);
  CHECK(missing_image.err ==
        "Error: Package path is not valid. Valid system image paths are:\nnull\n");

  sdk.provision();
  CHECK(read_file((sdk.avds() / "Pixel_7.ini").string()) ==
        "avd.ini.encoding=UTF-8\npath=" + (sdk.avds() / "Pixel_7.avd").string() +
            "\npath.rel=avd/Pixel_7.avd\ntarget=android-35\n");
  CHECK(read_file((sdk.avds() / "Pixel_7.avd" / "config.ini").string()) ==
        "AvdId=Pixel_7\nPlayStore.enabled=false\nabi.type=x86_64\navd.ini.displayname=Pixel 7\n"
        "avd.ini.encoding=UTF-8\nhw.cpu.arch=x86_64\nhw.device.manufacturer=Google\n"
        "hw.device.name=pixel_7\nimage.sysdir.1=system-images/android-35/google_apis/x86_64/\n"
        "tag.display=Google APIs\ntag.id=google_apis\ntarget=android-35\n");
  CHECK(sdk.run(kAvdManager, create, "no\n").out ==
        "Do you wish to create a custom hardware profile? [no] \n");

  std::vector<std::string> no_force = create;
  std::erase(no_force, "--force");
  const RunResult exists = sdk.run(kAvdManager, no_force, "no\n");
  CHECK(exists.exit_code == 1);
  CHECK(exists.err ==
        "Error: Android Virtual Device 'Pixel_7' already exists.\n"
        "Use --force if you want to replace it.\n");
  const RunResult bad_name =
      sdk.run(kAvdManager, {"create", "avd", "--name", "my phone", "--package", kImage}, "no\n");
  CHECK(bad_name.exit_code == 1);
  CHECK(bad_name.err.starts_with("Error: AVD name 'my phone' contains invalid characters."));

  CHECK(sdk.run(kAvdManager, {"list", "avd"})
            .out.find("    Name: Pixel_7\n  Device: pixel_7 (Google)\n") != std::string::npos);
  CHECK(sdk.run(kAvdManager, {"list", "avd", "-c"}).out == "Pixel_7\n");
  CHECK(sdk.run(kEmulator, {"-list-avds"}).out == "Pixel_7\n");
  CHECK(sdk.run(kAvdManager, {"--help"}).exit_code == 0);

  const RunResult deleted = sdk.run(kAvdManager, {"delete", "avd", "--name", "Pixel_7"});
  CHECK(deleted.exit_code == 0);
  CHECK(deleted.out.ends_with("AVD 'Pixel_7' deleted.\n"));
  CHECK_FALSE(fs::exists(sdk.avds() / "Pixel_7.ini"));
  CHECK_FALSE(fs::exists(sdk.avds() / "Pixel_7.avd"));
  CHECK(sdk.run(kEmulator, {"-list-avds"}).out.empty());
  const RunResult again = sdk.run(kAvdManager, {"delete", "avd", "--name", "Pixel_7"});
  CHECK(again.exit_code == 1);
  CHECK(again.err == "Error: There is no Android Virtual Device named 'Pixel_7'.\n");
}

TEST_CASE("test SDK: AVDs in ANDROID_AVD_HOME, else ANDROID_USER_HOME/avd",
          "[integration][emulator]") {
  TestSdk sdk;
  REQUIRE(sdk.run(kSdkManager, {"--licenses"}, "y\ny\n").exit_code == 0);
  REQUIRE(sdk.run(kSdkManager, {kImage}).exit_code == 0);
  const fs::path avd_home = sdk.home() / "avd-home";
  const fs::path user_home = sdk.home() / "user-home";
  for (const auto& [variable, dir] : {std::pair{"ANDROID_AVD_HOME", avd_home},
                                      std::pair{"ANDROID_USER_HOME", user_home / "avd"}}) {
    INFO(variable);
    const std::string value =
        std::string(variable) == "ANDROID_AVD_HOME" ? avd_home.string() : user_home.string();
    REQUIRE(sdk.run(kAvdManager,
                    {"create", "avd", "--name", "Tablet", "--package", kImage, "--device",
                     "pixel_tablet"},
                    "\n", {{variable, value}})
                .exit_code == 0);
    CHECK(fs::exists(dir / "Tablet.ini"));
    CHECK(sdk.run(kEmulator, {"-list-avds"}, "", {{variable, value}}).out == "Tablet\n");
  }
  CHECK_FALSE(fs::exists(sdk.avds()));
}

TEST_CASE("test SDK: the fault switches", "[integration][emulator]") {
  TestSdk sdk;
  sdk.provision();
  const RunResult create =
      sdk.run(kAvdManager, {"create", "avd", "--force", "--name", "Other", "--package", kImage},
              "no\n", {{"CLAWPERATOR_TEST_SDK_FAULT", "never_boots,create_fails"}});
  CHECK(create.exit_code == 1);
  CHECK(create.err ==
        "Error: simulated failure creating AVD 'Other' "
        "(CLAWPERATOR_TEST_SDK_FAULT=create_fails)\n");
  CHECK_FALSE(fs::exists(sdk.avds() / "Other.ini"));

  const RunResult install = sdk.run(kSdkManager, {"system-images;android-34;google_apis;x86_64"},
                                    "", {{"CLAWPERATOR_TEST_SDK_FAULT", "image_install_fails"}});
  CHECK(install.exit_code == 1);
  CHECK(install.err.find("simulated download failure") != std::string::npos);
  CHECK(read_file((sdk.sdk() / ".installed").string()) == std::string(kImage) + "\n");

  const RunResult list =
      sdk.run(kEmulator, {"-list-avds"}, "", {{"CLAWPERATOR_TEST_SDK_FAULT", "list_fails"}});
  CHECK(list.exit_code == 1);
  CHECK(list.out.empty());
  CHECK(list.err ==
        "ERROR   | simulated failure listing AVDs (CLAWPERATOR_TEST_SDK_FAULT=list_fails)\n");

  // What the emulator would run: /bin/echo in clawperator-vdevice's place prints it.
  const RunResult flags =
      sdk.run(kEmulator, {"@Pixel_7", "-no-snapshot-load", "-port", "40000"}, "",
              {{"CLAWPERATOR_VDEVICE", "/bin/echo"},
               {"CLAWPERATOR_TEST_SDK_FAULT", "never_registers,never_boots,ignores_kill"}});
  CHECK(flags.exit_code == 0);
  CHECK(flags.out ==
        "emulator --avd Pixel_7 --console-port 40000 --never-register --never-boot "
        "--ignore-kill\n");
}

TEST_CASE("test SDK: emulator refuses an unknown AVD, adb's ports and no port, and records calls",
          "[integration][emulator]") {
  TestSdk sdk;
  sdk.provision();
  const std::map<std::string, std::string> echo = {{"CLAWPERATOR_VDEVICE", "/bin/echo"}};
  const RunResult unknown = sdk.run(kEmulator, {"@Nope", "-port", "40000"}, "", echo);
  CHECK(unknown.exit_code == 1);
  CHECK(
      unknown.err.starts_with("PANIC: Unknown AVD name [Nope], use -list-avds to see valid list.\n"
                              "HOME is defined but there is no file Nope.ini in " +
                              sdk.avds().string() + "\n"));
  const RunResult scanned = sdk.run(kEmulator, {"-avd", "Pixel_7", "-port", "5584"}, "", echo);
  CHECK(scanned.exit_code == 1);
  CHECK(scanned.err.find("refuses port 5584") != std::string::npos);
  const RunResult no_port = sdk.run(kEmulator, {"@Pixel_7"}, "", echo);
  CHECK(no_port.exit_code == 1);
  CHECK(no_port.err.find("needs -port N or CLAWPERATOR_TEST_EMULATOR_PORT") != std::string::npos);
  const RunResult odd = sdk.run(kEmulator, {"@Pixel_7"}, "",
                                {{"CLAWPERATOR_VDEVICE", "/bin/echo"},
                                 {"CLAWPERATOR_TEST_EMULATOR_PORT", "40001"},
                                 {"CLAWPERATOR_TEST_EMULATOR_BOOT_DELAY_MS", "10"}});
  CHECK(odd.out == "emulator --avd Pixel_7 --console-port 40000 --boot-delay-ms 10\n");
  CHECK(odd.err.find("using port number 40000") != std::string::npos);
  const RunResult no_image = [&] {
    fs::remove_all(sdk.sdk() / "system-images");
    return sdk.run(kEmulator, {"@Pixel_7", "-port", "40000"}, "", echo);
  }();
  CHECK(no_image.exit_code == 1);
  CHECK(no_image.err == "PANIC: Cannot find AVD system path. Please define ANDROID_SDK_ROOT\n");
  CHECK(read_file((sdk.sdk() / ".emulator-calls").string()) ==
        "emulator @Nope -port 40000\n"
        "emulator -avd Pixel_7 -port 5584\n"
        "emulator @Pixel_7\n"
        "emulator @Pixel_7\n"
        "emulator @Pixel_7 -port 40000\n");
}

TEST_CASE("test SDK: emulator @NAME is a virtual emulator adb lists, emu kill ends it",
          "[integration][emulator]") {
  TestSdk sdk;
  sdk.provision();
  Farm farm{Farm::Built{}};
  const std::uint16_t port = free_console_port();
  const std::string serial = "emulator-" + std::to_string(port);
  EmulatorProcess emulator(
      {(sdk.sdk() / kEmulator).string(), "@Pixel_7", "-no-snapshot-load", "-no-boot-anim",
       "-no-window", "-no-audio", "-gpu", "swiftshader_indirect"},
      {"ANDROID_HOME=" + sdk.sdk().string(), "HOME=" + sdk.home().string(),
       "ANDROID_ADB_SERVER_PORT=" + std::to_string(farm.farm().adb_server_port()),
       "CLAWPERATOR_TEST_EMULATOR_PORT=" + std::to_string(port),
       "CLAWPERATOR_TEST_EMULATOR_BOOT_DELAY_MS=0",
       std::string("CLAWPERATOR_VDEVICE=") + CLAWPERATOR_VDEVICE_BINARY});
  REQUIRE(eventually(
      [&] { return farm.adb({"devices"}).out.find(serial + "\tdevice") != std::string::npos; },
      5s));
  CHECK(eventually(
      [&] {
        return farm.adb({"-s", serial, "shell", "getprop sys.boot_completed"}).out == "1\n";
      },
      3s));
  RunOptions options;
  options.extra_env = {{"HOME", sdk.home().string()}};
  const std::vector<std::string> emu = {"-P", std::to_string(farm.farm().adb_server_port()), "-s",
                                        serial, "emu"};
  auto with = [&](std::vector<std::string> args, const std::vector<std::string>& tail) {
    args.insert(args.end(), tail.begin(), tail.end());
    return args;
  };
  CHECK(clawperator::testing::run_binary(farm.farm().adb(), with(emu, {"avd", "name"}), options)
            .out == "Pixel_7\r\nOK\r\n");
  CHECK(
      clawperator::testing::run_binary(farm.farm().adb(), with(emu, {"kill"}), options).exit_code ==
      0);
  REQUIRE(emulator.wait_exit(3s));
  CHECK(emulator.exit_code() == 0);
  CHECK(read_file((sdk.sdk() / ".emulator-calls").string()) ==
        "emulator @Pixel_7 -no-snapshot-load -no-boot-anim -no-window -no-audio -gpu "
        "swiftshader_indirect\n");
}
