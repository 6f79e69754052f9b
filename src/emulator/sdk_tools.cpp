#include "clawperator/emulator/sdk_tools.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <vector>

namespace clawperator::emulator {
namespace {

namespace fs = std::filesystem;

struct Tool {
  const char* override_variable;
  const char* name;
  std::vector<fs::path> places;  // relative to an SDK root
};

void find_tool(const Tool& tool, const EnvLookup& env, const IsFile& is_file,
               const std::vector<std::pair<const char*, fs::path>>& roots, std::string& path,
               std::string& source) {
  if (auto named = env(tool.override_variable)) {
    path = *named;
    source = tool.override_variable;
    return;
  }
  for (const auto& [variable, root] : roots) {
    for (const fs::path& place : tool.places) {
      if (is_file(root / place)) {
        path = (root / place).string();
        source = variable;
        return;
      }
    }
  }
  path = tool.name;
  source = "PATH";
}

}  // namespace

SdkTools discover_sdk_tools(const EnvLookup& env, const IsFile& is_file) {
  SdkTools tools;
  std::vector<std::pair<const char*, fs::path>> roots;
  for (const char* variable : {"ANDROID_HOME", "ANDROID_SDK_ROOT"}) {
    if (auto root = env(variable)) {
      roots.emplace_back(variable, *root);
      if (!tools.sdk_root) tools.sdk_root = fs::path(*root);
    }
  }
  find_tool({"EMULATOR_PATH", "emulator", {"emulator/emulator"}}, env, is_file, roots,
            tools.emulator, tools.emulator_source);
  find_tool({"SDKMANAGER_PATH",
             "sdkmanager",
             {"cmdline-tools/latest/bin/sdkmanager", "tools/bin/sdkmanager"}},
            env, is_file, roots, tools.sdkmanager, tools.sdkmanager_source);
  find_tool({"AVDMANAGER_PATH",
             "avdmanager",
             {"cmdline-tools/latest/bin/avdmanager", "tools/bin/avdmanager"}},
            env, is_file, roots, tools.avdmanager, tools.avdmanager_source);
  if (auto avd_home = env("ANDROID_AVD_HOME")) {
    tools.avd_home = *avd_home;
    tools.avd_home_source = "ANDROID_AVD_HOME";
  } else if (auto user_home = env("ANDROID_USER_HOME")) {
    tools.avd_home = fs::path(*user_home) / "avd";
    tools.avd_home_source = "ANDROID_USER_HOME";
  } else {
    tools.avd_home = fs::path(env("HOME").value_or("/")) / ".android" / "avd";
    tools.avd_home_source = "HOME";
  }
  return tools;
}

SdkTools discover_sdk_tools() {
  return discover_sdk_tools(
      [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        if (value == nullptr || *value == '\0') return std::nullopt;
        return std::string(value);
      },
      [](const fs::path& path) {
        struct stat status {};
        return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
      });
}

Json to_json(const SdkTools& tools) {
  Json out = Json::object();
  out["sdkRoot"] = tools.sdk_root ? Json(tools.sdk_root->string()) : Json(nullptr);
  out["emulator"] = {{"path", tools.emulator}, {"source", tools.emulator_source}};
  out["sdkmanager"] = {{"path", tools.sdkmanager}, {"source", tools.sdkmanager_source}};
  out["avdmanager"] = {{"path", tools.avdmanager}, {"source", tools.avdmanager_source}};
  out["avdHome"] = {{"path", tools.avd_home.string()}, {"source", tools.avd_home_source}};
  return out;
}

}  // namespace clawperator::emulator
