// Every file in examples/ is checked: the payloads validate (from a file and from stdin), the
// invalid ones are refused before anything is sent, and a payload that acts on an app's screen
// starts from a known one. (The scenarios load in tests/unit/vdevice/android/scenario_test.cpp;
// tests/integration/examples_test.cpp runs every payload twice on the virtual device.)
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"

using clawperator::testing::kBinary;
using clawperator::testing::kExamples;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

std::vector<std::filesystem::path> json_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The action types that find nodes on the foreground app's screen or act on it: their result
// depends on which screen that is.
bool acts_on_screen(const std::string& type) {
  static const std::set<std::string> kTypes = {"click",
                                               "enter_text",
                                               "scroll",
                                               "scroll_until",
                                               "scroll_and_click",
                                               "read_text",
                                               "wait_for_node",
                                               "query_ui",
                                               "swipe",
                                               "drag",
                                               "press_key",
                                               "read_key_value_pair",
                                               "wait_for_navigation"};
  return kTypes.count(type) != 0;
}

}  // namespace

TEST_CASE("examples/ holds payloads, invalid/, scenarios/, policy/ and ci/ only",
          "[cli][examples]") {
  for (const auto& entry : std::filesystem::directory_iterator(kExamples)) {
    CAPTURE(entry.path().string());
    if (entry.is_directory()) {
      const std::string name = entry.path().filename().string();
      // policy/: action policies (docs/guardrails.md), loaded by tests/unit/policy. ci/: the CI
      // recipe and the repository it runs in (docs/ci.md), run by
      // tests/integration/ci_workflow_test.cpp.
      CHECK((name == "invalid" || name == "scenarios" || name == "policy" || name == "ci"));
    } else {
      CHECK(entry.path().extension() == ".json");
    }
  }
  CHECK(json_files(kExamples).size() >= 13);
}

TEST_CASE("every example payload validates from a file and from stdin", "[cli][examples]") {
  for (const auto& path : json_files(kExamples)) {
    CAPTURE(path.string());
    const RunResult from_file = run_binary(kBinary, {"exec", path.string(), "--validate-only"});
    const json document = single_document(from_file);
    CHECK(from_file.exit_code == 0);
    REQUIRE(document["validated"] == true);
    RunOptions options;
    options.stdin_path = path.string();
    const RunResult from_stdin = run_binary(kBinary, {"exec", "-", "--dry-run"}, options);
    CHECK(single_document(from_stdin)["dryRun"] == true);
    CHECK(from_stdin.exit_code == 0);
  }
}

TEST_CASE("an example that acts on a screen starts from a known one", "[cli][examples]") {
  for (const auto& path : json_files(kExamples)) {
    CAPTURE(path.string());
    const json execution = single_document(
        run_binary(kBinary, {"exec", path.string(), "--validate-only"}))["execution"];
    const json& actions = execution["actions"];
    REQUIRE(actions.is_array());
    bool acts = false;
    for (const json& action : actions) acts = acts || acts_on_screen(action["type"]);
    if (!acts) continue;
    // open_app alone resumes the app where it was left: close it first.
    REQUIRE(actions.size() >= 2);
    CHECK(actions[0]["type"] == "close_app");
    CHECK(actions[1]["type"] == "open_app");
    CHECK(actions[0]["params"]["applicationId"] == actions[1]["params"]["applicationId"]);
  }
}

TEST_CASE("every invalid example is refused before anything is sent", "[cli][examples]") {
  const auto files = json_files(kExamples + "/invalid");
  CHECK(files.size() >= 5);
  for (const auto& path : files) {
    CAPTURE(path.string());
    const RunResult result = run_binary(kBinary, {"exec", path.string(), "--validate-only"});
    const json document = single_document(result);
    CHECK(result.exit_code == 2);
    CHECK(document["ok"] == false);
    const std::string code = document["code"];
    CHECK((code == "EXECUTION_VALIDATION_FAILED" || code == "EXECUTION_ACTION_UNSUPPORTED"));
    CHECK(document["details"]["phase"] == "validation");
    CHECK(document["disposition"]["delivery"] == "not_delivered");
  }
}
