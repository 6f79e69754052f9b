#include "clawperator/emulator/image.hpp"

#include <sys/utsname.h>

namespace clawperator::emulator {

std::string host_abi_for_machine(std::string_view machine) {
  if (machine == "aarch64" || machine == "arm64" || machine.substr(0, 5) == "armv8") {
    return "arm64-v8a";
  }
  // Every other host the emulator runs on (x86_64, and i686 for what it is worth) runs x86_64
  // images with hardware acceleration.
  return "x86_64";
}

std::string host_abi() {
  struct utsname name {};
  if (::uname(&name) != 0) return "x86_64";
  return host_abi_for_machine(name.machine);
}

ImageSpec default_image() {
  ImageSpec image;
  image.abi = host_abi();
  return image;
}

std::string system_image_package(const ImageSpec& image) {
  return "system-images;android-" + std::to_string(image.api_level) + ";" + image.target + ";" +
         image.abi;
}

namespace {

// The tag in "system-images;android-35;TAG;ABI".
std::optional<std::string> tag_of(const std::optional<std::string>& system_image) {
  if (!system_image) return std::nullopt;
  const std::string& text = *system_image;
  const std::size_t first = text.find(';');
  if (first == std::string::npos) return std::nullopt;
  const std::size_t second = text.find(';', first + 1);
  if (second == std::string::npos) return std::nullopt;
  const std::size_t third = text.find(';', second + 1);
  return text.substr(second + 1,
                     third == std::string::npos ? std::string::npos : third - second - 1);
}

}  // namespace

std::vector<std::string> unsupported_reasons(const AvdImage& avd, const ImageSpec& wanted) {
  std::vector<std::string> reasons;
  const bool wants_play_store = wanted.target == "google_apis_playstore";
  const std::optional<std::string> tag = tag_of(avd.system_image);
  // The original's test: a Play Store AVD is one whose image is a Play Store one (the
  // `_ps16k` page-size variants included).
  const bool play_store_image =
      avd.play_store && avd.system_image &&
      avd.system_image->find("google_apis_playstore") != std::string::npos;
  if (wants_play_store && !play_store_image) reasons.emplace_back("missing_play_store");
  if (avd.api_level != wanted.api_level) reasons.emplace_back("unsupported_api_level");
  if (avd.abi != wanted.abi) reasons.emplace_back("unsupported_abi");
  if (avd.profile != wanted.profile) reasons.emplace_back("unsupported_device_profile");
  if (!wants_play_store) {
    const bool fits =
        tag && (*tag == wanted.target ||
                (wanted.target == "google_apis" && tag->rfind("google_apis_playstore", 0) == 0));
    if (!fits) reasons.emplace_back("unsupported_target");
  }
  return reasons;
}

}  // namespace clawperator::emulator
