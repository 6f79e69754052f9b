// clawperator-vdevice's command line (src/vdevice/cli.cpp): one definition for the executable
// (src/vdevice/main.cpp) and for its man page and shell completions
// (tools/generate_cli_docs.cpp), so that neither can drift from what the program accepts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vdevice/android/formats/virtual_apk.hpp"

namespace CLI {
class App;
}

namespace clawperator::vdevice {

// What the parsed arguments fill in, and the subcommands to ask which one ran.
struct VdeviceCommandLine {
  std::uint16_t port = 0;                       // serve
  std::vector<std::string> serve_scenarios;     // serve: at most one
  std::size_t count = 1;                        // with, up
  std::vector<std::string> scenarios;           // with, up: one per device
  std::string adb = "adb";                      // with, up
  std::string chromium;                         // serve, with, up: empty when not given
  std::vector<std::string> command;             // with
  android::VirtualApkManifest manifest;         // make-apk
  std::string apk_output;                       // make-apk
  std::string avd;                              // emulator
  std::uint16_t console_port = 0;               // emulator
  std::int64_t boot_delay_ms = 1500;            // emulator
  std::vector<std::string> emulator_scenarios;  // emulator: at most one
  bool never_register = false;                  // emulator
  bool never_boot = false;                      // emulator
  bool ignore_kill = false;                     // emulator
  std::uint16_t adb_server_port = 0;            // emulator: 0 when not given
  CLI::App* serve = nullptr;
  CLI::App* with = nullptr;
  CLI::App* up = nullptr;
  CLI::App* make_apk = nullptr;
  CLI::App* emulator = nullptr;
};

// The app, bound to `line` (which must outlive it).
std::unique_ptr<CLI::App> build_vdevice_cli(VdeviceCommandLine& line);

}  // namespace clawperator::vdevice
