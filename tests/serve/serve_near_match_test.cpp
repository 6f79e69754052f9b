// The short form and the near matches (docs/payload.md §13, §14) over HTTP (POST /execute) and
// MCP (execute): the same admission and the same exec path as `clawperator exec`.
#include <chrono>
#include <string>

#include "mcp_session.hpp"
#include "served.hpp"

namespace clawperator::testing {
namespace {

// Settings opened, then a click on its first row spelt in the wrong case; no ids anywhere.
const json kMissedClick = json::array(
    {{{"type", "open_app"}, {"params", {{"applicationId", "com.android.settings"}}}},
     {{"type", "click"}, {"params", {{"matcher", {{"textEquals", "network & internet"}}}}}}});

void check_near_miss(const json& document) {
  CHECK(document["code"] == "NODE_NOT_FOUND");
  CHECK(document["failedStep"]["id"] == "a2");
  REQUIRE_FALSE(document["details"]["nearMatches"].empty());
  CHECK(document["details"]["nearMatches"][0]["matcher"] ==
        json{{"textEquals", "Network & internet"}});
}

}  // namespace

TEST_CASE("serve: POST /execute takes the short form and names near matches",
          "[serve][short-form][near-matches]") {
  Farm farm({"default"});
  Served served(farm);
  HttpReply reply = served.post(
      "/execute", json{{"execution", {{"actions", json::array({{{"type", "snapshot"}}})}}}}.dump());
  INFO(reply.text.substr(0, 2000));
  CHECK(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK(reply.body["envelope"]["commandId"].get<std::string>().rfind("exec-", 0) == 0);
  CHECK(reply.body["envelope"]["stepResults"][0]["id"] == "a1");

  reply = served.post("/execute", json{{"execution", {{"actions", kMissedClick}}}}.dump());
  INFO(reply.text.substr(0, 3000));
  check_near_miss(reply.body);
  // A misspelt type is refused with the nearest name, before anything runs.
  reply = served.post("/execute",
                      json{{"execution", {{"actions", json::array({{{"type", "tapp"}}})}}}}.dump());
  CHECK(reply.status == 400);
  CHECK(reply.body["code"] == "EXECUTION_ACTION_UNSUPPORTED");
  CHECK(reply.body["suggestion"] == "tap");
}

TEST_CASE("mcp: execute takes actions without ids and names near matches",
          "[serve][short-form][near-matches]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"mcp-near"};
  McpSession session(farm.environment().extra_env, root.path().string());
  session.call_tool("run", "execute",
                    {{"deviceId", farm.serials().front()}, {"actions", kMissedClick}});
  const json answer = session.answer("run", std::chrono::milliseconds(60000));
  INFO(answer.dump().substr(0, 3000) << "\nstderr: " << session.stderr_text().substr(0, 2000));
  REQUIRE(answer.is_object());
  CHECK(answer["result"].value("isError", false) == true);
  check_near_miss(answer["result"]["structuredContent"]);
  CHECK(session.stop(std::chrono::milliseconds(10000)) == 0);
}

}  // namespace clawperator::testing
