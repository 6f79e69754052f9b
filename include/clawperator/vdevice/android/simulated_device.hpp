// The simulated Android phone behind the virtual device's adb transport.
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "clawperator/vdevice/android/scenario.hpp"
#include "clawperator/vdevice/device.hpp"

namespace clawperator::vdevice::android {

struct DeviceOptions {
  // The device's boot time on the transport's clock (default: now), and the wall-clock time
  // that corresponds to it (default: now) for log timestamps.
  std::optional<std::chrono::steady_clock::time_point> start;
  std::optional<std::chrono::system_clock::time_point> wall_clock_at_start;
};

std::unique_ptr<Device> make_simulated_device(const Scenario& scenario);
std::unique_ptr<Device> make_simulated_device(const Scenario& scenario,
                                              const DeviceOptions& options);

}  // namespace clawperator::vdevice::android
