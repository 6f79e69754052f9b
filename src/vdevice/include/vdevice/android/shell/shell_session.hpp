// A `shell:` / `exec:` stream: the device's sh running one command line (or, with an empty
// command, an interactive shell fed by the stream's input), writing to the transport's output.
#pragma once

#include <memory>
#include <string>

#include "vdevice/android/system/android_system.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android {

std::unique_ptr<ServiceSession> start_shell_session(const std::shared_ptr<AndroidSystem>& system,
                                                    const std::string& command, ServiceOutput& out);

}  // namespace clawperator::vdevice::android
