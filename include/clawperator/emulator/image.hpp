// The system image an emulator runs, and whether an AVD fits the one asked for
// (docs/emulator.md, "Images"). The original knew one image (API 35, Play Store, arm64-v8a,
// pixel_7): right on an Apple laptop, wrong on the x86_64 runners where CI runs, so the ABI
// defaults to the host's and every part can be asked for. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::emulator {

inline constexpr std::string_view kDefaultAvdName = "clawperator-pixel";
inline constexpr int kDefaultApiLevel = 35;
inline constexpr std::string_view kDefaultTarget = "google_apis_playstore";
inline constexpr std::string_view kDefaultProfile = "pixel_7";

// The `--target` values: the SDK's system-image tags.
inline constexpr std::string_view kTargets[] = {"google_apis", "google_apis_playstore", "default"};

struct ImageSpec {
  int api_level = kDefaultApiLevel;
  std::string target = std::string(kDefaultTarget);
  std::string abi;  // arm64-v8a or x86_64
  std::string profile = std::string(kDefaultProfile);
};

// The ABI whose images run without translation on this host's processor ("x86_64",
// "arm64-v8a"), from the machine name uname(2) reports ("x86_64", "aarch64", "arm64").
std::string host_abi_for_machine(std::string_view machine);
std::string host_abi();

// The image of the defaults on this host.
ImageSpec default_image();

// "system-images;android-35;google_apis_playstore;x86_64", as sdkmanager names it.
std::string system_image_package(const ImageSpec& image);

// What an AVD's files say of its image (avd_config.hpp reads them).
struct AvdImage {
  std::optional<int> api_level;
  std::optional<std::string> abi;
  std::optional<std::string> profile;
  std::optional<std::string> system_image;  // "system-images;android-35;…"
  bool play_store = false;
};

// Why the AVD does not fit `wanted`, in the original's order and words: missing_play_store
// (only when a Play Store image is wanted), unsupported_api_level, unsupported_abi,
// unsupported_device_profile; then unsupported_target when it has another tag (a Play Store
// AVD fits a google_apis request: it has the Google APIs too). Empty: it fits.
std::vector<std::string> unsupported_reasons(const AvdImage& avd, const ImageSpec& wanted);

}  // namespace clawperator::emulator
