// Where the Android SDK's tools and the AVDs are (docs/emulator.md, "Finding the SDK"). Pure:
// the environment and the file system are asked through the functions given.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "clawperator/json.hpp"

namespace clawperator::emulator {

struct SdkTools {
  std::optional<std::filesystem::path> sdk_root;  // the ANDROID_HOME or ANDROID_SDK_ROOT used
  std::string emulator;                           // a path, or a bare name looked up in PATH
  std::string sdkmanager;
  std::string avdmanager;
  std::filesystem::path avd_home;
  // Where each came from: "EMULATOR_PATH", "ANDROID_HOME", "ANDROID_SDK_ROOT", "PATH"; the AVD
  // home "ANDROID_AVD_HOME", "ANDROID_USER_HOME", "HOME".
  std::string emulator_source, sdkmanager_source, avdmanager_source, avd_home_source;
};

using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
using IsFile = std::function<bool(const std::filesystem::path&)>;

// For each tool: its *_PATH variable when set (the user named the file), else the first of its
// places in ANDROID_HOME then ANDROID_SDK_ROOT that is a file (emulator/emulator;
// cmdline-tools/latest/bin/…, then tools/bin/…), else its bare name for PATH. The AVD home:
// ANDROID_AVD_HOME, else ANDROID_USER_HOME/avd, else HOME/.android/avd. Empty variables are
// unset ones.
SdkTools discover_sdk_tools(const EnvLookup& env, const IsFile& is_file);
// The same from this process's environment and file system.
SdkTools discover_sdk_tools();

// {sdkRoot, emulator, sdkmanager, avdmanager, avdHome} with each one's source.
Json to_json(const SdkTools& tools);

}  // namespace clawperator::emulator
