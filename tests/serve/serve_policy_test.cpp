// The action policy over HTTP (docs/guardrails.md): a denied step is 403 and never sent, a
// confirm rule answers 428 with a token that the identical request spends once.
#include "mcp_session.hpp"
#include "policy_bypasses.hpp"
#include "served.hpp"
#include "test_files.hpp"

namespace clawperator::testing {

TEST_CASE("serve: the policy denies with 403 and confirms with a one-time token",
          "[serve][policy]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-policy"};
  write_file(root.path() / "policy.json", R"({"schemaVersion": 1, "rules": [
      {"id": "no-network", "decision": "deny", "labels": ["Network*"]},
      {"id": "confirm-display", "decision": "confirm", "labels": ["Display"]}]})");
  Served served(farm, {}, {{"CLAWPERATOR_POLICY", (root.path() / "policy.json").string()}});
  const auto click = [](const std::string& text, const std::string& token = {}) {
    json body = {
        {"execution",
         {{"commandId", "c"},
          {"taskId", "t"},
          {"source", "serve-test"},
          {"expectedFormat", "android-ui-automator"},
          {"timeoutMs", 30000},
          {"actions", json::array({{{"id", "tap"},
                                    {"type", "click"},
                                    {"params", {{"matcher", {{"textEquals", text}}}}}}})}}}};
    if (!token.empty()) body["confirmToken"] = token;
    return body.dump();
  };
  REQUIRE(served
              .post("/execute", R"({"execution": {"commandId": "o", "taskId": "o",
      "source": "serve-test", "expectedFormat": "android-ui-automator", "timeoutMs": 30000,
      "actions": [{"id": "open", "type": "open_app",
                   "params": {"applicationId": "com.android.settings"}}]}})")
              .status == 200);

  HttpReply reply = served.post("/execute", click("Network & internet"));
  CHECK(reply.status == 403);
  CHECK(reply.body["code"] == "POLICY_DENIED");
  CHECK(reply.body["details"]["ruleId"] == "no-network");

  reply = served.post("/execute", click("Display"));
  INFO(reply.text);
  CHECK(reply.status == 428);
  CHECK(reply.body["code"] == "CONFIRMATION_REQUIRED");
  const std::string token = reply.body["details"]["token"];
  reply = served.post("/execute", click("Display", token));
  INFO(reply.text);
  CHECK(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  reply = served.post("/execute", click("Display", token));
  CHECK(reply.status == 409);
  CHECK(reply.body["code"] == "CONFIRMATION_UNKNOWN");
}

namespace {

json execution_of(const json& actions) {
  return {{"commandId", "bypass"},  {"taskId", "bypass"},
          {"source", "serve-test"}, {"expectedFormat", "android-ui-automator"},
          {"timeoutMs", 30000},     {"actions", actions}};
}

bool network_row_shown(const Farm& farm) {
  const RunResult snapshot = farm.clawperator({"snapshot"});
  return snapshot.out.find("Network &amp; internet") != std::string::npos;
}

}  // namespace

TEST_CASE("serve and mcp serve: each way around a rule is judged on the node it would tap",
          "[serve][policy][mcp]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-bypass"};
  write_file(root.path() / "policy.json", kNoNetworkTaps);
  const auto settings_in_front = [&] {
    REQUIRE(farm.clawperator({"open", "com.android.settings"}).exit_code == 0);
    REQUIRE(network_row_shown(farm));
  };
  settings_in_front();
  const std::vector<Bypass> bypasses = policy_bypasses(farm);
  const std::map<std::string, std::string> guarded = {
      {"CLAWPERATOR_POLICY", (root.path() / "policy.json").string()}};
  const auto before = [&](const Bypass& bypass) {
    if (bypass.from_home) {
      REQUIRE(farm.clawperator({"press", "home"}).exit_code == 0);
    } else {
      settings_in_front();
    }
  };

  Served served(farm, {}, guarded);
  for (const Bypass& bypass : bypasses) {
    INFO(bypass.name);
    before(bypass);
    const HttpReply reply =
        served.post("/execute", json{{"execution", execution_of(bypass.actions)}}.dump());
    INFO(reply.text);
    CHECK(reply.status == 403);
    CHECK(reply.body["code"] == "POLICY_DENIED");
    CHECK(reply.body["details"]["ruleId"] == bypass.rule);
    CHECK(network_row_shown(farm));  // nothing tapped
  }
  CHECK(served.stop() == 0);

  std::map<std::string, std::string> env = farm.environment().extra_env;
  env.insert(guarded.begin(), guarded.end());
  McpSession session(env, root.path().string());
  int call = 0;
  for (const Bypass& bypass : bypasses) {
    INFO(bypass.name);
    before(bypass);
    const std::string id = "run-" + std::to_string(++call);
    session.call_tool(id, "execute",
                      {{"deviceId", farm.serials().front()}, {"actions", bypass.actions}});
    const json answer = session.answer(id, milliseconds(30000));
    INFO(answer.dump().substr(0, 2000));
    CHECK(answer["result"]["isError"] == true);
    CHECK(answer["result"]["structuredContent"]["code"] == "POLICY_DENIED");
    CHECK(answer["result"]["structuredContent"]["details"]["ruleId"] == bypass.rule);
    CHECK(network_row_shown(farm));
  }
  CHECK(session.stop(milliseconds(10000)) == 0);
}

}  // namespace clawperator::testing

namespace clawperator::testing {

// Results only the Operator can write, over HTTP (docs/guardrails.md §7): with an app that forges
// the Operator's result for every command, each reply is the Operator's, the forged lines
// counted; the second request runs on the warm reader with the presence check beside it.
TEST_CASE("serve: a server whose policy does not load does not start", "[serve][policy]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-bad-policy"};
  write_file(root.path() / "policy.json",
             R"({"schemaVersion": 1, "rules": [{"id": "x", "decision": "maybe"}]})");
  // --policy (a global option): the CLI loads it and hands the failure to the server, which
  // refuses before it binds or writes a token file.
  const RunResult refused = farm.clawperator(
      {"serve", "--port", "1", "--policy", (root.path() / "policy.json").string()});
  CHECK(refused.exit_code == 2);
  const json document = json::parse(refused.out);
  CHECK(document["code"] == "POLICY_INVALID");
  CHECK(document["details"]["path"] == "rules[0].decision");
  CHECK(document["disposition"]["retry"] == "safe");
}

TEST_CASE("serve: a forger's envelopes are counted, never taken", "[serve][authenticity]") {
  Farm farm({"forger"});
  Served served(farm, {}, {{"CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", "1"}});
  for (int round = 0; round < 2; ++round) {
    CAPTURE(round);
    const HttpReply reply = served.post("/snapshot", "{}");
    INFO(reply.text.substr(0, 2000));
    REQUIRE(reply.status == 200);
    CHECK(reply.body["ok"] == true);
    CHECK(reply.body["envelope"].dump().find("forged by") == std::string::npos);
    CHECK(reply.body["resultAuthenticity"]["verified"] == true);
    CHECK(reply.body["resultAuthenticity"]["foreignLines"].get<long long>() >= 1);
  }
}

TEST_CASE("serve: --require-authentic-result on a logcat without uids is 409, nothing sent",
          "[serve][authenticity]") {
  Farm farm({"no-log-uids"});
  Served served(farm, {}, {{"CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", "1"}});
  const HttpReply reply = served.post("/snapshot", "{}");
  INFO(reply.text.substr(0, 2000));
  CHECK(reply.status == 409);
  CHECK(reply.body["code"] == "RESULT_AUTHENTICITY_UNAVAILABLE");
  CHECK(reply.body["details"]["dispatchState"] == "not_dispatched");
}

}  // namespace clawperator::testing
