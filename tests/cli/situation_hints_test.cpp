// Hints that name a command that works in the situation they are given in (issue 49: each of
// these once pointed the wrong way). The device-bound ones are in
// tests/integration/error_reporting_test.cpp.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
using nlohmann::json;

TEST_CASE("hints: a payload that is no JSON names the JSON, not a field", "[cli][hints]") {
  const TemporaryDirectory dir("hints");
  const std::string file = (dir.path() / "cut.json").string();
  write_file(file, R"({"commandId":"c","actions":[)");
  const json error =
      expect_error(run_binary(kBinary, {"exec", file}), "EXECUTION_VALIDATION_FAILED", 2);
  CHECK_FALSE(error["details"].contains("path"));
  CHECK(error["hint"].get<std::string>().find("details.path") == std::string::npos);
  CHECK(error["hint"].get<std::string>().find("line and column") != std::string::npos);
}

TEST_CASE("hints: exec --skill without a registry names what exec takes", "[cli][hints]") {
  const TemporaryDirectory dir("hints");
  RunOptions options;
  options.working_directory = dir.path().string();
  options.extra_env = {{"HOME", dir.path().string()}, {"CLAWPERATOR_SKILLS_REGISTRY", ""}};
  const json error =
      expect_error(run_binary(kBinary, {"exec", "--skill", "x", "--artifact", "y"}, options),
                   "REGISTRY_READ_FAILED", 3);
  const std::string hint = error["hint"];
  CHECK(hint.find("CLAWPERATOR_SKILLS_REGISTRY") != std::string::npos);
  CHECK(hint.find("`--registry`") == std::string::npos);
  // exec indeed refuses the flag the skills commands take.
  expect_error(
      run_binary(kBinary, {"exec", "--skill", "x", "--artifact", "y", "--registry", "r"}, options),
      "USAGE", 2);
}

TEST_CASE("hints: an AVD that is not there names clawperator's own listing", "[cli][hints]") {
  const TemporaryDirectory dir("hints");
  RunOptions options;
  options.extra_env = {{"HOME", dir.path().string()},
                       {"ANDROID_HOME", dir.path().string()},
                       {"ANDROID_AVD_HOME", (dir.path() / "avd").string()}};
  std::filesystem::create_directories(dir.path() / "avd");
  const RunResult result = run_binary(kBinary, {"emulator", "start", "foo"}, options);
  const json error = single_document(result);
  INFO(result.out);
  if (error["code"] == "EMULATOR_NOT_FOUND") {
    CHECK(error["hint"].get<std::string>().find("clawperator emulator list") != std::string::npos);
    CHECK(error["hint"].get<std::string>().find("emulator -list-avds") == std::string::npos);
  } else {
    // No emulator binary on this host: the SDK's tool is named missing instead.
    CHECK(error["code"] == "ANDROID_SDK_TOOL_MISSING");
  }
  const json catalog = single_document(run_binary(kBinary, {"errors", "EMULATOR_NOT_FOUND"}));
  CHECK(catalog["error"]["recovery"]["action"].get<std::string>().find(
            "clawperator emulator list") != std::string::npos);
}

TEST_CASE("hints: evidence verify of nothing says no bundle is there", "[cli][hints]") {
  const json error =
      expect_error(run_binary(kBinary, {"evidence", "verify", "/nonexistent-bundle"}),
                   "EVIDENCE_VERIFICATION_FAILED", 1);
  CHECK(error["hint"].get<std::string>().rfind("No bundle is there", 0) == 0);
  CHECK(error["details"]["reason"] == "manifest_unreadable");
}

TEST_CASE("hints: a wrong flag value names the flag, not a payload field it lacks",
          "[cli][hints]") {
  const json error = expect_error(run_binary(kBinary, {"scroll", "--direction", "sideways"}),
                                  "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(error["details"]["flag"] == "--direction");
  CHECK_FALSE(error["details"].contains("path"));
  const std::string hint = error["hint"];
  CHECK(hint.rfind("Fix --direction ", 0) == 0);
  CHECK(hint.find("details.path") == std::string::npos);
  // The same code from a payload field still names details.path, which it has.
  const json field = expect_error(
      run_binary(kBinary, {"exec", "--validate-only",
                           R"({"actions":[{"type":"scroll","params":{"direction":"sideways"}}]})"}),
      "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(field["details"]["path"] == "actions.0.params.direction");
  CHECK(field["hint"].get<std::string>().find("`details.path`") != std::string::npos);
}
