// clawperator-vdevice: an Android phone the real adb can connect to, with a
// simulated Operator inside (docs/vdevice.md).
//
//   clawperator-vdevice serve [--port P] [--scenario FILE]
//       one device on 127.0.0.1:P; connect it yourself with `adb connect`.
//   clawperator-vdevice with [--count N] [--scenario FILE]... -- COMMAND [ARGS...]
//       N devices behind a private adb server, COMMAND run with ANDROID_ADB_SERVER_PORT
//       (and ANDROID_SERIAL for one device) set; everything torn down when it exits.
//   clawperator-vdevice up [--count N] [--scenario FILE]...
//       the same, printing the serials and waiting for Ctrl-C.
//   clawperator-vdevice scenario
//       prints the built-in default scenario (a starting point for your own).
//   clawperator-vdevice make-apk --package P --version-name V --version-code N --output FILE
//       writes a virtual APK: `adb install FILE` installs P at that version on a virtual device.
//   clawperator-vdevice emulator --avd NAME --console-port PORT [...]
//       one device that adb sees as emulator-PORT (the console on PORT, adb on PORT+1).
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <thread>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/json.hpp"
#include "vdevice/adb/server.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"
#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/simulated_device.hpp"
#include "vdevice/cli.hpp"
#include "vdevice/emulator/adb_registration.hpp"
#include "vdevice/emulator/emulator.hpp"
#include "vdevice/farm.hpp"

extern char** environ;

namespace {

using clawperator::Json;
namespace vdevice = clawperator::vdevice;
namespace android = clawperator::vdevice::android;

std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;

void on_signal(int signal) {
  g_signal = signal;
  g_stop = true;
}

void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGHUP, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

int fail(const std::string& message) {
  std::cerr << "clawperator-vdevice: " << message << '\n';
  return 1;
}

constexpr int kUsageExit = 2;

int usage_error(const std::string& message) {
  std::cerr << "clawperator-vdevice: " << message << '\n';
  return kUsageExit;
}

int make_apk(const android::VirtualApkManifest& manifest, const std::string& output) {
  if (auto checked = android::check_package_name(manifest.package); !checked) {
    return usage_error("--package: \"" + manifest.package + "\" " + checked.error().message);
  }
  if (manifest.version_code < 0) return usage_error("--version-code: must not be negative");
  if (output.empty()) return usage_error("--output: expected a file name");
  const std::string apk = android::make_virtual_apk(manifest);
  if (const auto written = clawperator::io::write_file_atomically(output, apk); !written) {
    return fail("cannot write " + written.error().text());
  }
  Json written = {{"apk", output},
                  {"package", manifest.package},
                  {"versionName", manifest.version_name},
                  {"versionCode", manifest.version_code},
                  {"bytes", apk.size()}};
  std::cout << clawperator::dump_json(written) << std::endl;
  return 0;
}

// The scenarios named on the command line, or the default one `count` times.
bool load_scenarios(const std::vector<std::string>& files, std::size_t count,
                    std::vector<android::Scenario>& out, std::string& error) {
  for (const std::string& file : files) {
    auto scenario = android::load_scenario_file(file);
    if (!scenario) {
      error = scenario.error().text();  // its path is the file
      return false;
    }
    out.push_back(std::move(scenario).value());
  }
  if (out.empty()) out.push_back(android::default_scenario());
  while (out.size() < count) out.push_back(out.back());
  return true;
}

int serve(std::uint16_t port, const std::vector<std::string>& files) {
  std::vector<android::Scenario> scenarios;
  std::string error;
  if (!load_scenarios(files, 1, scenarios, error)) return fail(error);
  auto device = android::make_simulated_device(scenarios.front());
  std::unique_ptr<vdevice::adb::AdbDeviceServer> server;
  try {
    server = std::make_unique<vdevice::adb::AdbDeviceServer>(*device, "127.0.0.1", port);
  } catch (const std::exception& exception) {
    return fail(std::string("cannot listen: ") + exception.what());
  }
  Json ready = {{"serial", "127.0.0.1:" + std::to_string(server->port())},
                {"port", server->port()}};
  std::cout << clawperator::dump_json(ready) << std::endl;
  return server->run(g_stop) ? 0 : fail(server->error());
}

// Runs the command with the farm's environment; returns its exit code.
int run_command(const std::vector<std::string>& command, const vdevice::VirtualDeviceFarm& farm) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string item = *entry;
    if (item.rfind("ANDROID_ADB_SERVER_PORT=", 0) == 0 || item.rfind("ANDROID_SERIAL=", 0) == 0) {
      continue;
    }
    environment.push_back(item);
  }
  environment.push_back("ANDROID_ADB_SERVER_PORT=" + std::to_string(farm.adb_server_port()));
  std::string serials;
  for (const std::string& serial : farm.serials()) serials += (serials.empty() ? "" : " ") + serial;
  environment.push_back("CLAWPERATOR_VDEVICE_SERIALS=" + serials);
  if (farm.serials().size() == 1) environment.push_back("ANDROID_SERIAL=" + farm.serials()[0]);

  std::vector<char*> envp;
  for (std::string& item : environment) envp.push_back(item.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = command;
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (spawned != 0) return fail(command[0] + ": " + std::strerror(spawned)), 127;
  int status = 0;
  bool forwarded = false;
  while (true) {
    const pid_t done = waitpid(pid, &status, 0);
    if (done == pid) break;
    if (done < 0 && errno == EINTR) {
      // Ctrl-C reaches the command through the terminal; SIGTERM is ours to pass on.
      if (g_signal == SIGTERM && !forwarded) {
        kill(pid, SIGTERM);
        forwarded = true;
      }
      continue;
    }
    return fail(std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int with_farm(std::size_t count, const std::vector<std::string>& files, const std::string& adb,
              const std::vector<std::string>& command) {
  vdevice::VirtualDeviceFarm::Options options;
  std::string error;
  if (!load_scenarios(files, count, options.scenarios, error)) return fail(error);
  options.adb = adb;
  auto farm = vdevice::VirtualDeviceFarm::start(std::move(options));
  if (!farm) return fail(farm.error().text());
  if (!command.empty()) return run_command(command, **farm);

  Json ready = {{"adbServerPort", (*farm)->adb_server_port()}, {"serials", (*farm)->serials()}};
  std::cout << clawperator::dump_json(ready) << std::endl;
  std::cerr << "clawperator-vdevice: ready; use ANDROID_ADB_SERVER_PORT="
            << (*farm)->adb_server_port() << ". Ctrl-C stops.\n";
  while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return 0;
}

int emulate(const vdevice::VdeviceCommandLine& line) {
  namespace emulator = vdevice::emulator;
  const auto server_port = emulator::adb_server_port(
      line.adb_server_port == 0 ? std::nullopt : std::optional<std::uint16_t>(line.adb_server_port),
      std::getenv("ANDROID_ADB_SERVER_PORT"));
  if (!server_port) return usage_error(server_port.error().text());
  std::vector<android::Scenario> scenarios;
  std::string error;
  if (!load_scenarios(line.emulator_scenarios, 1, scenarios, error)) return fail(error);
  emulator::EmulatorOptions options;
  options.avd = line.avd;
  options.console_port = line.console_port;
  options.boot_delay = std::chrono::milliseconds(line.boot_delay_ms);
  options.never_register = line.never_register;
  options.never_boot = line.never_boot;
  options.ignore_kill = line.ignore_kill;
  options.adb_server_port = *server_port;
  const char* home = std::getenv("HOME");
  options.home = home != nullptr ? home : "";
  return emulator::run_emulator(options, emulator::emulator_scenario(scenarios.front(), line.avd),
                                g_stop, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  install_signal_handlers();
  vdevice::VdeviceCommandLine line;
  const std::unique_ptr<CLI::App> app = vdevice::build_vdevice_cli(line);
  std::vector<std::string>& command = line.command;

  // Everything after the first "--" is the command of `with`, flags included:
  // CLI11 would otherwise still match "--count" or "--help" in it.
  int own_argc = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      own_argc = i;
      command.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  if (own_argc != argc && !command.empty()) {
    line.with->get_option("command")->required(false);
  }
  try {
    app->parse(own_argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help is a ParseError too, with exit code 0.
    return app->exit(error) == 0 ? 0 : kUsageExit;
  }
  // The devices read it when a WebView's DevTools socket first needs Chromium
  // (src/vdevice/android/system/chromium_browser.cpp), in whichever thread serves them.
  if (!line.chromium.empty()) ::setenv("CLAWPERATOR_VDEVICE_CHROMIUM", line.chromium.c_str(), 1);
  if (line.serve->parsed()) return serve(line.port, line.serve_scenarios);
  if (line.with->parsed()) return with_farm(line.count, line.scenarios, line.adb, command);
  if (line.up->parsed()) return with_farm(line.count, line.scenarios, line.adb, {});
  if (line.make_apk->parsed()) return make_apk(line.manifest, line.apk_output);
  if (line.emulator->parsed()) return emulate(line);
  std::cout << android::default_scenario_json();
  return 0;
}
