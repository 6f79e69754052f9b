// The action policy's file, matching and one-time tokens (docs/guardrails.md).
#include "clawperator/policy/policy.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

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
  const auto node = [](const char* label, const char* id, int left, int top, int right, int bottom,
                       bool clickable) {
    return Json{{"label", label},
                {"contentDescription", ""},
                {"resourceId", id},
                {"clickable", clickable},
                {"bounds", {{"left", left}, {"top", top}, {"right", right}, {"bottom", bottom}}}};
  };
  const Json query = {
      {"nodes", Json::array({node("", "android:id/content", 0, 0, 1080, 2400, false),
                             node("", "shop:id/buy_row", 0, 480, 1080, 600, true),
                             node("Buy now", "", 40, 500, 400, 560, false),
                             node("Cart", "", 0, 0, 200, 100, true)})}};
  SECTION("the smallest node and the smallest clickable one under the point") {
    policy::label_points(steps, query);
    CHECK(steps[0].labels == std::vector<std::string>{"Buy now", "shop:id/buy_row"});
    CHECK_FALSE(steps[0].coordinate);
    CHECK(steps[1].labels == std::vector<std::string>{"Cart"});
    const policy::Verdict verdict = policy::evaluate(guarded, steps);
    CHECK(verdict.decision == policy::Decision::Deny);
    CHECK(verdict.step.step_id == "tap");
  }
  SECTION("a point over nothing labelled is allowed") {
    std::vector<policy::StepTarget> elsewhere = policy::step_targets(
        execution_of(Json::array({{{"id", "tap"},
                                   {"type", "click"},
                                   {"params", {{"coordinate", {{"x", 900}, {"y", 2000}}}}}}})),
        std::nullopt);
    policy::label_points(elsewhere, query);
    CHECK(elsewhere[0].labels == std::vector<std::string>{"android:id/content"});
    CHECK(policy::evaluate(guarded, elsewhere).decision == policy::Decision::Allow);
  }
  SECTION("an unreadable answer changes nothing") {
    for (const Json& broken : {Json(nullptr), Json::object(), Json{{"nodes", "x"}},
                               Json{{"nodes", Json::array({1, Json{{"bounds", "x"}},
                                                           Json{{"bounds", {{"left", "a"}}}}})}}}) {
      std::vector<policy::StepTarget> copy = steps;
      policy::label_points(copy, broken);
      if (broken.is_object() && broken.contains("nodes") && broken["nodes"].is_array()) {
        CHECK(copy[0].labels.empty());
      } else {
        CHECK(copy[0].coordinate);
      }
    }
  }
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

TEST_CASE("confirmation tokens: bound to the payload, one use, five minutes", "[policy]") {
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

  auto issued = policy::issue_confirmation(*state, digest, "send", "s");
  REQUIRE(issued);
  CHECK(policy::is_token_text(issued->token));
  CHECK_FALSE(policy::redeem_confirmation(*state, issued->token, "another digest"));
  // Spent by the wrong payload too.
  CHECK_FALSE(policy::redeem_confirmation(*state, issued->token, digest));
  issued = policy::issue_confirmation(*state, digest, "send", "s");
  REQUIRE(issued);
  CHECK(policy::redeem_confirmation(*state, issued->token, digest));
  CHECK_FALSE(policy::redeem_confirmation(*state, issued->token, digest));
  CHECK_FALSE(policy::redeem_confirmation(*state, "../../etc/passwd", digest));
  CHECK_FALSE(policy::redeem_confirmation(*state, std::string(32, 'a'), digest));
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
}
