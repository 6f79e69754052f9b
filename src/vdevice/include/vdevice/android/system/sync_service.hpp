// `sync:` on the simulated device: adb push and pull against its FileSystem, answering as
// adbd's file_sync_service does (FAIL messages "couldn't create file: …", "open failed: …").
#pragma once

#include <memory>

#include "vdevice/android/system/android_system.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android {

std::unique_ptr<ServiceSession> start_sync_session(const std::shared_ptr<AndroidSystem>& system,
                                                   ServiceOutput& out);

}  // namespace clawperator::vdevice::android
