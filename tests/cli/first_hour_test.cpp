// What a new user meets in the first hour (issue 15), through the built binary: precise codes
// and messages, one meaning of --timeout, and one plain line on stderr for every failure.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_locations.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

json payload_without(const std::string& field) {
  json payload = {
      {"commandId", "c1"},  {"taskId", "t1"},
      {"source", "test"},   {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", 30000}, {"actions", json::array({{{"id", "a1"}, {"type", "snapshot"}}})}};
  payload.erase(field);
  return payload;
}

}  // namespace

TEST_CASE("an unknown action type is EXECUTION_ACTION_UNSUPPORTED", "[cli][first-hour]") {
  json payload = payload_without("");
  payload["actions"] =
      json::array({{{"id", "a1"}, {"type", "snapshot"}}, {{"id", "a2"}, {"type", "teleport"}}});
  const json document =
      expect_error(run_binary(kBinary, {"exec", payload.dump(), "--validate-only"}),
                   "EXECUTION_ACTION_UNSUPPORTED", 2);
  CHECK(document["message"] ==
        "Unsupported action type 'teleport': all action types must be supported");
  CHECK(document["details"]["actionId"] == "a2");
  CHECK(document["details"]["phase"] == "validation");
  CHECK(document["hint"].get<std::string>().rfind("Supported action types: ", 0) == 0);
}

TEST_CASE("a missing required field is named", "[cli][first-hour]") {
  for (const char* field : {"commandId", "timeoutMs", "actions", "expectedFormat"}) {
    CAPTURE(field);
    const json document =
        expect_error(run_binary(kBinary, {"exec", payload_without(field).dump(), "--dry-run"}),
                     "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(document["message"] == "Missing required field '" + std::string(field) + "'");
    CHECK(document["details"]["path"] == field);
    // The original's word stays where it was.
    CHECK(document["details"]["issues"][0]["message"] == "Required");
  }
}

TEST_CASE("errors takes a code in any case and suggests the nearest", "[cli][first-hour]") {
  for (const char* typed : {"node_not_found", "Node-Not-Found", " NODE_NOT_FOUND "}) {
    CAPTURE(typed);
    const RunResult result = run_binary(kBinary, {"errors", typed});
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["error"]["code"] == "NODE_NOT_FOUND");
  }
  const json typo = expect_error(run_binary(kBinary, {"errors", "node_not_fund"}), "USAGE", 2);
  CHECK(typo["suggestion"] == "NODE_NOT_FOUND");
  CHECK(typo["message"] == "Unknown error code: node_not_fund. Did you mean 'NODE_NOT_FOUND'?");
}

TEST_CASE("open of any scheme: target opens a URI", "[cli][first-hour]") {
  for (const char* target : {"tel:123", "mailto:a@b.c", "geo:0,0?q=cafe", "https://example.com"}) {
    CAPTURE(target);
    const RunResult result = run_binary(kBinary, {"open", target, "--validate-only"});
    CHECK(result.exit_code == 0);
    const json action = single_document(result)["execution"]["actions"][0];
    CHECK(action["type"] == "open_uri");
    CHECK(action["params"]["uri"] == target);
  }
  const json app = single_document(
      run_binary(kBinary, {"open", "com.android.settings", "--validate-only"}))["execution"];
  CHECK(app["actions"][0]["type"] == "open_app");
}

TEST_CASE("--timeout is the budget of every device command", "[cli][first-hour][timeout]") {
  const std::vector<std::vector<std::string>> commands = {
      {"click", "--text", "OK"},
      {"type", "hi", "--id", "x"},
      {"read", "--id", "x"},
      {"open", "com.android.settings"},
      {"press", "back"},
      {"back"},
      {"close", "com.x"},
      {"scroll", "down"},
      {"snapshot"},
      {"read-value", "--label", "Model"},
      {"wait", "--text", "Done", "--wait", "2000"},
      {"wait-for-nav", "--app", "com.x", "--wait", "2000"},
  };
  for (std::vector<std::string> args : commands) {
    args.insert(args.end(), {"--timeout", "7000", "--validate-only"});
    CAPTURE(args);
    const RunResult result = run_binary(kBinary, args);
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["execution"]["timeoutMs"] == 7000);
  }
  SECTION("wait and wait-for-nav: --wait is the wait, --timeout still is without it") {
    const json with_wait = single_document(run_binary(
        kBinary, {"wait", "--text", "Done", "--wait", "2000", "--validate-only"}))["execution"];
    CHECK(with_wait["actions"][0]["params"]["timeoutMs"] == 2000);
    CHECK(with_wait["timeoutMs"] == 30000);
    const json compat = single_document(run_binary(
        kBinary, {"wait", "--text", "Done", "--timeout", "40000", "--validate-only"}))["execution"];
    CHECK(compat["actions"][0]["params"]["timeoutMs"] == 40000);
    CHECK(compat["timeoutMs"] == 45000);
    const json bad = expect_error(
        run_binary(kBinary, {"wait-for-nav", "--app", "com.x", "--wait", "0", "--dry-run"}),
        "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(bad["message"] == "wait-for-nav --wait must be a positive number of milliseconds");
    CHECK(bad["details"]["flag"] == "--wait");
  }
  SECTION("refused where it cannot apply, never ignored") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"errors", "--timeout", "1000"}, {"devices", "--timeout", "1000"}}) {
      CAPTURE(args);
      const json document = expect_error(run_binary(kBinary, args), "USAGE", 2);
      CHECK(document["details"]["flag"] == "--timeout");
      CHECK(document["message"].get<std::string>().find("does not take it") != std::string::npos);
    }
  }
}

TEST_CASE("every failure also prints one plain line on stderr", "[cli][first-hour]") {
  const RunResult result = run_binary(kBinary, {"click", "--dry-run"});
  const json document = single_document(result);
  CHECK(result.exit_code == 2);
  // The message has several lines; the stderr line has one, and stdout is the JSON as before.
  CHECK(document["message"].get<std::string>().find('\n') != std::string::npos);
  CHECK(result.err.rfind("clawperator: MISSING_SELECTOR: click requires a selector. Use one of:",
                         0) == 0);
  CHECK(result.err.find('\n') == result.err.size() - 1);
  const RunResult typo = run_binary(kBinary, {"errors", "NODE_NOT_FUND"});
  CHECK(typo.err ==
        "clawperator: USAGE: Unknown error code: NODE_NOT_FUND. Did you mean "
        "'NODE_NOT_FOUND'?; " +
            single_document(typo)["hint"].get<std::string>() + "\n");
  // --output pretty: the message's lines as text, the hint on its own line.
  const RunResult pretty = run_binary(kBinary, {"scroll", "sideways", "--output", "pretty"});
  CHECK(pretty.exit_code == 2);
  CHECK(pretty.err.rfind("clawperator: EXECUTION_VALIDATION_FAILED: Invalid scroll direction "
                         "'sideways'.\n\n  Valid directions: down, up, left, right\n",
                         0) == 0);
  CHECK(pretty.err.find("\n  hint: Fix the field") != std::string::npos);
  CHECK(pretty.err.find("\\n") == std::string::npos);
  const RunResult ok = run_binary(kBinary, {"errors", "USAGE"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.err.empty());
}

TEST_CASE("docs/commands.md documents every command and flag", "[cli][first-hour][docs]") {
  const RunResult listed = run_binary(GENERATE_CLI_DOCS_BINARY, {"--list"});
  REQUIRE(listed.exit_code == 0);
  const json listing = json::parse(listed.out);
  std::ifstream in(std::string(CLAWPERATOR_DOCS_DIR) + "/commands.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_FALSE(doc.empty());
  for (const json& command : listing["commands"]) {
    const std::string name = command["name"];
    CAPTURE(name);
    CHECK(doc.find("`" + name) != std::string::npos);
    for (const json& flag : command["flags"]) {
      for (const json& flag_name : flag["names"]) {
        const std::string text = flag_name;
        if (text == "-h" || text == "--help") continue;
        CAPTURE(text);
        CHECK(doc.find("`" + text) != std::string::npos);
      }
    }
  }
  for (const json& flag : listing["globals"]) {
    for (const json& flag_name : flag["names"]) {
      const std::string text = flag_name;
      if (text == "-h") continue;
      CAPTURE(text);
      CHECK(doc.find("`" + text) != std::string::npos);
    }
  }
}
