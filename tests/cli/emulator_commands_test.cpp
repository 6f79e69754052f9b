// `clawperator emulator …` and `provision emulator` through the built binary, without an SDK or
// a device: the usage rules and the refusals that come before any tool runs
// (docs/emulator.md). The lifecycle itself: tests/integration/emulator_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

// No adb and no SDK tool can run.
RunOptions without_tools(const TemporaryDirectory& dir) {
  RunOptions options;
  options.extra_env = {{"ADB", "/nonexistent/adb"},
                       {"EMULATOR_PATH", "/nonexistent/emulator"},
                       {"SDKMANAGER_PATH", "/nonexistent/sdkmanager"},
                       {"AVDMANAGER_PATH", "/nonexistent/avdmanager"},
                       {"ANDROID_AVD_HOME", dir.path().string()},
                       {"CLAWPERATOR_STATE_DIR", (dir.path() / "state").string()}};
  return options;
}

}  // namespace

TEST_CASE("emulator: usage errors are exit 2 with the usage line", "[cli][emulator]") {
  CHECK(expect_error(run_binary(kBinary, {"emulator"}), "USAGE", 2)["message"] ==
        "emulator requires a subcommand: emulator "
        "list|inspect|create|start|stop|delete|status|provision");
  CHECK(expect_error(run_binary(kBinary, {"emulator", "boot"}), "USAGE",
                     2)["details"]["argument"] == "boot");
  for (const char* sub : {"inspect", "start", "stop", "delete"}) {
    const json missing = expect_error(run_binary(kBinary, {"emulator", sub}), "USAGE", 2);
    CHECK(missing["message"] == std::string("emulator ") + sub + " <name>");
  }
  CHECK(expect_error(run_binary(kBinary, {"provision"}), "USAGE", 2)["message"] ==
        "provision emulator");
  CHECK(expect_error(run_binary(kBinary, {"provision", "phone"}), "USAGE",
                     2)["details"]["argument"] == "phone");
  const json create_name =
      expect_error(run_binary(kBinary, {"emulator", "create", "ci"}), "USAGE", 2);
  CHECK(create_name["message"] == "emulator create takes no name (use --name)");
}

TEST_CASE("emulator: a flag of another subcommand or a bad value is refused by name",
          "[cli][emulator]") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"emulator", "stop", "ci", "--headless"}, "--headless"},
      {{"emulator", "list", "--force"}, "--force"},
      {{"emulator", "delete", "ci", "--api", "35"}, "--api"},
      {{"emulator", "start", "ci", "--name", "x"}, "--name"},
      {{"emulator", "status", "--", "-memory", "4096"}, "--"},
      {{"emulator", "create", "--api", "thirty"}, "--api"},
      {{"emulator", "create", "--api", "7"}, "--api"},
      {{"emulator", "create", "--target", "playstore"}, "--target"},
      {{"emulator", "create", "--abi", "mips"}, "--abi"},
      {{"emulator", "create", "--profile", "../x"}, "--profile"},
      {{"emulator", "create", "--name", ""}, "--name"},
      {{"emulator", "start", "ci", "--boot-timeout", "10"}, "--boot-timeout"},
      {{"provision", "emulator", "--boot-timeout", "soon"}, "--boot-timeout"},
  };
  for (const auto& [args, flag] : cases) {
    INFO(json(args).dump());
    CHECK(expect_error(run_binary(kBinary, args), "USAGE", 2)["details"]["flag"] == flag);
  }
  // --timeout is no emulator command's: the waits have their own bounds.
  expect_error(run_binary(kBinary, {"emulator", "status", "--timeout", "5000"}), "USAGE", 2);
}

TEST_CASE("emulator: a name that is no AVD name is refused before any tool runs",
          "[cli][emulator]") {
  const TemporaryDirectory dir{"emu-cli"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"emulator", "start", "../etc"}, "../etc"},
      {{"emulator", "delete", "a b"}, "a b"},
      // After `--` a word that looks like a flag is the name.
      {{"emulator", "stop", "--", "-rf"}, "-rf"},
      {{"emulator", "create", "--name", ".hidden"}, ".hidden"},
  };
  for (const auto& [args, name] : cases) {
    INFO(json(args).dump());
    const json refused = expect_error(run_binary(kBinary, args, without_tools(dir)), "USAGE", 2);
    CHECK(refused["details"]["name"] == name);
  }
}

TEST_CASE("emulator: missing tools are named, with their codes", "[cli][emulator]") {
  const TemporaryDirectory dir{"emu-cli"};
  const json missing =
      expect_error(run_binary(kBinary, {"provision", "emulator"}, without_tools(dir)),
                   "ANDROID_SDK_TOOL_MISSING", 3);
  CHECK(missing["details"]["missingTools"] ==
        json::array({"adb", "emulator", "sdkmanager", "avdmanager"}));
  CHECK(missing["message"] ==
        "Required Android SDK tools are missing: adb, emulator, sdkmanager, avdmanager");
  CHECK(missing["disposition"]["retry"] == "safe");
  // Without adb, the emulators cannot be listed.
  expect_error(run_binary(kBinary, {"emulator", "status"}, without_tools(dir)), "ADB_NOT_FOUND", 3);
}

TEST_CASE("doctor --capability emulator: each tool with where it was found, no device needed",
          "[cli][emulator][doctor]") {
  const TemporaryDirectory dir{"emu-doctor"};
  RunOptions options = without_tools(dir);
  options.extra_env.erase("ADB");
  const auto checks_of = [](const json& report) {
    std::map<std::string, json> by_id;
    for (const json& check : report["checks"]) by_id[check["id"].get<std::string>()] = check;
    return by_id;
  };
  const clawperator::testing::RunResult missing =
      run_binary(kBinary, {"doctor", "--capability", "emulator"}, options);
  CHECK(missing.exit_code == 1);
  const json report = json::parse(missing.out);
  CHECK(report["capability"] == "emulator");
  auto checks = checks_of(report);
  for (const char* tool : {"emulator", "sdkmanager", "avdmanager"}) {
    const json& check = checks[std::string("emulator.tools.") + tool];
    INFO(check.dump());
    CHECK(check["status"] == "fail");
    CHECK(check["code"] == "ANDROID_SDK_TOOL_MISSING");
    CHECK(check["evidence"]["source"] ==
          std::string(tool == std::string("emulator")     ? "EMULATOR_PATH"
                      : tool == std::string("sdkmanager") ? "SDKMANAGER_PATH"
                                                          : "AVDMANAGER_PATH"));
  }
  // sdkmanager installs the emulator: with sdkmanager missing too, the first thing to do is the
  // command-line tools, and `sdkmanager "emulator"` comes after it, never before.
  // (A host without /dev/kvm adds the acceleration's action too.)
  const std::vector<std::string> next = report["nextActions"];
  INFO(report["nextActions"].dump());
  const auto position = [&](std::string_view start) {
    return std::find_if(next.begin(), next.end(),
                        [&](const std::string& action) { return action.rfind(start, 0) == 0; }) -
           next.begin();
  };
  const auto command_line_tools = position("Install the SDK command-line tools");
  const auto emulator = position("sdkmanager \"emulator\"");
  CHECK(command_line_tools < emulator);
  CHECK(emulator < static_cast<std::ptrdiff_t>(next.size()));
  CHECK(next.size() == (checks["emulator.acceleration.kvm"]["status"] == "pass" ? 2U : 3U));
  CHECK(report["checks"][5]["id"] == "emulator.tools.sdkmanager");
  CHECK(checks["emulator.tools.emulator"]["fix"]["steps"].size() == 2);
  CHECK(checks.count("emulator.acceleration.kvm") == 1);
  CHECK(checks["emulator.disk"]["evidence"]["avdHome"] == dir.path().string());
  CHECK(checks.count("device.discovery") == 0);

  // An SDK whose tools answer: found under ANDROID_HOME, and the report passes (KVM and disk
  // are warnings at most).
  const std::filesystem::path sdk = dir.path() / "sdk";
  const std::pair<const char*, const char*> tools[] = {
      {"emulator/emulator", "emulator"},
      {"cmdline-tools/latest/bin/sdkmanager", "sdkmanager"},
      {"cmdline-tools/latest/bin/avdmanager", "avdmanager"}};
  for (const auto& [place, name] : tools) {
    std::filesystem::create_directories((sdk / place).parent_path());
    clawperator::testing::write_file(sdk / place,
                                     std::string("#!/bin/sh\necho 'usage: ") + name + "'\n");
    std::filesystem::permissions(sdk / place, std::filesystem::perms::owner_all);
  }
  RunOptions with_sdk = options;
  for (const char* variable : {"EMULATOR_PATH", "SDKMANAGER_PATH", "AVDMANAGER_PATH"}) {
    with_sdk.extra_env.erase(variable);
    with_sdk.unset_env.push_back(variable);
  }
  with_sdk.extra_env["ANDROID_HOME"] = sdk.string();
  const clawperator::testing::RunResult found =
      run_binary(kBinary, {"doctor", "--capability", "emulator"}, with_sdk);
  INFO(found.out);
  CHECK(found.exit_code == 0);
  checks = checks_of(json::parse(found.out));
  CHECK(checks["emulator.tools.emulator"]["status"] == "pass");
  CHECK(checks["emulator.tools.emulator"]["evidence"]["source"] == "ANDROID_HOME");
  CHECK(checks["emulator.tools.avdmanager"]["evidence"]["path"] ==
        (sdk / "cmdline-tools/latest/bin/avdmanager").string());
}
