// How the built binary reports a failure: the precise code and message of an invalid
// execution, the error catalog looked up by any spelling of a code, and one plain line on
// stderr beside the JSON document for every failure.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"

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

TEST_CASE("an unknown action type is EXECUTION_ACTION_UNSUPPORTED", "[cli][errors]") {
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

TEST_CASE("a missing required field is named", "[cli][errors]") {
  // The short form fills in the rest (docs/payload.md §13): actions and a type stay required.
  json no_type = payload_without("");
  no_type["actions"] = json::array({{{"id", "a1"}}});
  for (const auto& [payload, field] :
       {std::pair{payload_without("actions"), std::string("actions")},
        std::pair{no_type, std::string("actions.0.type")}}) {
    CAPTURE(field);
    const json document = expect_error(run_binary(kBinary, {"exec", payload.dump(), "--dry-run"}),
                                       "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(document["message"] == "Missing required field '" + field + "'");
    CHECK(document["details"]["path"] == field);
    // The original's word stays where it was.
    CHECK(document["details"]["issues"][0]["message"] == "Required");
  }
}

TEST_CASE("a missing commandId, timeoutMs or expectedFormat is filled in", "[cli][short-form]") {
  for (const char* field : {"commandId", "taskId", "source", "timeoutMs", "expectedFormat"}) {
    CAPTURE(field);
    const RunResult result =
        run_binary(kBinary, {"exec", payload_without(field).dump(), "--validate-only"});
    const json document = single_document(result);
    REQUIRE(result.exit_code == 0);
    const json& execution = document["execution"];
    CHECK(execution.contains(field));
    // Only the missing member: the others are the payload's.
    for (const char* kept : {"commandId", "taskId", "source"}) {
      if (std::string(kept) != field) CHECK(execution[kept] == payload_without("")[kept]);
    }
  }
}

TEST_CASE("a misspelt action type, matcher key or param key gets the nearest name",
          "[cli][errors][suggestion]") {
  const auto refused = [](const json& actions, const std::string& code) {
    json payload = {{"actions", actions}};
    const RunResult result = run_binary(kBinary, {"exec", payload.dump(), "--validate-only"});
    CHECK(result.err.find("Did you mean '") != std::string::npos);
    return expect_error(result, code, 2);
  };
  const json tapp = refused(json::array({{{"type", "tapp"}}}), "EXECUTION_ACTION_UNSUPPORTED");
  CHECK(tapp["suggestion"] == "tap");
  CHECK(tapp["message"] ==
        "Unsupported action type 'tapp': all action types must be supported. Did you mean 'tap'?");
  CHECK(tapp["details"]["actionId"] == "a1");
  const json matcher =
      refused(json::array({{{"type", "click"}, {"params", {{"matcher", {{"textEqual", "OK"}}}}}}}),
              "EXECUTION_VALIDATION_FAILED");
  CHECK(matcher["suggestion"] == "textEquals");
  CHECK(matcher["details"]["path"] == "actions.0.params.matcher");
  CHECK(matcher["details"]["issues"][0]["suggestion"] == "textEquals");
  const json param = refused(
      json::array({{{"type", "open_app"}, {"params", {{"applicatonId", "com.android.settings"}}}}}),
      "EXECUTION_VALIDATION_FAILED");
  CHECK(param["suggestion"] == "applicationId");
  CHECK(param["details"]["invalidKeys"] == json::array({"applicatonId"}));
}

TEST_CASE("errors takes a code in any case and suggests the nearest", "[cli][errors]") {
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

TEST_CASE("every failure also prints one plain line on stderr", "[cli][errors]") {
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
  CHECK(pretty.err.find("\n  hint: Fix --direction") != std::string::npos);
  CHECK(pretty.err.find("\\n") == std::string::npos);
  const RunResult ok = run_binary(kBinary, {"errors", "USAGE"});
  CHECK(ok.exit_code == 0);
  CHECK(ok.err.empty());
}
