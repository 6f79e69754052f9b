#include "vdevice/android/system/android_ids.hpp"

namespace clawperator::vdevice::android {

std::optional<std::string_view> android_id_name(int uid) {
  // A selection of android_filesystem_config.h: the short names logcat can print, and a few
  // longer ones (system, bluetooth) that it prints as numbers.
  switch (uid) {
    case kRootUid:
      return "root";
    case kSystemUid:
      return "system";
    case 1001:
      return "radio";
    case kBluetoothUid:
      return "bluetooth";
    case 1005:
      return "audio";
    case 1007:
      return "log";
    case kWifiUid:
      return "wifi";
    case 1011:
      return "adb";
    case 1013:
      return "media";
    case 1027:
      return "nfc";
    case 1036:
      return "logd";
    case 1041:
      return "audioserver";
    case kShellUid:
      return "shell";
    case 9999:
      return "nobody";
    default:
      return std::nullopt;
  }
}

}  // namespace clawperator::vdevice::android
