// The action policy through the real adb against the virtual device (docs/guardrails.md): a
// denied click is never sent; a confirm rule asks the person at the controlling terminal, even
// when stdin and stdout are pipes; without one it records an approval that only a person at a
// terminal grants (`clawperator approve`), after which the same call runs once; a broken policy
// refuses.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "at_terminal.hpp"
#include "farm_fixture.hpp"
#include "policy_bypasses.hpp"
#include "skills_repo.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;

namespace {

// Whether the Settings screen with "Network & internet" is still the one in front.
bool on_settings_home(const Farm& farm) {
  const json snapshot = single_document(farm.clawperator({"snapshot"}));
  const std::string xml = snapshot["envelope"]["stepResults"][0]["data"]["text"];
  return xml.find("Network &amp; internet") != std::string::npos;
}

const char* const kPolicy = R"({"schemaVersion": 1, "rules": [
  {"id": "no-network", "decision": "deny", "actions": ["click"], "labels": ["network*"],
   "reason": "network settings are off limits"},
  {"id": "confirm-display", "decision": "confirm", "labels": ["Display"],
   "reason": "display settings change what the user sees"}]})";

// Settings in front, before the policy is set.
void open_settings(const Farm& farm) {
  REQUIRE(farm.clawperator({"open", "com.android.settings"}).exit_code == 0);
  REQUIRE(on_settings_home(farm));
}

// A phone in Settings, and kPolicy in CLAWPERATOR_POLICY for every command after that.
struct GuardedPhone {
  Farm farm{std::vector<std::string>{"default"}};
  TemporaryDirectory root{"policy"};
  GuardedPhone() {
    write_file(root.path() / "policy.json", kPolicy);
    open_settings(farm);
    farm.set_env("CLAWPERATOR_POLICY", (root.path() / "policy.json").string());
  }
};

// The approval a CONFIRMATION_REQUIRED recorded: its id, after the checks every such refusal
// passes (nothing sent, no credential in it).
std::string approval_of(const RunResult& result) {
  const json refused = expect_error(result, "CONFIRMATION_REQUIRED", 3);
  CHECK(refused["details"]["dispatchState"] == "not_dispatched");
  REQUIRE(refused["details"].contains("approvalId"));
  const std::string id = refused["details"]["approvalId"];
  CHECK(std::regex_match(id, std::regex("[0-9a-f]{32}")));
  CHECK(refused["details"].contains("expiresAt"));
  CHECK_FALSE(refused["details"].contains("token"));
  CHECK(result.out.find("\"token\"") == std::string::npos);
  CHECK(refused["message"].get<std::string>().find("clawperator approve " + id) !=
        std::string::npos);
  return id;
}

}  // namespace

TEST_CASE("policy: a denied click is refused before anything is sent", "[integration][policy]") {
  Farm farm({"default"});
  TemporaryDirectory root("policy");
  write_file(root.path() / "policy.json", kPolicy);
  open_settings(farm);
  const RunResult denied = farm.clawperator({"click", "--text", "Network & internet", "--policy",
                                             (root.path() / "policy.json").string()});
  CHECK(denied.exit_code == 3);
  const json failure = single_document(denied);
  CHECK(failure["code"] == "POLICY_DENIED");
  CHECK(failure["details"]["ruleId"] == "no-network");
  // What the tap would activate: the row, its title and its summary, read on the screen.
  CHECK(failure["details"]["step"]["labels"] ==
        json::array({"Network & internet", "android:id/title", "Mobile, Wi\u2011Fi, hotspot",
                     "android:id/summary"}));
  CHECK(failure["details"]["dispatchState"] == "not_dispatched");
  CHECK(failure["disposition"]["delivery"] == "not_delivered");
  CHECK(on_settings_home(farm));
  // The same through CLAWPERATOR_POLICY, and the decision is in the log.
  farm.set_env("CLAWPERATOR_POLICY", (root.path() / "policy.json").string());
  CHECK(single_document(farm.clawperator({"click", "--text", "Network & internet"}))["code"] ==
        "POLICY_DENIED");
  std::string log;
  for (const auto& entry : fs::directory_iterator(farm.log_dir())) {
    std::ifstream in(entry.path());
    log.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  CHECK(log.find("\"policy.decision\"") != std::string::npos);
  CHECK(log.find("\"outcome\":\"denied\"") != std::string::npos);
  // A policy that does not load refuses every execution.
  write_file(root.path() / "broken.json", R"({"schemaVersion": 1, "rules": [{"id": "x"}]})");
  const RunResult broken =
      farm.clawperator({"snapshot", "--policy", (root.path() / "broken.json").string()});
  CHECK(broken.exit_code == 2);
  CHECK(single_document(broken)["code"] == "POLICY_INVALID");
}

TEST_CASE("policy: without a terminal a confirm rule records an approval only a person grants",
          "[integration][policy]") {
  GuardedPhone phone;
  Farm& farm = phone.farm;
  const std::vector<std::string> click = {"click", "--text", "Display"};
  const auto confirmed = [&](const std::string& id, std::vector<std::string> args) {
    args.insert(args.end(), {"--confirm", id});
    return farm.clawperator(args);
  };
  // No controlling terminal (run_binary's own session): refused, with an approval id and no
  // credential.
  RunResult result = farm.clawperator(click);
  const std::string id = approval_of(result);
  json refused = single_document(result);
  CHECK(refused["details"]["ruleId"] == "confirm-display");
  CHECK(refused["details"]["step"]["labels"] ==
        json::array({"Display", "android:id/title", "Dark theme, font size, brightness",
                     "android:id/summary"}));
  CHECK(on_settings_home(farm));

  // The caller repeating the call with the id before a person answered: nothing runs, the
  // approval is not spent.
  for (int attempt = 0; attempt < 2; ++attempt) {
    result = confirmed(id, click);
    refused = expect_error(result, "CONFIRMATION_REQUIRED", 3);
    CHECK(refused["details"]["approvalId"] == id);
    CHECK(refused["message"].get<std::string>().find("still waits for a person") !=
          std::string::npos);
    CHECK(on_settings_home(farm));
  }

  // `approve` without a terminal approves nothing; a malformed id is a usage error.
  result = farm.clawperator({"approve", id});
  refused = expect_error(result, "CONFIRMATION_APPROVER_REQUIRED", 3);
  CHECK(refused["details"]["approvalId"] == id);
  expect_error(farm.clawperator({"approve"}), "CONFIRMATION_APPROVER_REQUIRED", 3);
  CHECK(expect_error(farm.clawperator({"approve", "yes"}), "USAGE", 2)["details"]["argument"] ==
        "id");
  CHECK(expect_error(confirmed(id, click), "CONFIRMATION_REQUIRED", 3)["details"]["approvalId"] ==
        id);

  // A person at a terminal: shown the step, the app, the device, the rule and its reason.
  AtTerminal approved = at_terminal(farm, {"approve", id}, {"y"});
  INFO(approved.terminal);
  CHECK(approved.run.exit_code == 0);
  const json answer = single_document(approved.run);
  CHECK(answer ==
        json{{"ok", true}, {"approvalId", id}, {"approved", true}, {"state", "approved"}});
  for (const std::string& shown :
       {id, std::string("click on \"Display\""), farm.serials().front(),
        std::string("Rule confirm-display: display settings change what the user sees"),
        std::string("Approve it? [y/N]")}) {
    CHECK(approved.terminal.find(shown) != std::string::npos);
  }
  // Answered: asking again is refused.
  AtTerminal again = at_terminal(farm, {"approve", id}, {"y"});
  expect_error(again.run, "CONFIRMATION_UNKNOWN", 3);

  // Then the identical call runs once.
  result = confirmed(id, click);
  CHECK(result.exit_code == 0);
  CHECK(single_document(result)["ok"] == true);
  CHECK_FALSE(on_settings_home(farm));
  result = confirmed(id, click);
  CHECK(expect_error(result, "CONFIRMATION_UNKNOWN", 3)["details"]["dispatchState"] ==
        "not_dispatched");

  // An approved id tried with another payload is spent.
  REQUIRE(farm.clawperator({"back"}).exit_code == 0);
  REQUIRE(on_settings_home(farm));
  const std::string other = approval_of(farm.clawperator(click));
  REQUIRE(at_terminal(farm, {"approve", other}, {"yes"}).run.exit_code == 0);
  expect_error(confirmed(other, {"click", "--text", "Display", "--long"}), "CONFIRMATION_UNKNOWN",
               3);
  expect_error(confirmed(other, click), "CONFIRMATION_UNKNOWN", 3);
  CHECK(on_settings_home(farm));

  // Declined: the call is told so, once, and nothing runs.
  const std::string declined = approval_of(farm.clawperator(click));
  const AtTerminal no = at_terminal(farm, {"approve", declined}, {"n"});
  CHECK(no.run.exit_code == 0);
  CHECK(single_document(no.run) ==
        json{{"ok", true}, {"approvalId", declined}, {"approved", false}, {"state", "declined"}});
  expect_error(confirmed(declined, click), "CONFIRMATION_DECLINED", 3);
  expect_error(confirmed(declined, click), "CONFIRMATION_UNKNOWN", 3);
  CHECK(on_settings_home(farm));
  // An id nobody recorded.
  expect_error(at_terminal(farm, {"approve", std::string(32, 'a')}, {}).run, "CONFIRMATION_UNKNOWN",
               3);
  // A token that is no id names no approval: unknown, as an id nobody recorded, before anything
  // is sent.
  CHECK(expect_error(farm.clawperator({"snapshot", "--confirm", "yes"}), "CONFIRMATION_UNKNOWN",
                     3)["details"]["flag"] == "--confirm");

  // Every decision is logged: who approved, through what; never the step's labels.
  bool approved_logged = false;
  bool ran_logged = false;
  for (const json& event : farm.logged_events("policy.decision")) {
    CHECK_FALSE(event.contains("labels"));
    CHECK(event.dump().find("\"Display\"") == std::string::npos);
    if (event.value("approvalId", "") != id) continue;
    if (event["outcome"] == "approved by a person") {
      approved_logged = event["answeredBy"]["through"] == "terminal";
    }
    if (event["outcome"] == "confirmed by approval") {
      ran_logged =
          event["answeredBy"]["through"] == "terminal" && event["ruleId"] == "confirm-display";
    }
  }
  CHECK(approved_logged);
  CHECK(ran_logged);
}

TEST_CASE("policy: approve without an id asks about each pending approval in turn",
          "[integration][policy]") {
  GuardedPhone phone;
  Farm& farm = phone.farm;
  const std::vector<std::string> click = {"click", "--text", "Display"};
  const std::string first = approval_of(farm.clawperator(click));
  const std::string second = approval_of(farm.clawperator(click));
  const AtTerminal walk = at_terminal(farm, {"approve"}, {"n", "y"});
  INFO(walk.terminal);
  CHECK(walk.run.exit_code == 0);
  CHECK(single_document(walk.run)["approvals"] ==
        json::array({{{"approvalId", first}, {"approved", false}, {"state", "declined"}},
                     {{"approvalId", second}, {"approved", true}, {"state", "approved"}}}));
  // Oldest first.
  CHECK(walk.terminal.find(first) < walk.terminal.find(second));
  std::vector<std::string> args = click;
  args.insert(args.end(), {"--confirm", first});
  expect_error(farm.clawperator(args), "CONFIRMATION_DECLINED", 3);
  CHECK(on_settings_home(farm));
  args.back() = second;
  CHECK(farm.clawperator(args).exit_code == 0);
  CHECK_FALSE(on_settings_home(farm));
  // Nothing waits any more.
  const AtTerminal none = at_terminal(farm, {"approve"}, {});
  CHECK(single_document(none.run) == json{{"ok", true}, {"approvals", json::array()}});
  CHECK(none.terminal.find("No approval waits") != std::string::npos);
}

TEST_CASE(
    "policy: the person at the controlling terminal is asked, though stdin and stdout are "
    "pipes",
    "[integration][policy]") {
  GuardedPhone phone;
  Farm& farm = phone.farm;
  // The terminal of a new session is the controlling terminal; stdin is /dev/null and stdout a
  // pipe, as when an agent's shell tool runs the command.
  AtTerminal asked = at_terminal(farm, {"click", "--text", "Display"}, {"n"});
  INFO(asked.terminal);
  CHECK(asked.terminal.find("Send it? [y/N]") != std::string::npos);
  CHECK(asked.terminal.find("click on \"Display\"") != std::string::npos);
  json refused = expect_error(asked.run, "CONFIRMATION_DECLINED", 3);
  CHECK_FALSE(refused["details"].contains("approvalId"));
  CHECK(on_settings_home(farm));
  asked = at_terminal(farm, {"click", "--text", "Display"}, {"y"});
  INFO(asked.terminal);
  CHECK(asked.run.exit_code == 0);
  CHECK(single_document(asked.run)["ok"] == true);
  CHECK_FALSE(on_settings_home(farm));
  std::vector<std::string> outcomes;
  for (const json& event : farm.logged_events("policy.decision")) {
    if (event.value("answeredBy", json::object()).value("through", "") == "terminal") {
      outcomes.push_back(event["outcome"]);
    }
  }
  CHECK(outcomes == std::vector<std::string>{"declined", "confirmed by a person"});
}

TEST_CASE("policy: a background job is never asked: it gets an approval, and cannot approve",
          "[integration][policy]") {
  GuardedPhone phone;
  Farm& farm = phone.farm;
  // In a process group that is not the terminal's foreground group (a shell's `&`, a skill's
  // script): no question, so nothing ever stops on SIGTTIN or SIGTTOU.
  const AtTerminal job = at_terminal(farm, {"click", "--text", "Display"}, {"y"}, true);
  INFO(job.terminal);
  CHECK(job.terminal.find("Send it?") == std::string::npos);
  const std::string id = approval_of(job.run);
  CHECK(on_settings_home(farm));
  const AtTerminal approving = at_terminal(farm, {"approve", id}, {"y"}, true);
  CHECK(approving.terminal.find("Approve it?") == std::string::npos);
  expect_error(approving.run, "CONFIRMATION_APPROVER_REQUIRED", 3);
  std::vector<std::string> args = {"click", "--text", "Display", "--confirm", id};
  expect_error(farm.clawperator(args), "CONFIRMATION_REQUIRED", 3);
  CHECK(on_settings_home(farm));
}

TEST_CASE("policy: a tap at a point is judged by what lies under it", "[integration][policy]") {
  GuardedPhone phone;
  const auto center_of = [&](const std::string& text) {
    const json found = single_document(phone.farm.clawperator({"query", "--text", text}));
    INFO(found.dump().substr(0, 1500));
    REQUIRE(found["query"]["nodes"].size() == 1);
    const json& bounds = found["query"]["nodes"][0]["bounds"];
    return std::vector<std::string>{
        std::to_string((bounds["left"].get<int>() + bounds["right"].get<int>()) / 2),
        std::to_string((bounds["top"].get<int>() + bounds["bottom"].get<int>()) / 2)};
  };
  // Over "Network & internet": the deny rule's label, read with one query_ui; nothing is sent.
  const auto network = center_of("Network & internet");
  const RunResult denied =
      phone.farm.clawperator({"click", "--coordinate", network[0], network[1]});
  CHECK(denied.exit_code == 3);
  const json failure = single_document(denied);
  INFO(failure.dump());
  CHECK(failure["code"] == "POLICY_DENIED");
  CHECK(failure["details"]["ruleId"] == "no-network");
  const json& labels = failure["details"]["step"]["labels"];
  CHECK(std::find(labels.begin(), labels.end(), "Network & internet") != labels.end());
  CHECK(on_settings_home(phone.farm));
  // Over a row no rule names: the tap goes.
  const auto apps = center_of("Apps");
  const RunResult allowed = phone.farm.clawperator({"click", "--coordinate", apps[0], apps[1]});
  INFO(allowed.out);
  CHECK(allowed.exit_code == 0);
}

namespace {

// The command ids of the policy's screen reads the device answered, from its own log.
std::set<std::string> screen_reads_on_device(const Farm& farm) {
  const RunResult log = farm.adb({"-s", farm.serials().front(), "logcat", "-d"});
  std::set<std::string> ids;
  for (std::size_t at = log.out.find("policy-query-"); at != std::string::npos;
       at = log.out.find("policy-query-", at + 1)) {
    ids.insert(log.out.substr(at, std::string("policy-query-").size() + 32));
  }
  return ids;
}

// The home screen in front, kNoNetworkTaps in CLAWPERATOR_POLICY for every command after that.
struct GuardedHome {
  Farm farm{std::vector<std::string>{"default"}};
  TemporaryDirectory root{"policy"};
  GuardedHome() {
    write_file(root.path() / "policy.json", kNoNetworkTaps);
    REQUIRE(farm.clawperator({"press", "home"}).exit_code == 0);
    farm.set_env("CLAWPERATOR_POLICY", (root.path() / "policy.json").string());
  }
};

}  // namespace

TEST_CASE("policy: each way around a rule is judged on the node the step would tap",
          "[integration][policy]") {
  Farm farm({"default"});
  TemporaryDirectory root("policy");
  write_file(root.path() / "policy.json", kNoNetworkTaps);
  open_settings(farm);
  const std::vector<Bypass> bypasses = policy_bypasses(farm);
  farm.set_env("CLAWPERATOR_POLICY", (root.path() / "policy.json").string());
  const auto expect_denied = [&](const RunResult& result, const std::string& rule) {
    INFO(result.out);
    const json failure = single_document(result);
    CHECK(failure["code"] == "POLICY_DENIED");
    CHECK(failure["details"]["ruleId"] == rule);
    CHECK(on_settings_home(farm));  // nothing tapped: the list is still in front
    return failure;
  };
  for (const Bypass& bypass : bypasses) {
    INFO(bypass.name);
    if (bypass.from_home) REQUIRE(farm.clawperator({"press", "home"}).exit_code == 0);
    const RunResult result = farm.exec(bypass.actions);
    const json failure = expect_denied(result, bypass.rule);
    // Refused before anything was sent, unless steps before it changed the device.
    CHECK(result.exit_code == (bypass.from_home ? 1 : 3));
    CHECK(failure["disposition"]["delivery"] ==
          (bypass.from_home ? "delivered_verified" : "not_delivered"));
  }
  // The CLI's own flags reach the same judgement.
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{{"click", "--id", "android:id/title"},
                                             {"click", "--text-contains", "etwork"},
                                             {"click", "--text-contains", "NETWOR\u212a"}}) {
    expect_denied(farm.clawperator(flags), "no-network");
  }
  // Another row is another row.
  const RunResult display = farm.clawperator({"click", "--text", "Display"});
  INFO(display.out);
  CHECK(display.exit_code == 0);
}

TEST_CASE("policy: a step after open_app is judged in the app it opened, the steps before it ran",
          "[integration][policy]") {
  const GuardedHome home;
  const Farm& farm = home.farm;
  const json actions = json::array(
      {{{"id", "open"},
        {"type", "open_app"},
        {"params", {{"applicationId", "com.android.settings"}}}},
       {{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 100}}}},
       {{"id", "apps"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "Apps"}}}}}}});
  const RunResult result = farm.exec(actions);
  INFO(result.out);
  // Delivered: Settings opened before the click was refused; a retry would open it again.
  CHECK(result.exit_code == 1);
  const json failure = single_document(result);
  CHECK(failure["code"] == "POLICY_DENIED");
  CHECK(failure["details"]["ruleId"] == "no-apps-in-settings");
  CHECK(failure["details"]["step"]["package"] == "com.android.settings");
  CHECK(failure["details"]["step"]["index"] == 2);
  CHECK(failure["disposition"]["delivery"] == "delivered_verified");
  CHECK(failure["disposition"]["retry"] == "unsafe");
  const json& steps = failure["details"]["envelope"]["stepResults"];
  REQUIRE(steps.size() == 3);
  CHECK(steps[0]["id"] == "open");
  CHECK(steps[0]["success"] == true);
  CHECK(steps[1]["success"] == true);
  CHECK(steps[2]["id"] == "apps");
  CHECK(steps[2]["success"] == false);
  CHECK(steps[2]["data"]["error"] == "POLICY_DENIED");
  CHECK(failure["details"]["envelope"]["commandId"] == "it-1");
  CHECK(on_settings_home(farm));  // Settings in front, the Apps page never opened
}

TEST_CASE("policy: a payload in segments runs as one, and a step no rule could match costs no read",
          "[integration][policy]") {
  const GuardedHome home;
  const Farm& farm = home.farm;
  // Nothing here is a tap or a click: no rule could match, so no screen is read.
  RunResult result =
      farm.exec(json::array({{{"id", "open"},
                              {"type", "open_app"},
                              {"params", {{"applicationId", "com.android.settings"}}}},
                             {{"id", "look"}, {"type", "snapshot"}}}));
  INFO(result.out);
  CHECK(result.exit_code == 0);
  CHECK_FALSE(single_document(result).contains("policy"));
  CHECK(screen_reads_on_device(farm).empty());
  // open, then two taps a rule could match: each judged on its own screen, one read each.
  result = farm.exec(
      json::array({{{"id", "open"},
                    {"type", "open_app"},
                    {"params", {{"applicationId", "com.android.settings"}}}},
                   {{"id", "display"},
                    {"type", "click"},
                    {"params", {{"matcher", {{"textEquals", "Display"}}}}}},
                   {{"id", "look"}, {"type", "snapshot"}},
                   {{"id", "back"}, {"type", "press_key"}, {"params", {{"key", "back"}}}}}));
  INFO(result.out);
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["envelope"]["commandId"] == "it-2");
  const json& steps = document["envelope"]["stepResults"];
  REQUIRE(steps.size() == 4);
  CHECK(steps[1]["id"] == "display");
  CHECK(steps[2]["data"]["text"].get<std::string>().find("Brightness") != std::string::npos);
  CHECK(document["policy"]["segments"] == 2);
  CHECK(document["policy"]["screenReads"] == 1);
  CHECK(screen_reads_on_device(farm).size() == 1);
  CHECK(document["disposition"]["delivery"] == "delivered_verified");
}

TEST_CASE("policy: a skill's own clawperator calls run under the --policy its run was given",
          "[integration][policy][skills]") {
  Farm farm({"default"});
  TemporaryDirectory root("policy");
  write_file(root.path() / "policy.json", kPolicy);
  open_settings(farm);
  SkillsRepo repo;
  // Each call's document and exit code, a line each, and what the script was handed.
  repo.add("com.test.guarded",
           "\"$CLAWPERATOR_BIN\" click --text 'Network & internet'; echo \"rc=$?\"\n"
           "\"$CLAWPERATOR_BIN\" click --text Display; echo \"rc=$?\"\n"
           "echo \"policy=$CLAWPERATOR_POLICY confirmation=$CLAWPERATOR_CONFIRMATION "
           "authentic=$CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT\"\n");
  // The flag, not the environment: the environment's policy would reach the script anyway.
  const std::string policy = (root.path() / "policy.json").string();
  const RunResult run =
      farm.clawperator({"skills", "--registry", repo.registry(), "run", "com.test.guarded",
                        "--policy", policy, "--require-authentic-result"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string output = single_document(run)["output"];
  std::istringstream lines(output);
  std::vector<json> documents;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.front() == '{') documents.push_back(json::parse(line));
  }
  REQUIRE(documents.size() == 2);
  CHECK(documents[0]["code"] == "POLICY_DENIED");
  CHECK(documents[0]["details"]["ruleId"] == "no-network");
  CHECK(documents[0]["disposition"]["delivery"] == "not_delivered");
  // A confirm rule inside a skill: never asked (the script is not a person), refused with an
  // approval a person may grant, and no credential.
  CHECK(documents[1]["code"] == "CONFIRMATION_REQUIRED");
  CHECK(documents[1]["details"]["ruleId"] == "confirm-display");
  CHECK_FALSE(documents[1]["details"].contains("token"));
  CHECK(std::regex_match(documents[1]["details"].value("approvalId", ""),
                         std::regex("[0-9a-f]{32}")));
  // Each call exited 3 (refused before dispatch), and the script went on.
  std::size_t exits_of_3 = 0;
  for (auto at = output.find("\nrc=3\n"); at != std::string::npos;
       at = output.find("\nrc=3\n", at + 1)) {
    ++exits_of_3;
  }
  CHECK(exits_of_3 == 2);
  CHECK(output.find("policy=" + fs::absolute(policy).string() +
                    " confirmation=withhold authentic=1") != std::string::npos);
  CHECK(on_settings_home(farm));

  // A policy that does not load refuses the skill before its script starts.
  write_file(root.path() / "broken.json", R"({"schemaVersion": 1, "rules": [{"id": "x"}]})");
  const RunResult broken =
      farm.clawperator({"skills", "--registry", repo.registry(), "run", "com.test.guarded",
                        "--policy", (root.path() / "broken.json").string()});
  CHECK(broken.exit_code == 2);
  const json refused = single_document(broken);
  CHECK(refused["code"] == "POLICY_INVALID");
  CHECK(refused["disposition"]["delivery"] == "not_delivered");
  // An unknown CLAWPERATOR_CONFIRMATION is a usage error, never a silent default.
  farm.set_env("CLAWPERATOR_CONFIRMATION", "sometimes");
  const RunResult unknown = farm.clawperator({"snapshot"});
  CHECK(unknown.exit_code == 2);
  CHECK(single_document(unknown)["code"] == "USAGE");
}

// Where a tap lands on `text`'s node (its centre), read before any policy applies.
std::vector<std::string> centre_of(const Farm& farm, const std::string& text) {
  const json found = single_document(farm.clawperator({"query", "--text", text}));
  INFO(found.dump().substr(0, 1500));
  REQUIRE(found["query"]["nodes"].size() == 1);
  const json& bounds = found["query"]["nodes"][0]["bounds"];
  return {std::to_string((bounds["left"].get<int>() + bounds["right"].get<int>()) / 2),
          std::to_string((bounds["top"].get<int>() + bounds["bottom"].get<int>()) / 2)};
}

// Settings in front from boot, so that no command is spent to get there (faults count the
// Operator's commands from the first).
vdevice::android::Scenario settings_in_front() {
  vdevice::android::Scenario phone = scenario("default");
  phone.initial_screen = "settings.main";
  return phone;
}

const char* const kConfirmDisplay = R"({"schemaVersion": 1, "rules": [
  {"id": "confirm-display", "decision": "confirm", "labels": ["Display"],
   "reason": "display settings change what the user sees"}]})";

using Stopwatch = std::chrono::steady_clock;

double seconds_since(Stopwatch::time_point start) {
  return std::chrono::duration<double>(Stopwatch::now() - start).count();
}

TEST_CASE("policy: a screen read that never finishes costs its own budget and never the tap's",
          "[integration][policy]") {
  // Where "Display" lies, on a phone that answers.
  std::vector<std::string> point;
  {
    Farm plain(Farm::Built{{settings_in_front()}});
    point = centre_of(plain, "Display");
  }
  // A phone whose Operator leaves its first two commands unanswered: the policy's screen reads
  // of both calls below. The tap itself (the third) is answered.
  vdevice::android::Scenario silent = settings_in_front();
  silent.faults.never_answer = true;
  silent.faults.count = 2;
  Farm farm(Farm::Built{{silent}});
  TemporaryDirectory root("policy");
  write_file(root.path() / "policy.json", kConfirmDisplay);
  farm.set_env("CLAWPERATOR_POLICY", (root.path() / "policy.json").string());
  // The shortest budget a payload may have (1 s): the screen read must not spend it.
  const std::vector<std::string> tap = {"click",  "--coordinate", point[0],
                                        point[1], "--timeout",    "1000"};

  // The unread screen errs on the side of asking, and says why: the read's own code.
  auto started = Stopwatch::now();
  const RunResult asked = farm.clawperator(tap);
  const double asked_seconds = seconds_since(started);
  INFO(asked.out);
  const json refused = single_document(asked);
  CHECK(asked.exit_code == 3);
  REQUIRE(refused["code"] == "CONFIRMATION_REQUIRED");
  CHECK(refused["disposition"]["delivery"] == "not_delivered");
  CHECK(refused["details"]["dispatchState"] == "not_dispatched");
  CHECK(refused["details"]["screenRead"]["ok"] == false);
  CHECK(refused["details"]["screenRead"]["code"] == "RESULT_ENVELOPE_TIMEOUT");
  CHECK(refused["details"]["step"]["labels"] == json::array());
  // Within the read's own budget and the result grace (docs/guardrails.md §3), and a margin.
  CHECK(asked_seconds < 3.0 + 5.0 + 2.0);
  const std::string id = approval_of(asked);
  REQUIRE(at_terminal(farm, {"approve", id}, {"y"}).run.exit_code == 0);

  // Confirmed: the read fails the same way, and the tap still has its whole budget.
  std::vector<std::string> confirmed = tap;
  confirmed.insert(confirmed.end(), {"--confirm", id});
  started = Stopwatch::now();
  const RunResult result = farm.clawperator(confirmed);
  INFO(result.out);
  const json document = single_document(result);
  CHECK(document.value("code", "") != "DEVICE_SHELL_UNAVAILABLE");
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["envelope"]["status"] == "success");
  CHECK(seconds_since(started) < 3.0 + 5.0 + 1.0 + 5.0 + 2.0);
  CHECK_FALSE(on_settings_home(farm));  // the tap opened Display
}

TEST_CASE("policy: a screen the Operator cannot read meets every label rule and says why",
          "[integration][policy]") {
  // The accessibility service gets no window root: the policy's query_ui fails on the device.
  Farm farm({"ui-tree-unavailable"});
  TemporaryDirectory root("policy");
  write_file(root.path() / "confirm.json", kConfirmDisplay);
  write_file(root.path() / "deny.json", kPolicy);
  const std::vector<std::string> tap = {"click", "--coordinate", "540", "900"};

  std::vector<std::string> args = tap;
  args.insert(args.end(), {"--policy", (root.path() / "confirm.json").string()});
  RunResult result = farm.clawperator(args);
  INFO(result.out);
  json refused = expect_error(result, "CONFIRMATION_REQUIRED", 3);
  CHECK(refused["details"]["phase"] == "readiness");
  CHECK(refused["details"]["dispatchState"] == "not_dispatched");
  CHECK(refused["details"]["screenRead"]["ok"] == false);
  CHECK(refused["details"]["screenRead"]["code"] == "UI_TREE_UNAVAILABLE");
  CHECK(refused["details"]["step"]["labels"] == json::array());

  // Where a deny rule matches labels, the unread point meets it too: denied, and why.
  args = tap;
  args.insert(args.end(), {"--policy", (root.path() / "deny.json").string()});
  result = farm.clawperator(args);
  INFO(result.out);
  refused = single_document(result);
  CHECK(result.exit_code == 3);
  CHECK(refused["code"] == "POLICY_DENIED");
  CHECK(refused["disposition"]["delivery"] == "not_delivered");
  CHECK(refused["details"]["ruleId"] == "no-network");
  CHECK(refused["details"]["screenRead"]["code"] == "UI_TREE_UNAVAILABLE");
}
