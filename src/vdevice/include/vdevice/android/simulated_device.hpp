// The simulated Android phone behind the virtual device's adb transport.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android {

// An emulator that is still booting: sys.boot_completed and dev.bootcomplete are unset (getprop
// prints an empty line) until `delay` after the start, then "1"; with `never`, they stay unset.
struct BootSpec {
  std::chrono::milliseconds delay{0};
  bool never = false;
};

struct DeviceOptions {
  // The device's boot time on the transport's clock (default: now), and the wall-clock time
  // that corresponds to it (default: now) for log timestamps.
  std::optional<std::chrono::steady_clock::time_point> start;
  std::optional<std::chrono::system_clock::time_point> wall_clock_at_start;
  // Unset: booted from the start, with the scenario's properties.
  std::optional<BootSpec> boot;
};

std::unique_ptr<Device> make_simulated_device(const Scenario& scenario);
std::unique_ptr<Device> make_simulated_device(const Scenario& scenario,
                                              const DeviceOptions& options);

}  // namespace clawperator::vdevice::android
