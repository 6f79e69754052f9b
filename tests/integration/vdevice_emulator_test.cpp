// clawperator-vdevice emulator through the real adb (Debian's 29.0.6): registered with a
// private adb server as emulator-PORT, its console driven by `adb emu`, its boot, its end.
#include <chrono>
#include <string>
#include <vector>

#include "emulator_process.hpp"
#include "farm_fixture.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

namespace {

using namespace std::chrono_literals;
using clawperator::testing::EmulatorProcess;
using clawperator::testing::eventually;
using clawperator::testing::Farm;
using clawperator::testing::free_console_port;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;

// One emulator on a private adb server, with its own HOME (the console's token file).
class EmulatorCase {
 public:
  explicit EmulatorCase(const std::vector<std::string>& flags = {}, bool register_port = true)
      : port_(free_console_port()), serial_("emulator-" + std::to_string(port_)) {
    std::vector<std::string> argv = {
        CLAWPERATOR_VDEVICE_BINARY, "emulator",           "--avd", "Pixel_7",
        "--console-port",           std::to_string(port_)};
    if (register_port) {
      argv.insert(argv.end(),
                  {"--adb-server-port", std::to_string(farm_.farm().adb_server_port())});
    }
    argv.insert(argv.end(), flags.begin(), flags.end());
    emulator_ = std::make_unique<EmulatorProcess>(argv, environment());
  }
  ~EmulatorCase() { emulator_.reset(); }  // reaped before the farm checks for leftovers

  std::vector<std::string> environment() const { return {"HOME=" + home_.path().string()}; }
  const std::string& serial() const { return serial_; }
  std::uint16_t port() const { return port_; }
  EmulatorProcess& process() { return *emulator_; }
  Farm& farm() { return farm_; }

  bool listed() {
    return farm_.adb({"devices"}).out.find(serial_ + "\tdevice") != std::string::npos;
  }
  RunResult shell(const std::string& command) {
    return farm_.adb({"-s", serial_, "shell", command});
  }
  // `adb emu`: the client reads the token from HOME/.emulator_console_auth_token itself.
  RunResult emu(const std::vector<std::string>& command) {
    std::vector<std::string> argv = {"-P", std::to_string(farm_.farm().adb_server_port()), "-s",
                                     serial_, "emu"};
    argv.insert(argv.end(), command.begin(), command.end());
    RunOptions options;
    options.extra_env = {{"HOME", home_.path().string()}};
    return clawperator::testing::run_binary(farm_.farm().adb(), argv, options);
  }
  const std::filesystem::path& home() const { return home_.path(); }

 private:
  Farm farm_{Farm::Built{}};
  TemporaryDirectory home_{"emulator-home"};
  std::uint16_t port_;
  std::string serial_;
  std::unique_ptr<EmulatorProcess> emulator_;
};

}  // namespace

TEST_CASE("vdevice emulator: adb lists it as emulator-PORT and emu avd name names it",
          "[integration][emulator]") {
  EmulatorCase emulator;
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  const RunResult listing = emulator.farm().adb({"devices", "-l"});
  CHECK(listing.out.find(emulator.serial() + "         device product:sdk_gphone64_x86_64 "
                                             "model:sdk_gphone64_x86_64 device:emu64xa") !=
        std::string::npos);
  const RunResult name = emulator.emu({"avd", "name"});
  CHECK(name.exit_code == 0);
  CHECK(name.out == "Pixel_7\r\nOK\r\n");
  CHECK(emulator.shell("getprop ro.kernel.qemu; getprop ro.boot.qemu").out == "1\n1\n");
  // The console created the token file adb read.
  CHECK(std::filesystem::file_size(emulator.home() / ".emulator_console_auth_token") == 16);
  CHECK(emulator.process().out().empty());
}

TEST_CASE("vdevice emulator: the boot completes after --boot-delay-ms", "[integration][emulator]") {
  const auto started = std::chrono::steady_clock::now();
  EmulatorCase emulator({"--boot-delay-ms", "3000"});
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  const RunResult early = emulator.shell("getprop sys.boot_completed; getprop dev.bootcomplete");
  if (std::chrono::steady_clock::now() - started < 2500ms) CHECK(early.out == "\n\n");
  REQUIRE(
      eventually([&] { return emulator.shell("getprop sys.boot_completed").out == "1\n"; }, 6s));
  CHECK(std::chrono::steady_clock::now() - started >= 3000ms);
  CHECK(emulator.shell("getprop dev.bootcomplete").out == "1\n");
}

TEST_CASE("vdevice emulator: --never-boot never completes", "[integration][emulator]") {
  EmulatorCase emulator({"--boot-delay-ms", "0", "--never-boot"});
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  // Never is checked over a while: with a 0 ms delay a booting one has long completed by then.
  std::this_thread::sleep_for(300ms);
  CHECK(emulator.shell("getprop sys.boot_completed").out == "\n");
}

TEST_CASE("vdevice emulator: global settings are put and read back", "[integration][emulator]") {
  EmulatorCase emulator;
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  for (const char* scale :
       {"window_animation_scale", "transition_animation_scale", "animator_duration_scale"}) {
    INFO(scale);
    CHECK(emulator.shell(std::string("settings get global ") + scale).out == "1.0\n");
    CHECK(emulator.shell(std::string("settings put global ") + scale + " 0").exit_code == 0);
    CHECK(emulator.shell(std::string("settings get global ") + scale).out == "0\n");
  }
  for (const char* key : {"development_settings_enabled", "adb_enabled"}) {
    INFO(key);
    CHECK(emulator.shell(std::string("settings put global ") + key + " 1").exit_code == 0);
    CHECK(emulator.shell(std::string("settings get global ") + key).out == "1\n");
  }
}

TEST_CASE("vdevice emulator: emu kill ends it with 0 and adb drops it", "[integration][emulator]") {
  EmulatorCase emulator;
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  const RunResult kill = emulator.emu({"kill"});
  CHECK(kill.exit_code == 0);
  CHECK(kill.out == "OK: killing emulator, bye bye\r\nOK\r\n");
  const auto killed = std::chrono::steady_clock::now();
  REQUIRE(emulator.process().wait_exit(3s));
  CHECK(emulator.process().exit_code() == 0);
  CHECK(emulator.process().err().find("killed by the console's kill command") != std::string::npos);
  // The adb server sees the transport's connection close and removes the device at once.
  CHECK(eventually([&] { return !emulator.listed(); }, 2s));
  CHECK(std::chrono::steady_clock::now() - killed < 2s);
}

TEST_CASE("vdevice emulator: SIGTERM ends it with 0", "[integration][emulator]") {
  EmulatorCase emulator;
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  emulator.process().sigterm();
  REQUIRE(emulator.process().wait_exit(3s));
  CHECK(emulator.process().exit_code() == 0);
  CHECK(eventually([&] { return !emulator.listed(); }, 2s));
}

TEST_CASE("vdevice emulator: --ignore-kill answers kill and keeps running",
          "[integration][emulator]") {
  EmulatorCase emulator({"--ignore-kill"});
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  CHECK(emulator.emu({"kill"}).out == "OK: killing emulator, bye bye\r\nOK\r\n");
  CHECK(emulator.process().runs_for(700ms));
  CHECK(emulator.listed());
  emulator.process().sigterm();
  REQUIRE(emulator.process().wait_exit(3s));
  CHECK(emulator.process().exit_code() == 0);
  CHECK(emulator.process().err().find("kill ignored") != std::string::npos);
}

TEST_CASE("vdevice emulator: --never-register listens but adb never lists it",
          "[integration][emulator]") {
  EmulatorCase emulator({"--never-register"});
  // The console answers (adb emu connects to it directly), the adb server never hears of it.
  REQUIRE(eventually([&] { return emulator.emu({"avd", "name"}).out == "Pixel_7\r\nOK\r\n"; }, 5s));
  // Never is checked over a while: a registered emulator is listed well within a second.
  std::this_thread::sleep_for(1s);
  CHECK_FALSE(emulator.listed());
  emulator.process().sigterm();
  REQUIRE(emulator.process().wait_exit(3s));
  CHECK(emulator.process().err().find("--never-register") != std::string::npos);
}

TEST_CASE("vdevice emulator: a wrong token in adb's HOME: kill is refused, it keeps running",
          "[integration][emulator]") {
  EmulatorCase emulator;
  REQUIRE(eventually([&] { return emulator.listed(); }, 5s));
  clawperator::testing::write_file(emulator.home() / ".emulator_console_auth_token", "wrong");
  const RunResult kill = emulator.emu({"kill"});
  // adb exits 0 whatever the console answered: only the text tells.
  CHECK(kill.exit_code == 0);
  CHECK(kill.out ==
        "KO: authentication token does not match ~/.emulator_console_auth_token\r\n"
        "KO: unknown command, try 'help'\r\n");
  CHECK(emulator.process().runs_for(500ms));
}

TEST_CASE("vdevice emulator: without an adb server it runs unregistered",
          "[integration][emulator]") {
  EmulatorCase emulator({"--adb-server-port", std::to_string(free_console_port())}, false);
  CHECK(emulator.process().runs_for(700ms));
  emulator.process().sigterm();
  REQUIRE(emulator.process().wait_exit(3s));
  CHECK(emulator.process().exit_code() == 0);
  CHECK(emulator.process().err().find("not registered, adb will not list " + emulator.serial() +
                                      ": cannot connect to the adb server") != std::string::npos);
}

TEST_CASE("vdevice emulator: a busy port is exit 1, a bad server port exit 2",
          "[integration][emulator]") {
  EmulatorCase first({"--never-register"});
  REQUIRE(eventually([&] { return first.emu({"avd", "name"}).out == "Pixel_7\r\nOK\r\n"; }, 5s));
  EmulatorProcess second({CLAWPERATOR_VDEVICE_BINARY, "emulator", "--avd", "Other",
                          "--console-port", std::to_string(first.port()), "--never-register"},
                         first.environment());
  REQUIRE(second.wait_exit(3s));
  CHECK(second.exit_code() == 1);
  CHECK(second.err().find("cannot listen: bind 127.0.0.1:" + std::to_string(first.port())) !=
        std::string::npos);

  EmulatorProcess bad_env({CLAWPERATOR_VDEVICE_BINARY, "emulator", "--avd", "Other",
                           "--console-port", std::to_string(free_console_port())},
                          {"ANDROID_ADB_SERVER_PORT=70000", "HOME=/nonexistent"});
  REQUIRE(bad_env.wait_exit(3s));
  CHECK(bad_env.exit_code() == 2);
  CHECK(bad_env.err() ==
        "clawperator-vdevice: ANDROID_ADB_SERVER_PORT must be a number in 1..65535, not "
        "\"70000\"\n");
}

TEST_CASE("vdevice emulator: without a token file the console refuses, the device still serves",
          "[integration][emulator]") {
  Farm farm{Farm::Built{}};
  const std::uint16_t port = free_console_port();
  const std::string serial = "emulator-" + std::to_string(port);
  EmulatorProcess emulator(
      {CLAWPERATOR_VDEVICE_BINARY, "emulator", "--avd", "Pixel_7", "--console-port",
       std::to_string(port), "--adb-server-port", std::to_string(farm.farm().adb_server_port())},
      {"HOME=/nonexistent/clawperator-home"});
  REQUIRE(eventually(
      [&] { return farm.adb({"devices"}).out.find(serial + "\tdevice") != std::string::npos; },
      5s));
  RunOptions options;
  options.extra_env = {{"HOME", "/nonexistent/clawperator-home"}};
  const RunResult name = clawperator::testing::run_binary(
      farm.farm().adb(),
      {"-P", std::to_string(farm.farm().adb_server_port()), "-s", serial, "emu", "avd", "name"},
      options);
  CHECK(name.out.empty());
  emulator.sigterm();
  REQUIRE(emulator.wait_exit(3s));
  CHECK(emulator.err().find("ERROR: Unable to access '/nonexistent/clawperator-home/"
                            ".emulator_console_auth_token': emulator console will not work") !=
        std::string::npos);
}
