// Where the SDK's tools and the AVDs are found, in the documented order.
#include "clawperator/emulator/sdk_tools.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace clawperator::emulator;

namespace {

SdkTools discover(const std::map<std::string, std::string>& env,
                  const std::set<std::string>& files) {
  return discover_sdk_tools(
      [&env](const char* name) -> std::optional<std::string> {
        const auto found = env.find(name);
        if (found == env.end() || found->second.empty()) return std::nullopt;
        return found->second;
      },
      [&files](const std::filesystem::path& path) { return files.count(path.string()) > 0; });
}

}  // namespace

TEST_CASE("tools: bare names for PATH without an SDK", "[emulator][sdk]") {
  const SdkTools tools = discover({{"HOME", "/home/ci"}}, {});
  CHECK(tools.emulator == "emulator");
  CHECK(tools.sdkmanager == "sdkmanager");
  CHECK(tools.avdmanager == "avdmanager");
  CHECK(tools.emulator_source == "PATH");
  CHECK_FALSE(tools.sdk_root.has_value());
  CHECK(tools.avd_home == "/home/ci/.android/avd");
  CHECK(tools.avd_home_source == "HOME");
}

TEST_CASE("tools: *_PATH, then ANDROID_HOME, then ANDROID_SDK_ROOT, then PATH", "[emulator][sdk]") {
  const std::set<std::string> files = {
      "/sdk-a/emulator/emulator",
      "/sdk-b/cmdline-tools/latest/bin/sdkmanager",
      "/sdk-b/tools/bin/avdmanager",
      "/sdk-a/tools/bin/sdkmanager",
  };
  SdkTools tools = discover({{"ANDROID_HOME", "/sdk-a"}, {"ANDROID_SDK_ROOT", "/sdk-b"}}, files);
  CHECK(tools.sdk_root == std::filesystem::path("/sdk-a"));
  CHECK(tools.emulator == "/sdk-a/emulator/emulator");
  CHECK(tools.emulator_source == "ANDROID_HOME");
  // cmdline-tools/latest before the legacy tools/bin within one root, the roots in order.
  CHECK(tools.sdkmanager == "/sdk-a/tools/bin/sdkmanager");
  CHECK(tools.avdmanager == "/sdk-b/tools/bin/avdmanager");
  CHECK(tools.avdmanager_source == "ANDROID_SDK_ROOT");

  tools = discover({{"ANDROID_HOME", "/sdk-a"}, {"EMULATOR_PATH", "/opt/emu"}}, files);
  CHECK(tools.emulator == "/opt/emu");
  CHECK(tools.emulator_source == "EMULATOR_PATH");
  // An ANDROID_HOME whose files are not there is not used: PATH.
  tools = discover({{"ANDROID_HOME", "/nowhere"}, {"ANDROID_SDK_ROOT", ""}}, files);
  CHECK(tools.emulator == "emulator");
  CHECK(tools.sdk_root == std::filesystem::path("/nowhere"));
}

TEST_CASE("tools: the AVD home", "[emulator][sdk]") {
  CHECK(discover({{"ANDROID_AVD_HOME", "/avds"}, {"ANDROID_USER_HOME", "/u"}, {"HOME", "/h"}}, {})
            .avd_home == "/avds");
  const SdkTools user = discover({{"ANDROID_USER_HOME", "/u"}, {"HOME", "/h"}}, {});
  CHECK(user.avd_home == "/u/avd");
  CHECK(user.avd_home_source == "ANDROID_USER_HOME");
}
