// The image asked for: the host's ABI by default, the SDK's package name, and whether an AVD
// fits it.
#include "clawperator/emulator/image.hpp"

#include <catch2/catch.hpp>

using namespace clawperator::emulator;

TEST_CASE("the default image follows the host's processor", "[emulator][image]") {
  CHECK(host_abi_for_machine("x86_64") == "x86_64");
  CHECK(host_abi_for_machine("aarch64") == "arm64-v8a");
  CHECK(host_abi_for_machine("arm64") == "arm64-v8a");
  ImageSpec image;
  image.abi = host_abi_for_machine("aarch64");
  // On an arm64 host the defaults are the original's one image.
  CHECK(system_image_package(image) == "system-images;android-35;google_apis_playstore;arm64-v8a");
  image.abi = host_abi_for_machine("x86_64");
  CHECK(system_image_package(image) == "system-images;android-35;google_apis_playstore;x86_64");
  CHECK(default_image().abi == host_abi());
  CHECK(std::string(kDefaultAvdName) == "clawperator-pixel");
}

TEST_CASE("unsupported_reasons judges an AVD against the image asked for", "[emulator][image]") {
  AvdImage avd;
  avd.api_level = 35;
  avd.abi = "x86_64";
  avd.profile = "pixel_7";
  avd.system_image = "system-images;android-35;google_apis;x86_64";
  ImageSpec wanted;
  wanted.abi = "x86_64";
  SECTION("a Play Store request refuses a google_apis image") {
    CHECK(unsupported_reasons(avd, wanted) == std::vector<std::string>{"missing_play_store"});
  }
  SECTION("a google_apis request takes it, and a Play Store image too") {
    wanted.target = "google_apis";
    CHECK(unsupported_reasons(avd, wanted).empty());
    avd.system_image = "system-images;android-35;google_apis_playstore;x86_64";
    avd.play_store = true;
    CHECK(unsupported_reasons(avd, wanted).empty());
  }
  SECTION("a default-image request refuses a google_apis one") {
    wanted.target = "default";
    CHECK(unsupported_reasons(avd, wanted) == std::vector<std::string>{"unsupported_target"});
  }
  SECTION("another ABI on another host") {
    wanted.target = "google_apis";
    wanted.abi = "arm64-v8a";
    CHECK(unsupported_reasons(avd, wanted) == std::vector<std::string>{"unsupported_abi"});
  }
}
