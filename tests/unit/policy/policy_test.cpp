// The action policy's file, matching and approvals (docs/guardrails.md).
#include "clawperator/policy/policy.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

using namespace clawperator;
using clawperator::testing::TemporaryDirectory;

namespace {

contract::Execution execution_of(const Json& actions) {
  const Json payload = {{"commandId", "c1"},  {"taskId", "t1"},
                        {"source", "test"},   {"expectedFormat", "android-ui-automator"},
                        {"timeoutMs", 30000}, {"actions", actions}};
  contract::ValidationOutcome validated = contract::validate_execution(payload);
  REQUIRE(validated.valid);
  return *validated.valid;
}

policy::Policy policy_of(const std::string& text) {
  auto parsed = policy::parse_policy(text, "test.json");
  INFO((parsed ? std::string() : parsed.error().message));
  REQUIRE(parsed);
  return *parsed;
}

}  // namespace

TEST_CASE("policy files: the format, and every mistake refused by name", "[policy]") {
  const policy::Policy parsed = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "pay", "decision": "deny", "actions": ["click", "enter_text"],
       "packages": ["com.android.vending"], "labels": ["Buy*"], "reason": "money"},
      {"id": "send", "decision": "confirm", "labels": ["Send"]}]})");
  REQUIRE(parsed.rules.size() == 2);
  CHECK(parsed.rules[0].decision == policy::Decision::Deny);
  CHECK(parsed.rules[0].actions == std::vector<std::string>{"click", "enter_text"});
  CHECK(parsed.uses_packages());
  // An alias of an action type is its canonical name.
  CHECK(
      policy_of(
          R"({"schemaVersion":1,"rules":[{"id":"a","decision":"deny","actions":["snapshot_ui"]}]})")
          .rules[0]
          .actions == std::vector<std::string>{"snapshot"});

  for (
      const auto& [text, path] : std::vector<std::pair<std::string, std::string>>{
          {"[]", "$"},
          {R"({"schemaVersion": 2, "rules": []})", "schemaVersion"},
          {R"({"schemaVersion": 1})", "rules"},
          {R"({"schemaVersion": 1, "rules": [], "extra": 1})", "extra"},
          {R"({"schemaVersion": 1, "rules": [{"decision": "deny", "labels": ["x"]}]})",
           "rules[0].id"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "ask", "labels": ["x"]}]})",
           "rules[0].decision"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "deny"}]})", "rules[0]"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "deny", "lables": ["x"]}]})",
           "rules[0].lables"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "deny", "labels": [" "]}]})",
           "rules[0].labels[0]"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "deny", "actions": ["teleport"]}]})",
           "rules[0].actions"},
          {R"({"schemaVersion": 1, "rules": [{"id": "a", "decision": "deny", "labels": ["x"]},
                                              {"id": "a", "decision": "deny", "labels": ["y"]}]})",
           "rules[1].id"},
      }) {
    INFO(text);
    const auto refused = policy::parse_policy(text, "test.json");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "POLICY_INVALID");
    CHECK(refused.error().details["path"] == path);
    CHECK(contract::exit_code_of(refused.error()) == 2);
  }
}

TEST_CASE("policy files: where they come from", "[policy]") {
  TemporaryDirectory home("policy-home");
  std::map<std::string, std::string> variables = {{"HOME", home.path().string()}};
  io::StateEnvironment environment;
  environment.variable = [&variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
  // No file in the default place: no policy.
  auto loaded = policy::load_policy(std::nullopt, environment);
  REQUIRE(loaded);
  CHECK_FALSE(*loaded);
  std::filesystem::create_directories(home.path() / ".config" / "clawperator");
  const auto default_file = home.path() / ".config" / "clawperator" / "policy.json";
  clawperator::testing::write_file(
      default_file, R"({"schemaVersion":1,"rules":[{"id":"d","decision":"deny","labels":["x"]}]})");
  loaded = policy::load_policy(std::nullopt, environment);
  REQUIRE(loaded);
  REQUIRE(*loaded);
  CHECK((*loaded)->source == default_file.string());
  // A file named by the flag or the variable must load.
  variables["CLAWPERATOR_POLICY"] = (home.path() / "missing.json").string();
  loaded = policy::load_policy(std::nullopt, environment);
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().code == "POLICY_INVALID");
  loaded = policy::load_policy(default_file.string(), environment);
  REQUIRE(loaded);
  CHECK((*loaded)->rules[0].id == "d");
}

TEST_CASE("policy matching: type, package and label, deny before confirm", "[policy]") {
  const policy::Policy rules = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "confirm-send", "decision": "confirm", "labels": ["send*"]},
      {"id": "no-store", "decision": "deny", "actions": ["click"], "packages": ["com.android.vending"]},
      {"id": "no-delete", "decision": "deny", "labels": ["*delete account*"]}]})");
  const auto verdict = [&](const Json& actions, std::optional<std::string> foreground = {}) {
    return policy::evaluate(rules, policy::step_targets(execution_of(actions), foreground));
  };
  const Json click_send = {
      {"id", "s"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "SEND NOW"}}}}}};
  policy::Verdict result = verdict(Json::array({click_send}), "com.android.settings");
  CHECK(result.decision == policy::Decision::Confirm);
  CHECK(result.rule->id == "confirm-send");
  CHECK(result.step.step_id == "s");
  // A deny later in the payload wins over an earlier confirm.
  const Json delete_account = {
      {"id", "d"},
      {"type", "click"},
      {"params", {{"matcher", {{"contentDescContains", "Delete Account now"}}}}}};
  result = verdict(Json::array({click_send, delete_account}), "com.android.settings");
  CHECK(result.decision == policy::Decision::Deny);
  CHECK(result.rule->id == "no-delete");
  CHECK(result.step.index == 1);
  // Packages: the foreground app, or the one a step opens; unknown counts as matching.
  const Json plain_click = {
      {"id", "c"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "OK"}}}}}};
  CHECK(verdict(Json::array({plain_click}), "com.android.settings").decision ==
        policy::Decision::Allow);
  CHECK(verdict(Json::array({plain_click}), "com.android.vending").decision ==
        policy::Decision::Deny);
  CHECK(verdict(Json::array({plain_click})).decision == policy::Decision::Deny);
  // A point has no label of its own: a label rule asks.
  const Json tap = {
      {"id", "p"}, {"type", "click"}, {"params", {{"coordinate", {{"x", 5}, {"y", 5}}}}}};
  CHECK(verdict(Json::array({tap}), "com.android.settings").decision == policy::Decision::Deny);
  const Json snapshot = {{"id", "snap"}, {"type", "snapshot"}};
  CHECK(verdict(Json::array({snapshot}), "com.android.settings").decision ==
        policy::Decision::Allow);
}

TEST_CASE("a step that names only its container is judged by the container's labels", "[policy]") {
  const policy::Policy guarded = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "no-feed", "decision": "confirm", "actions": ["scroll"], "labels": ["*feed*"]}]})");
  const auto scroll_in = [](const char* id) {
    return execution_of(
        Json::array({{{"id", "s"},
                      {"type", "scroll"},
                      {"params", {{"direction", "down"}, {"container", {{"resourceId", id}}}}}}}));
  };
  const auto steps = policy::step_targets(scroll_in("app:id/news_feed"), std::nullopt);
  CHECK(steps[0].labels == std::vector<std::string>{"app:id/news_feed"});
  CHECK(policy::evaluate(guarded, steps).decision == policy::Decision::Confirm);
  CHECK(policy::evaluate(guarded,
                         policy::step_targets(scroll_in("app:id/settings_list"), std::nullopt))
            .decision == policy::Decision::Allow);
}

TEST_CASE("a step aimed at a point takes the labels of what lies under it", "[policy]") {
  const policy::Policy guarded = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "no-buy", "decision": "deny", "labels": ["Buy*"]}]})");
  const Json tap = {
      {"id", "tap"}, {"type", "click"}, {"params", {{"coordinate", {{"x", 150}, {"y", 520}}}}}};
  const Json swipe = {
      {"id", "swipe"},
      {"type", "swipe"},
      {"params",
       {{"start", {{"x", 20}, {"y", 20}}}, {"end", {{"x", 20}, {"y", 900}}}, {"durationMs", 300}}}};
  std::vector<policy::StepTarget> steps =
      policy::step_targets(execution_of(Json::array({tap, swipe})), std::nullopt);
  REQUIRE(steps[0].point == std::make_pair(150.0, 520.0));
  REQUIRE(steps[1].point == std::make_pair(20.0, 20.0));
  // Unread, a point meets every label rule.
  CHECK(policy::evaluate(guarded, steps).decision == policy::Decision::Deny);
  // query_ui's node summaries (docs/payload.md §10.1): the screen, a clickable row, its text.
  const auto node = [](const char* path, const char* label, const char* id, int left, int top,
                       int right, int bottom, bool clickable) {
    return Json{{"nodePath", path},
                {"label", label},
                {"contentDescription", ""},
                {"resourceId", id},
                {"clickable", clickable},
                {"bounds", {{"left", left}, {"top", top}, {"right", right}, {"bottom", bottom}}}};
  };
  const Json query = {
      {"nodes", Json::array({node("0", "", "android:id/content", 0, 0, 1080, 2400, false),
                             node("0.0", "", "shop:id/buy_row", 0, 480, 1080, 600, true),
                             node("0.0.0", "Buy now", "", 40, 500, 400, 560, false),
                             node("0.1", "Cart", "", 0, 0, 200, 100, true)})}};
  const hierarchy::Tree screen = hierarchy::tree_of_query(query);
  const contract::Execution both = execution_of(Json::array({tap, swipe}));
  SECTION("the smallest node and the smallest clickable one under the point, and its row") {
    policy::label_from_screen(steps[0], both.actions[0], screen);
    policy::label_from_screen(steps[1], both.actions[1], screen);
    CHECK(steps[0].labels == std::vector<std::string>{"Buy now", "shop:id/buy_row"});
    CHECK_FALSE(steps[0].unread);
    CHECK(steps[1].labels == std::vector<std::string>{"Cart"});
    const policy::Verdict verdict = policy::evaluate(guarded, steps);
    CHECK(verdict.decision == policy::Decision::Deny);
    CHECK(verdict.step.step_id == "tap");
  }
  SECTION("a point over nothing labelled is allowed") {
    const contract::Execution elsewhere_run =
        execution_of(Json::array({{{"id", "tap"},
                                   {"type", "click"},
                                   {"params", {{"coordinate", {{"x", 900}, {"y", 2000}}}}}}}));
    std::vector<policy::StepTarget> elsewhere = policy::step_targets(elsewhere_run, std::nullopt);
    policy::label_from_screen(elsewhere[0], elsewhere_run.actions[0], screen);
    CHECK(elsewhere[0].labels == std::vector<std::string>{"android:id/content"});
    CHECK(policy::evaluate(guarded, elsewhere).decision == policy::Decision::Allow);
  }
  SECTION("an answer with no node in it is no reading: the point meets every label rule") {
    for (const Json& broken :
         {Json(nullptr), Json::object(), Json{{"nodes", "x"}},
          Json{{"nodes", Json::array({1, Json{{"bounds", "x"}}, Json{{"nodePath", "0.a"}}})}}}) {
      std::vector<policy::StepTarget> copy = steps;
      policy::label_from_screen(copy[0], both.actions[0], hierarchy::tree_of_query(broken));
      CHECK(copy[0].unread);
      CHECK(policy::evaluate(guarded, copy).decision == policy::Decision::Deny);
    }
  }
}

namespace {

// Settings' home as the virtual phone draws it: rows that are clickable, each a title and a
// summary sharing their ids with every other row.
const Json kSettingsScreen = {
    {"nodes", Json::array({
                  {{"nodePath", "0"}, {"className", "android.widget.FrameLayout"}},
                  {{"nodePath", "0.0"},
                   {"className", "androidx.recyclerview.widget.RecyclerView"},
                   {"bounds", {{"left", 0}, {"top", 400}, {"right", 1080}, {"bottom", 2400}}}},
                  {{"nodePath", "0.0.0"},
                   {"className", "android.widget.LinearLayout"},
                   {"clickable", true},
                   {"bounds", {{"left", 0}, {"top", 500}, {"right", 1080}, {"bottom", 700}}}},
                  {{"nodePath", "0.0.0.0"},
                   {"className", "android.widget.TextView"},
                   {"resourceId", "android:id/title"},
                   {"label", "Network & internet"},
                   {"bounds", {{"left", 40}, {"top", 510}, {"right", 600}, {"bottom", 560}}}},
                  {{"nodePath", "0.0.0.1"},
                   {"className", "android.widget.TextView"},
                   {"resourceId", "android:id/summary"},
                   {"label", "Mobile, Wi-Fi, hotspot"},
                   {"bounds", {{"left", 40}, {"top", 620}, {"right", 600}, {"bottom", 680}}}},
                  {{"nodePath", "0.0.1"},
                   {"className", "android.widget.LinearLayout"},
                   {"clickable", true},
                   {"bounds", {{"left", 0}, {"top", 700}, {"right", 1080}, {"bottom", 900}}}},
                  {{"nodePath", "0.0.1.0"},
                   {"className", "android.widget.TextView"},
                   {"resourceId", "android:id/title"},
                   {"label", "Display"},
                   {"bounds", {{"left", 40}, {"top", 710}, {"right", 600}, {"bottom", 760}}}},
              })}};

// The verdict on one click step with `params`, judged on kSettingsScreen.
policy::Decision judged_click(const policy::Policy& guarded, const Json& params) {
  const contract::Execution run =
      execution_of(Json::array({{{"id", "c"}, {"type", "click"}, {"params", params}}}));
  std::vector<policy::StepTarget> steps = policy::step_targets(run, std::nullopt);
  REQUIRE(policy::wants_screen(guarded, steps[0]));
  policy::label_from_screen(steps[0], run.actions[0], hierarchy::tree_of_query(kSettingsScreen));
  return policy::evaluate(guarded, steps).decision;
}

}  // namespace

TEST_CASE("the node a step would act on is judged, not the words that name it", "[policy]") {
  const policy::Policy guarded = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "no-network", "decision": "deny", "effects": ["tap"], "labels": ["network*"]}]})");
  using policy::Decision;
  // The words: refused as before.
  CHECK(judged_click(guarded, {{"matcher", {{"textEquals", "Network & internet"}}}}) ==
        Decision::Deny);
  // A relation-only matcher: the row whose descendant is the title.
  CHECK(judged_click(guarded, {{"matcher",
                                {{"role", "LinearLayout"},
                                 {"descendant", {{"textEquals", "Network & internet"}}}}}}) ==
        Decision::Deny);
  // An id every row shares: one candidate is the network row.
  CHECK(judged_click(guarded, {{"matcher", {{"resourceId", "android:id/title"}}}}) ==
        Decision::Deny);
  // The summary of the row: the row it activates holds the title.
  CHECK(judged_click(guarded, {{"matcher", {{"textContains", "hotspot"}}}}) == Decision::Deny);
  // A point on the row, outside the title's bounds.
  CHECK(judged_click(guarded, {{"coordinate", {{"x", 800}, {"y", 650}}}}) == Decision::Deny);
  // A fragment, and a Kelvin sign the Operator folds to k.
  CHECK(judged_click(guarded, {{"matcher", {{"textContains", "etwork"}}}}) == Decision::Deny);
  CHECK(judged_click(guarded, {{"matcher", {{"textContains", "NETWOR\u212a"}}}}) == Decision::Deny);
  // Another row is another row.
  CHECK(judged_click(guarded, {{"matcher", {{"textEquals", "Display"}}}}) == Decision::Allow);
  CHECK(judged_click(guarded, {{"coordinate", {{"x", 800}, {"y", 850}}}}) == Decision::Allow);
}

TEST_CASE("rules name effects: every action that taps is a tap", "[policy]") {
  const policy::Policy guarded = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "no-taps", "decision": "deny", "effects": ["tap", "type"]}]})");
  const auto decision = [&](const Json& action) {
    return policy::evaluate(guarded,
                            policy::step_targets(execution_of(Json::array({action})), std::nullopt))
        .decision;
  };
  const Json matcher = {{"textEquals", "Network & internet"}};
  CHECK(decision({{"id", "a"},
                  {"type", "scroll_until"},
                  {"params", {{"matcher", matcher}, {"clickAfter", true}}}}) ==
        policy::Decision::Deny);
  CHECK(decision({{"id", "a"}, {"type", "scroll_until"}, {"params", {{"matcher", matcher}}}}) ==
        policy::Decision::Allow);
  CHECK(decision({{"id", "a"}, {"type", "scroll_and_click"}, {"params", {{"matcher", matcher}}}}) ==
        policy::Decision::Deny);
  CHECK(decision({{"id", "a"},
                  {"type", "click"},
                  {"params", {{"matcher", matcher}, {"clickType", "long_click"}}}}) ==
        policy::Decision::Deny);
  CHECK(decision({{"id", "a"},
                  {"type", "enter_text"},
                  {"params", {{"matcher", matcher}, {"text", "x"}}}}) == policy::Decision::Deny);
  CHECK(decision({{"id", "a"}, {"type", "snapshot"}}) == policy::Decision::Allow);
  // A misspelt effect is refused by name.
  const auto wrong = policy::parse_policy(R"({"schemaVersion": 1, "rules": [
      {"id": "x", "decision": "deny", "effects": ["taps"]}]})",
                                          "test.json");
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message ==
        "The policy test.json is not usable: rules[0].effects \"taps\" is not an effect "
        "(observe, tap, type, gesture, navigate, system)");
}

TEST_CASE("a step a rule could match, after one that may change the screen, starts a segment",
          "[policy]") {
  const policy::Policy guarded = policy_of(R"({"schemaVersion": 1, "rules": [
      {"id": "apps", "decision": "deny", "actions": ["click"],
       "packages": ["com.android.settings"], "labels": ["Apps"]}]})");
  const Json open = {{"id", "open"},
                     {"type", "open_app"},
                     {"params", {{"applicationId", "com.android.settings"}}}};
  const Json pause = {{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 100}}}};
  const Json click = {
      {"id", "apps"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "Apps"}}}}}};
  const Json look = {{"id", "look"}, {"type", "snapshot"}};
  // open_app, sleep, click: the click is judged after the app opened.
  auto segments =
      policy::plan_segments(guarded, execution_of(Json::array({open, pause, click, look})));
  REQUIRE(segments.size() == 2);
  CHECK(segments[0].begin == 0);
  CHECK(segments[0].end == 2);
  CHECK(segments[0].judged.empty());
  CHECK(segments[1].begin == 2);
  CHECK(segments[1].end == 4);
  CHECK(segments[1].judged == std::vector<std::size_t>{2});
  // Two clicks: the second is judged after the first.
  segments = policy::plan_segments(guarded, execution_of(Json::array({click, look, click})));
  REQUIRE(segments.size() == 2);
  CHECK(segments[0].judged == std::vector<std::size_t>{0});
  CHECK(segments[1].judged == std::vector<std::size_t>{2});
  // Nothing a rule could match: one segment, nothing judged, no screen read.
  segments = policy::plan_segments(guarded, execution_of(Json::array({open, pause, look})));
  REQUIRE(segments.size() == 1);
  CHECK(segments[0].judged.empty());
  // A click first, on the screen as it is: one segment.
  segments = policy::plan_segments(guarded, execution_of(Json::array({look, click})));
  REQUIRE(segments.size() == 1);
  CHECK(segments[0].judged == std::vector<std::size_t>{1});
}

TEST_CASE("policy globs", "[policy]") {
  CHECK(policy::glob_match("Buy*", "buy now"));
  CHECK(policy::glob_match("*pay*", "Google Pay"));
  CHECK(policy::glob_match("send", "SEND"));
  CHECK_FALSE(policy::glob_match("send", "send it"));
  CHECK(policy::glob_match("*", ""));
  CHECK(policy::glob_match("a*b*c", "axxbyyc"));
  CHECK_FALSE(policy::glob_match("a*b*c", "axxbyy"));
  CHECK(policy::glob_match("com.*.pay", "com.example.pay"));
  // No exponential backtracking.
  CHECK_FALSE(policy::glob_match("*a*a*a*a*a*a*a*a*a*a*b", std::string(5000, 'a')));
}

namespace {

// A pending approval for `digest`, as exec records one.
policy::Approval recorded(const io::StateDirectory& state, const std::string& digest) {
  policy::ApprovalRequest request;
  request.digest = digest;
  request.rule_id = "send";
  request.reason = "sends a message";
  request.policy_file = "/etc/policy.json";
  request.step = {{"id", "s"},
                  {"index", 0},
                  {"actionType", "click"},
                  {"package", nullptr},
                  {"labels", Json::array({"Send"})}};
  request.device = "emulator-5554";
  request.question = "Step 1 (s): click on \"Send\" on device emulator-5554";
  auto approval = policy::record_approval(state, request);
  INFO((approval ? std::string() : approval.error().text()));
  REQUIRE(approval);
  return *approval;
}

const policy::Approver kTerminal{"terminal", "alice"};

}  // namespace

TEST_CASE("approvals: bound to the payload, granted by a person only, one use",
          "[policy][approval]") {
  TemporaryDirectory directory("policy-state");
  auto state =
      io::StateDirectory::open(directory.path(), ::geteuid(), io::StateDirectory::Symlinks::Refuse);
  REQUIRE(state);
  const contract::Execution click = execution_of(Json::array(
      {{{"id", "s"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "Send"}}}}}}}));
  const std::string digest =
      policy::payload_digest(click, "emulator-5554", "com.clawperator.operator");
  // Ids differ from run to run; the digest does not.
  contract::Execution rerun = click;
  rerun.command_id = "c2";
  CHECK(policy::payload_digest(rerun, "emulator-5554", "com.clawperator.operator") == digest);
  CHECK(policy::payload_digest(click, "emulator-5556", "com.clawperator.operator") != digest);

  // Recorded: pending, listed, and waiting does not spend it.
  policy::Approval approval = recorded(*state, digest);
  CHECK(policy::is_approval_id(approval.id));
  CHECK(approval.expires - approval.created == policy::kConfirmationLifetime);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const policy::Redeemed waiting = policy::redeem_approval(*state, approval.id, digest);
    CHECK(waiting.outcome == policy::Redemption::Pending);
    REQUIRE(waiting.approval);
    CHECK(waiting.approval->id == approval.id);
  }
  std::vector<policy::Approval> pending = policy::pending_approvals(*state);
  REQUIRE(pending.size() == 1);
  CHECK(pending[0].id == approval.id);
  CHECK(pending[0].request.question == approval.request.question);
  CHECK(pending[0].request.step["labels"] == Json::array({"Send"}));
  const Json shown = policy::describe_approval(pending[0]);
  CHECK(shown["approvalId"] == approval.id);
  CHECK(shown["state"] == "pending");
  CHECK(shown["ruleId"] == "send");
  CHECK(shown["deviceId"] == "emulator-5554");
  CHECK_FALSE(shown.contains("digest"));
  CHECK(dump_json(shown).find("/etc/policy.json") == std::string::npos);

  // Approved once; a second answer does not count.
  CHECK(policy::answer_approval(*state, approval, true, kTerminal) ==
        policy::AnswerOutcome::Recorded);
  CHECK(policy::answer_approval(*state, approval, false, kTerminal) ==
        policy::AnswerOutcome::AlreadyAnswered);
  CHECK(policy::pending_approvals(*state).empty());
  const auto found = policy::find_approval(*state, approval.id);
  REQUIRE(found);
  CHECK(found->state == policy::ApprovalState::Approved);
  REQUIRE(found->answered_by);
  CHECK(found->answered_by->through == "terminal");
  CHECK(found->answered_by->user == "alice");
  // Runs once.
  const policy::Redeemed granted = policy::redeem_approval(*state, approval.id, digest);
  CHECK(granted.outcome == policy::Redemption::Granted);
  REQUIRE(granted.approval);
  CHECK(granted.approval->answered_by->through == "terminal");
  CHECK(policy::redeem_approval(*state, approval.id, digest).outcome ==
        policy::Redemption::Unknown);
  CHECK(policy::answer_approval(*state, approval, true, kTerminal) == policy::AnswerOutcome::Gone);

  // Another payload's digest spends it, approved or not.
  approval = recorded(*state, digest);
  CHECK(policy::redeem_approval(*state, approval.id, "another digest").outcome ==
        policy::Redemption::Unknown);
  CHECK(policy::redeem_approval(*state, approval.id, digest).outcome ==
        policy::Redemption::Unknown);
  CHECK(policy::answer_approval(*state, approval, true, kTerminal) == policy::AnswerOutcome::Gone);

  // Declined: the call is told so, once.
  approval = recorded(*state, digest);
  CHECK(policy::answer_approval(*state, approval, false, kTerminal) ==
        policy::AnswerOutcome::Recorded);
  CHECK(policy::redeem_approval(*state, approval.id, digest).outcome ==
        policy::Redemption::Declined);
  CHECK(policy::redeem_approval(*state, approval.id, digest).outcome ==
        policy::Redemption::Unknown);

  // Not an id: never a path.
  CHECK(policy::redeem_approval(*state, "../../etc/passwd", digest).outcome ==
        policy::Redemption::Unknown);
  CHECK(policy::redeem_approval(*state, std::string(32, 'a'), digest).outcome ==
        policy::Redemption::Unknown);
  CHECK_FALSE(policy::find_approval(*state, "../approval"));
}

TEST_CASE("approvals: an expired one is unknown, and of two racing calls exactly one runs it",
          "[policy][approval]") {
  TemporaryDirectory directory("policy-state");
  auto state =
      io::StateDirectory::open(directory.path(), ::geteuid(), io::StateDirectory::Symlinks::Refuse);
  REQUIRE(state);
  const std::string digest(64, 'd');
  // Expired: its record says so (as five minutes later).
  const policy::Approval old = recorded(*state, digest);
  const std::string name = "approval-" + old.id + ".json";
  std::string text;
  REQUIRE(io::read_regular_file((directory.path() / name).string(), 1 << 20, text));
  Json record = parse_json(text);
  record["expiresAtMs"] = 1000;
  REQUIRE(state->replace_file(name, dump_json(record)));
  CHECK_FALSE(policy::find_approval(*state, old.id));
  CHECK(policy::pending_approvals(*state).empty());
  CHECK(policy::answer_approval(*state, old, true, kTerminal) == policy::AnswerOutcome::Gone);
  CHECK(policy::redeem_approval(*state, old.id, digest).outcome == policy::Redemption::Unknown);

  for (int round = 0; round < 20; ++round) {
    const policy::Approval approval = recorded(*state, digest);
    REQUIRE(policy::answer_approval(*state, approval, true, kTerminal) ==
            policy::AnswerOutcome::Recorded);
    std::atomic<int> granted{0};
    std::vector<std::thread> callers;
    for (int caller = 0; caller < 4; ++caller) {
      callers.emplace_back([&] {
        if (policy::redeem_approval(*state, approval.id, digest).outcome ==
            policy::Redemption::Granted) {
          ++granted;
        }
      });
    }
    for (std::thread& caller : callers) caller.join();
    CHECK(granted == 1);
  }
}

TEST_CASE("the shipped example policy loads and decides as its names say", "[policy]") {
  std::string text;
  REQUIRE(io::read_regular_file(
      std::string(CLAWPERATOR_SOURCE_DIR) + "/examples/policy/cautious.json", 1 << 20, text));
  const policy::Policy cautious = policy_of(text);
  const auto decide = [&](const char* label, const char* package) {
    const Json click = {
        {"id", "c"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", label}}}}}};
    return policy::evaluate(
        cautious, policy::step_targets(execution_of(Json::array({click})), std::string(package)));
  };
  CHECK(decide("Buy now", "com.android.vending").decision == policy::Decision::Deny);
  CHECK(decide("Send", "com.google.android.apps.messaging").decision == policy::Decision::Confirm);
  CHECK(decide("Delete account", "com.example").decision == policy::Decision::Confirm);
  CHECK(decide("Remove account", "com.android.settings").decision == policy::Decision::Deny);
  CHECK(decide("Display", "com.android.settings").decision == policy::Decision::Allow);
  CHECK(decide("Pay", "com.example.shop").decision == policy::Decision::Confirm);
  // Its rules name effects: a scroll that clicks after is a tap like any other.
  const Json scroll_and_tap = {
      {"id", "s"},
      {"type", "scroll_until"},
      {"params", {{"matcher", {{"textEquals", "Send"}}}, {"clickAfter", true}}}};
  CHECK(policy::evaluate(cautious, policy::step_targets(execution_of(Json::array({scroll_and_tap})),
                                                        std::string("com.example")))
            .decision == policy::Decision::Confirm);
}
