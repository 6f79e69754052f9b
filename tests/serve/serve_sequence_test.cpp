// A sequence (docs/payload.md §12) over HTTP (POST /execute) and MCP (execute's executions):
// the same service as `clawperator exec FILE`, so the same document, order and refusals.
#include <chrono>
#include <string>

#include "mcp_session.hpp"
#include "served.hpp"

namespace clawperator::testing {
namespace {

json sequence_step(const std::string& id, const std::string& type, const json& params) {
  return {{"id", id}, {"type", type}, {"params", params}};
}

const json kOpenSettingsActions =
    json::array({sequence_step("close", "close_app", {{"applicationId", "com.android.settings"}}),
                 sequence_step("open", "open_app", {{"applicationId", "com.android.settings"}})});

json tap_text_actions(const std::string& text) {
  return json::array({sequence_step("tap", "click", {{"matcher", {{"textEquals", text}}}})});
}

json wait_text_actions(const std::string& text) {
  return json::array(
      {sequence_step("wait", "wait_for_node", {{"matcher", {{"textEquals", text}}}})});
}

json part(const std::string& command_id, const json& actions) {
  return {{"commandId", command_id}, {"taskId", "serve-sequence"},
          {"source", "serve-test"},  {"expectedFormat", "android-ui-automator"},
          {"timeoutMs", 30000},      {"actions", actions}};
}

}  // namespace

TEST_CASE("serve: POST /execute runs a sequence in order, stops at the first failure",
          "[serve][sequence]") {
  Farm farm({"default"});
  Served served(farm);
  const json replay = {
      {"executions",
       {part("h1", kOpenSettingsActions), part("h2", tap_text_actions("Network & internet")),
        part("h3", wait_text_actions("Airplane mode"))}}};
  HttpReply reply = served.post("/execute", json{{"execution", replay}}.dump());
  INFO(reply.text.substr(0, 2000));
  CHECK(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK(reply.body["sequence"] == json{{"count", 3}});
  REQUIRE(reply.body["executions"].size() == 3);
  CHECK(reply.body["executions"][2]["envelope"]["commandId"] == "h3");

  const json stops = {{"executions",
                       {part("f1", kOpenSettingsActions), part("f2", tap_text_actions("No row")),
                        part("f3", tap_text_actions("Display"))}}};
  reply = served.post("/execute", json{{"execution", stops}}.dump());
  CHECK(reply.body["code"] == "NODE_NOT_FOUND");
  CHECK(reply.body["details"]["sequence"] == json{{"index", 1}, {"count", 3}});
  CHECK(reply.body["executions"].size() == 1);
  CHECK(reply.body["disposition"]["retry"] == "unsafe");

  // A host path in any payload is refused before anything runs, named from the sequence.
  json named = {{"executions",
                 {part("p1", kOpenSettingsActions),
                  part("p2", json::array({sequence_step("shot", "take_screenshot",
                                                        {{"path", "/tmp/x.png"}})}))}}};
  reply = served.post("/execute", json{{"execution", named}}.dump());
  CHECK(reply.status == 400);
  CHECK(reply.body["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(reply.body["details"]["path"].get<std::string>().rfind("executions.1.actions.0", 0) == 0);
  // A fault of one payload: nothing ran.
  json bad = {
      {"executions", {part("b1", kOpenSettingsActions), part("b1", wait_text_actions("x"))}}};
  reply = served.post("/execute", json{{"execution", bad}}.dump());
  CHECK(reply.status == 400);
  CHECK(reply.body["details"]["path"] == "executions.1.commandId");
}

TEST_CASE("mcp: execute with executions runs a sequence under one lock", "[serve][sequence]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"mcp-sequence"};
  McpSession session(farm.environment().extra_env, root.path().string());
  session.call_tool("run", "execute",
                    {{"deviceId", farm.serials().front()},
                     {"executions",
                      {{{"actions", kOpenSettingsActions}},
                       {{"actions", tap_text_actions("Network & internet")}, {"timeoutMs", 20000}},
                       {{"actions", wait_text_actions("Airplane mode")}}}}});
  json answer = session.answer("run", std::chrono::milliseconds(60000));
  INFO(answer.dump().substr(0, 3000) << "\nstderr: " << session.stderr_text().substr(0, 2000));
  REQUIRE(answer.is_object());
  CHECK(answer["result"].value("isError", false) == false);
  const json& document = answer["result"]["structuredContent"];
  CHECK(document["sequence"] == json{{"count", 3}});
  REQUIRE(document["executions"].size() == 3);
  // The server's ids, numbered: each payload's own.
  const std::string first = document["executions"][0]["envelope"]["commandId"];
  CHECK(first.substr(first.size() - 2) == "-1");
  CHECK(document["executions"][2]["envelope"]["commandId"] ==
        first.substr(0, first.size() - 1) + "3");

  // Both forms at once, or neither: the tool's schema refuses it.
  session.call_tool(
      "both", "execute",
      {{"actions", kOpenSettingsActions}, {"executions", {{{"actions", kOpenSettingsActions}}}}});
  answer = session.answer("both", std::chrono::milliseconds(10000));
  CHECK(answer["error"]["code"] == -32602);
  session.call_tool(
      "same", "execute",
      {{"executions", json::array({{{"actions", kOpenSettingsActions}, {"commandId", "x"}}})}});
  answer = session.answer("same", std::chrono::milliseconds(10000));
  CHECK(answer["error"]["code"] == -32602);
  CHECK(session.stop(std::chrono::milliseconds(10000)) == 0);
}

}  // namespace clawperator::testing
