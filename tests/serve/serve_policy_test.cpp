// The action policy over HTTP (docs/guardrails.md §5): a denied step is 403 and never sent; a
// confirm rule answers 428 with an approval id and no credential; the identical request with
// that id runs nothing until a person approved it (`clawperator approve` at a terminal of the
// server's host), then runs once.
#include <regex>

#include "served.hpp"
#include "test_files.hpp"

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
  CHECK(reply.status == 403);
  CHECK(reply.body["code"] == "POLICY_DENIED");
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
  // Both names with two values: refused.
  reply = served.post("/execute",
                      click_body("Display", {{"approvalId", id}, {"confirmToken", "x"}}).dump());
  CHECK(reply.status == 400);
  CHECK(reply.body["code"] == "INVALID_BODY");

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
  CHECK(reply.status == 409);
  CHECK(reply.body["code"] == "CONFIRMATION_UNKNOWN");
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
