// Android's fixed uids (AIDs, system/core's android_filesystem_config.h) and the names
// getpwuid gives them on a device, which `logcat -v uid` prints. App uids (10000 and up) are
// the package manager's: see PackageSpec::uid.
#pragma once

#include <optional>
#include <string_view>

namespace clawperator::vdevice::android {

inline constexpr int kRootUid = 0;
inline constexpr int kSystemUid = 1000;  // system_server, SurfaceFlinger, system apps
inline constexpr int kBluetoothUid = 1002;
inline constexpr int kWifiUid = 1010;   // wpa_supplicant, wificond
inline constexpr int kShellUid = 2000;  // adb shell and what it runs

// The AID's user name ("shell" for 2000); nullopt for an app uid or an unnamed one.
std::optional<std::string_view> android_id_name(int uid);

}  // namespace clawperator::vdevice::android
