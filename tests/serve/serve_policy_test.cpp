// The action policy over HTTP (docs/guardrails.md §5): a denied step is 403 and never sent; a
// confirm rule answers 428 with an approval id and no credential; the identical request with
// that id runs nothing until a person approved it (`clawperator approve` at a terminal of the
// server's host, or POST /approvals/:id with the approver credential only the server's terminal
// showed; never the API token alone), then runs once.
#include <regex>

#include "mcp_session.hpp"
#include "policy_bypasses.hpp"
#include "served.hpp"
#include "test_files.hpp"
#include "wait_until.hpp"

namespace clawperator::testing {

namespace {

json click_body(const std::string& text, const json& extra = json::object()) {
  json body = {{"execution",
                {{"commandId", "c"},
                 {"taskId", "t"},
                 {"source", "serve-test"},
                 {"expectedFormat", "android-ui-automator"},
                 {"timeoutMs", 30000},
                 {"actions", json::array({{{"id", "tap"},
                                           {"type", "click"},
                                           {"params", {{"matcher", {{"textEquals", text}}}}}}})}}}};
  for (const auto& [key, value] : extra.items()) body[key] = value;
  return body;
}

const char* const kOpenSettingsBody = R"({"execution": {"commandId": "o", "taskId": "o",
    "source": "serve-test", "expectedFormat": "android-ui-automator", "timeoutMs": 30000,
    "actions": [{"id": "open", "type": "open_app",
                 "params": {"applicationId": "com.android.settings"}}]}})";

// Whether Settings' first screen is the one in front.
bool on_settings_home(Served& served) {
  const HttpReply snapshot = served.post("/snapshot", "{}");
  return snapshot.text.find("Network &amp; internet") != std::string::npos;
}

// The approval a 428 recorded: its id, after checking that the body carries no credential (no
// token field, and no 32-hex-digit string but the id).
std::string approval_of(const HttpReply& reply) {
  INFO(reply.text);
  CHECK(reply.status == 428);
  REQUIRE(reply.body["code"] == "CONFIRMATION_REQUIRED");
  CHECK(reply.body["disposition"]["delivery"] == "not_delivered");
  const std::string id = reply.body["details"].value("approvalId", "");
  REQUIRE(std::regex_match(id, std::regex("[0-9a-f]{32}")));
  CHECK(reply.text.find("\"token\"") == std::string::npos);
  CHECK(reply.text.find("confirmToken") == std::string::npos);
  const std::regex hex32("[0-9a-f]{32,}");
  for (auto match = std::sregex_iterator(reply.text.begin(), reply.text.end(), hex32);
       match != std::sregex_iterator(); ++match) {
    CHECK(match->str() == id);
  }
  return id;
}

// A refusal: its status, its code, and nothing sent (the disposition every policy refusal has).
void expect_refusal(const HttpReply& reply, int status, const std::string& code) {
  INFO(reply.text.substr(0, 2000));
  CHECK(reply.status == status);
  CHECK(reply.body.value("ok", true) == false);
  CHECK(reply.body.value("code", "") == code);
  CHECK(reply.body["disposition"]["delivery"] == "not_delivered");
  CHECK(reply.body["disposition"]["retry"] == "safe");
}

// `clawperator approve ID` answered at a terminal of the server's host (its state directory).
RunResult approve_at_terminal(const Farm& farm, const std::string& id, const std::string& answer) {
  return run_binary(TTY_SESSION, {"--answer", answer, "--", kBinary, "approve", id},
                    farm.environment());
}

}  // namespace

TEST_CASE(
    "serve: the policy denies with 403, and a confirm rule's approval runs once a person "
    "approved it",
    "[serve][policy]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-policy"};
  write_file(root.path() / "policy.json", R"({"schemaVersion": 1, "rules": [
      {"id": "no-network", "decision": "deny", "labels": ["Network*"]},
      {"id": "confirm-display", "decision": "confirm", "labels": ["Display"]}]})");
  Served served(farm, {}, {{"CLAWPERATOR_POLICY", (root.path() / "policy.json").string()}});
  REQUIRE(served.post("/execute", kOpenSettingsBody).status == 200);

  HttpReply reply = served.post("/execute", click_body("Network & internet").dump());
  expect_refusal(reply, 403, "POLICY_DENIED");
  CHECK(reply.body["details"]["ruleId"] == "no-network");

  const std::string id = approval_of(served.post("/execute", click_body("Display").dump()));
  // Repeated before a person answered, by either name of the field: nothing runs, nothing is
  // spent.
  for (const char* field : {"approvalId", "confirmToken"}) {
    reply = served.post("/execute", click_body("Display", {{field, id}}).dump());
    CHECK(approval_of(reply) == id);
    CHECK(reply.text.find("still waits for a person") != std::string::npos);
  }
  CHECK(on_settings_home(served));
  // The API token alone never approves; this server had no terminal, so nothing does over HTTP.
  for (const std::vector<std::string>& headers :
       {std::vector<std::string>{}, {"X-Clawperator-Approver: " + std::string(64, 'a')}}) {
    reply = served.post("/approvals/" + id, R"({"approve": true})", headers);
    INFO(reply.text);
    expect_refusal(reply, 403, "CONFIRMATION_APPROVER_REQUIRED");
    CHECK(reply.body["details"]["approvalId"] == id);
  }
  CHECK(approval_of(served.post("/execute", click_body("Display", {{"approvalId", id}}).dump())) ==
        id);
  // Both names with two values: refused.
  reply = served.post("/execute",
                      click_body("Display", {{"approvalId", id}, {"confirmToken", "x"}}).dump());
  expect_refusal(reply, 400, "INVALID_BODY");

  // A person approves it at a terminal of the server's host; then it runs, once.
  const RunResult approved = approve_at_terminal(farm, id, "y");
  INFO(approved.out << approved.err);
  REQUIRE(approved.exit_code == 0);
  reply = served.post("/execute", click_body("Display", {{"approvalId", id}}).dump());
  INFO(reply.text);
  CHECK(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK_FALSE(on_settings_home(served));
  reply = served.post("/execute", click_body("Display", {{"approvalId", id}}).dump());
  expect_refusal(reply, 409, "CONFIRMATION_UNKNOWN");
}

TEST_CASE(
    "serve: approvals are listed with the token and granted only with the approver "
    "credential the server's terminal showed",
    "[serve][policy]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-approvals"};
  write_file(root.path() / "policy.json", R"({"schemaVersion": 1, "rules": [
      {"id": "confirm-display", "decision": "confirm", "labels": ["Display"],
       "reason": "display settings change what the user sees"}]})");
  // Started at a person's terminal: the approver link is written there, and only there.
  Served served(farm, {}, {{"CLAWPERATOR_POLICY", (root.path() / "policy.json").string()}},
                ServeTerminal::Foreground);
  const std::regex link_pattern("http://127\\.0\\.0\\.1:" + std::to_string(served.port()) +
                                "/#token=([0-9a-f]{64})&approver=([0-9a-f]{64})");
  std::smatch link;
  std::string terminal;
  REQUIRE(wait_until(
      [&] {
        terminal = served.terminal_text();
        return std::regex_search(terminal, link, link_pattern);
      },
      std::chrono::seconds(20)));
  INFO(terminal);
  CHECK(link[1].str() == served.token());
  const std::string approver = link[2].str();
  CHECK(terminal.find("never hand it to an agent") != std::string::npos);
  CHECK(served.stderr_text().find(approver) == std::string::npos);
  CHECK(served.stdout_text().find(approver) == std::string::npos);
  // The link is shown before the start is logged: the line is waited for, not assumed.
  std::vector<json> started;
  REQUIRE(wait_until(
      [&] {
        started = farm.logged_events("serve.server.started");
        return !started.empty();
      },
      std::chrono::seconds(20)));
  REQUIRE(started.size() == 1);
  CHECK(started[0]["approverLink"] == true);
  const std::string with_approver = "X-Clawperator-Approver: " + approver;
  const std::string approve = R"({"approve": true})";

  REQUIRE(served.post("/execute", kOpenSettingsBody).status == 200);
  const std::string id = approval_of(served.post("/execute", click_body("Display").dump()));

  // Listed with the API token: what a person is asked, no digest, no policy file.
  HttpReply reply = served.get("/approvals");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  REQUIRE(reply.body["approvals"].size() == 1);
  const json& listed = reply.body["approvals"][0];
  CHECK(listed["approvalId"] == id);
  CHECK(listed["state"] == "pending");
  CHECK(listed["ruleId"] == "confirm-display");
  CHECK(listed["reason"] == "display settings change what the user sees");
  CHECK(listed["step"]["labels"] ==
        json::array({"Display", "android:id/title", "Dark theme, font size, brightness",
                     "android:id/summary"}));
  CHECK(listed["question"].get<std::string>().find("click on \"Display\"") != std::string::npos);
  CHECK_FALSE(listed.contains("digest"));
  CHECK_FALSE(listed.contains("policy"));
  CHECK(served.anonymous_get("/approvals").status == 401);

  // The API token alone, or a wrong credential: 403, and it still waits.
  for (const std::vector<std::string>& headers :
       {std::vector<std::string>{},
        {"X-Clawperator-Approver: " + std::string(64, '0')},
        {"X-Clawperator-Approver: " + approver.substr(0, 63)}}) {
    reply = served.post("/approvals/" + id, approve, headers);
    INFO(reply.text);
    expect_refusal(reply, 403, "CONFIRMATION_APPROVER_REQUIRED");
    CHECK(reply.body["disposition"]["delivery"] == "not_delivered");
  }
  // The approver credential without the API token: the token is always needed.
  reply = curl(served.url("/approvals/" + id), "POST", served.body(approve), {with_approver});
  expect_refusal(reply, 401, "UNAUTHORIZED");
  CHECK(approval_of(served.post("/execute", click_body("Display", {{"approvalId", id}}).dump())) ==
        id);
  CHECK(on_settings_home(served));
  // A body that says no answer; an id that is no approval's; no id at all.
  for (const char* body : {"{}", R"({"approve": "yes"})", R"({"approve": true, "x": 1})"}) {
    reply = served.post("/approvals/" + id, body, {with_approver});
    expect_refusal(reply, 400, "INVALID_BODY");
  }
  reply = served.post("/approvals/" + std::string(32, 'e'), approve, {with_approver});
  expect_refusal(reply, 409, "CONFIRMATION_UNKNOWN");
  CHECK(served.post("/approvals/not-an-id", approve, {with_approver}).status == 404);

  // With the approver credential: approved, once; then the identical request runs, once.
  reply = served.post("/approvals/" + id, approve, {with_approver});
  INFO(reply.text);
  CHECK(reply.status == 200);
  CHECK(reply.body ==
        json{{"ok", true}, {"approvalId", id}, {"approved", true}, {"state", "approved"}});
  reply = served.post("/approvals/" + id, approve, {with_approver});
  expect_refusal(reply, 409, "CONFIRMATION_UNKNOWN");
  CHECK(served.get("/approvals").body["approvals"] == json::array());
  reply = served.post("/execute", click_body("Display", {{"approvalId", id}}).dump());
  INFO(reply.text);
  CHECK(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK_FALSE(on_settings_home(served));
  reply = served.post("/execute", click_body("Display", {{"approvalId", id}}).dump());
  expect_refusal(reply, 409, "CONFIRMATION_UNKNOWN");

  // Declined through the inspector's route: the request is told so.
  const std::string declined = approval_of(served.post("/execute", click_body("Display").dump()));
  reply = served.post("/approvals/" + declined, R"({"approve": false})", {with_approver});
  CHECK(reply.body["state"] == "declined");
  reply = served.post("/execute", click_body("Display", {{"approvalId", declined}}).dump());
  expect_refusal(reply, 409, "CONFIRMATION_DECLINED");

  // Logged: who approved, through what; never the credential.
  bool logged = false;
  for (const json& event : farm.logged_events("policy.decision")) {
    CHECK(event.dump().find(approver) == std::string::npos);
    if (event.value("approvalId", "") == id && event["outcome"] == "approved by a person") {
      logged = event["answeredBy"]["through"] == "inspector";
    }
  }
  CHECK(logged);
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
  expect_refusal(reply, 409, "RESULT_AUTHENTICITY_UNAVAILABLE");
  CHECK(reply.body["details"]["dispatchState"] == "not_dispatched");
}

}  // namespace clawperator::testing
