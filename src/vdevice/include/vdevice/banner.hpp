// The CNXN banner a device sends; adb turns it into `product:… model:… device:…`
// in `adb devices -l` (spaces in the model become '_').
#pragma once

#include <string>
#include <string_view>

namespace clawperator::vdevice {

// The features adb looks for (shell_v2 gives `adb shell` exit codes). No abb/abb_exec:
// the transport does not serve them, and adb would prefer them for `adb install`.
inline constexpr std::string_view kDeviceFeatures =
    "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,fixed_push_symlink_timestamp,"
    "remount_shell,track_app,sendrecv_v2,sendrecv_v2_brotli,sendrecv_v2_lz4,sendrecv_v2_zstd,"
    "sendrecv_v2_dry_run_send,openscreen_mdns";

std::string device_banner(std::string_view product_name, std::string_view model,
                          std::string_view device_name,
                          std::string_view features = kDeviceFeatures);

}  // namespace clawperator::vdevice
