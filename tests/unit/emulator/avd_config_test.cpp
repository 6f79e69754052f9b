// An AVD's files as the emulator reads them, and the AVD as inspect reports it.
#include "clawperator/emulator/avd_config.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::emulator;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;

namespace {

ImageSpec x86_playstore() {
  ImageSpec image;
  image.abi = "x86_64";
  return image;
}

void write_avd(const std::filesystem::path& home, const std::string& name,
               const std::string& config, const std::string& top) {
  std::filesystem::create_directories(home / (name + ".avd"));
  write_file(home / (name + ".avd") / "config.ini", config);
  write_file(home / (name + ".ini"), top);
}

}  // namespace

TEST_CASE("parse_ini: trimmed pairs, comments and keyless lines skipped, the last key wins",
          "[emulator][avd]") {
  const auto ini = parse_ini(
      "# a comment\n"
      "  abi.type = x86_64  \r\n"
      "\n"
      "=no key\n"
      "no equals sign\n"
      "hw.device.name=pixel_7\n"
      "hw.device.name=pixel_9\n"
      "empty=\n"
      "path=/a=b\n");
  CHECK(ini == std::map<std::string, std::string>{{"abi.type", "x86_64"},
                                                  {"hw.device.name", "pixel_9"},
                                                  {"empty", ""},
                                                  {"path", "/a=b"}});
  CHECK(parse_ini("").empty());
}

TEST_CASE("read_configured_avd: a supported AVD, key for key", "[emulator][avd]") {
  const TemporaryDirectory home{"avd-home"};
  write_avd(home.path(), "clawperator-pixel",
            "AvdId=clawperator-pixel\nabi.type=x86_64\nhw.device.name=pixel_7\n"
            "image.sysdir.1=system-images/android-35/google_apis_playstore/x86_64/\n"
            "tag.id=google_apis_playstore\nPlayStore.enabled=true\n",
            "avd.ini.encoding=UTF-8\ntarget=android-35\n");
  const ConfiguredAvd avd =
      read_configured_avd(home.path(), "clawperator-pixel", x86_playstore(), true);
  CHECK(to_json(avd) == Json::parse(R"({
    "name": "clawperator-pixel", "exists": true, "running": true, "apiLevel": 35,
    "abi": "x86_64", "playStore": true, "deviceProfile": "pixel_7",
    "systemImage": "system-images;android-35;google_apis_playstore;x86_64",
    "supported": true, "unsupportedReasons": []})"));
}

TEST_CASE("read_configured_avd: the reasons, in the original's order", "[emulator][avd]") {
  const TemporaryDirectory home{"avd-home"};
  SECTION("API 36 and pixel_9") {
    write_avd(home.path(), "other",
              "abi.type=x86_64\nhw.device.name=pixel_9\n"
              "image.sysdir.1=system-images/android-36/google_apis_playstore/x86_64/\n",
              "target=android-36\n");
    const ConfiguredAvd avd = read_configured_avd(home.path(), "other", x86_playstore(), false);
    CHECK(avd.unsupported_reasons ==
          std::vector<std::string>{"unsupported_api_level", "unsupported_device_profile"});
    CHECK_FALSE(avd.supported());
  }
  SECTION("PlayStore.enabled=no with a Play Store image is still Play Store") {
    write_avd(home.path(), "ps",
              "PlayStore.enabled=no\nabi.type=x86_64\nhw.device.name=pixel_7\n"
              "image.sysdir.1=system-images/android-35/google_apis_playstore_ps16k/x86_64/\n",
              "");
    const ConfiguredAvd avd = read_configured_avd(home.path(), "ps", x86_playstore(), false);
    CHECK(avd.image.play_store);
    CHECK(avd.image.api_level == 35);  // from image.sysdir.1 when no target says it
    CHECK(avd.supported());
  }
  SECTION("a missing AVD is no error: every reason") {
    const ConfiguredAvd avd = read_configured_avd(home.path(), "absent", x86_playstore(), false);
    CHECK_FALSE(avd.exists);
    CHECK(avd.unsupported_reasons ==
          std::vector<std::string>{"missing_play_store", "unsupported_api_level", "unsupported_abi",
                                   "unsupported_device_profile"});
    CHECK(to_json(avd).at("apiLevel").is_null());
  }
  SECTION("a name that would leave the AVD home is not read") {
    write_avd(home.path(), "x", "abi.type=x86_64\n", "");
    CHECK_FALSE(read_configured_avd(home.path() / "sub", "../x", x86_playstore(), false).exists);
  }
}

TEST_CASE("is_valid_avd_name", "[emulator][avd]") {
  for (const char* good : {"clawperator-pixel", "ci_35", "Pixel.7", "a"}) {
    INFO(good);
    CHECK(is_valid_avd_name(good));
  }
  for (const char* bad : {"", "-rf", ".hidden", "a/b", "../x", "a b", "a\nb"}) {
    INFO(bad);
    CHECK_FALSE(is_valid_avd_name(bad));
  }
  CHECK_FALSE(is_valid_avd_name(std::string(129, 'a')));
}
