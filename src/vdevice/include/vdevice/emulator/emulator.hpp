// `clawperator-vdevice emulator`: one virtual device that behaves towards adb as an Android
// emulator does. The console on 127.0.0.1:PORT, the adb transport (the same device side as
// `serve`) on PORT+1, `host:emulator:PORT+1` sent to the adb server so that it connects and
// lists emulator-PORT, and a boot that completes after a delay (docs/vdevice.md,
// "Emulator mode").
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "vdevice/android/scenario/scenario.hpp"

namespace clawperator::vdevice::emulator {

struct EmulatorOptions {
  std::string avd;
  std::uint16_t console_port = 0;  // the adb transport is on the next port
  std::chrono::milliseconds boot_delay{1500};
  bool never_register = false;
  bool never_boot = false;
  bool ignore_kill = false;
  std::uint16_t adb_server_port = 5037;
  std::string home;  // where the console's token file lives (HOME); empty: unset
};

// The scenario dressed as an emulator of the AVD: ro.kernel.qemu and ro.boot.qemu 1, the
// sdk_gphone64_x86_64 product, the AVD's name in ro.boot.qemu.avd_name; the global animation
// scales 1.0 unless the scenario sets them.
android::Scenario emulator_scenario(android::Scenario scenario, const std::string& avd);

// Runs until an authenticated `kill` on the console (unless ignore_kill) or until `stop`
// becomes true (SIGINT, SIGTERM): 0. 1 when a port cannot be listened on or a loop fails.
// Diagnostics go to `log`, one line each; nothing is written anywhere else.
int run_emulator(const EmulatorOptions& options, const android::Scenario& scenario,
                 const std::atomic<bool>& stop, std::ostream& log);

}  // namespace clawperator::vdevice::emulator
