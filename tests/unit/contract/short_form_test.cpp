// The short form of a hand-written payload (docs/payload.md §13) and the nearest names offered
// for an unknown action type or key.
#include <catch2/catch.hpp>
#include <string>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/contract/sequence.hpp"

using clawperator::Json;
using namespace clawperator::contract;

namespace {

int random_draws = 0;

// A different text each call, as service::fresh_id_random's is; counts the calls.
std::string counted_random() {
  ++random_draws;
  return std::string(31, '0') + std::to_string(random_draws % 10);
}

Json whole_short_payload() {
  return Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
    "expectedFormat":"android-ui-automator","timeoutMs":5000,
    "actions":[{"id":"a1","type":"snapshot"}]})");
}

HostError refused_short(const Json& payload) {
  auto admitted = admit_execution(payload, {}, counted_random);
  REQUIRE_FALSE(admitted);
  return admitted.error();
}

}  // namespace

TEST_CASE("short form: the missing members are filled before validation",
          "[contract][short-form]") {
  random_draws = 0;
  auto admitted =
      admit_execution(Json::parse(R"({"actions":[{"type":"snapshot"}]})"), {}, counted_random);
  REQUIRE(admitted);
  const Json device = to_device_json(*admitted);
  CHECK(device["commandId"] == "exec-" + std::string(31, '0') + "1");
  CHECK(device["taskId"] == device["commandId"]);
  CHECK(device["source"] == "clawperator-cli");
  CHECK(device["expectedFormat"] == "android-ui-automator");
  CHECK(device["timeoutMs"] == 30000);
  CHECK(device["actions"][0]["id"] == "a1");
  CHECK(random_draws == 1);
}

TEST_CASE("short form: action ids skip the ids the payload uses", "[contract][short-form]") {
  const Json filled = complete_short_form(
      Json::parse(R"({"actions":[{"type":"snapshot"},{"id":"a1","type":"snapshot"},
        {"type":"snapshot"},{"id":"a3","type":"snapshot"},{"type":"snapshot"}]})"),
      counted_random);
  std::vector<std::string> ids;
  for (const Json& action : filled["actions"]) ids.push_back(action["id"]);
  CHECK(ids == std::vector<std::string>{"a2", "a1", "a4", "a3", "a5"});
}

TEST_CASE("short form: a whole payload is left exactly as it was", "[contract][short-form]") {
  random_draws = 0;
  const Json payload = whole_short_payload();
  CHECK(complete_short_form(payload, counted_random) == payload);
  CHECK(random_draws == 0);
  // What is present is judged by validation, whatever its value: nothing is replaced.
  Json wrong = payload;
  wrong["timeoutMs"] = "soon";
  wrong["actions"][0]["id"] = nullptr;
  CHECK(complete_short_form(wrong, counted_random) == wrong);
  // Aliases are renamed first: a snake_case command id is kept, not replaced by a fresh one.
  Json snake = payload;
  snake.erase("commandId");
  snake["command_id"] = "mine";
  auto admitted = admit_execution(snake, {}, counted_random);
  REQUIRE(admitted);
  CHECK(admitted->command_id == "mine");
  CHECK(random_draws == 0);
}

TEST_CASE("short form: only with the caller's random text", "[contract][short-form]") {
  const ValidationOutcome outcome =
      validate_execution(Json::parse(R"({"actions":[{"type":"snapshot"}]})"));
  REQUIRE_FALSE(outcome.valid);
  CHECK(outcome.issues.front().path == "commandId");
}

TEST_CASE("short form: a sequence's payloads get command ids of their own",
          "[contract][short-form]") {
  auto admitted = admit_sequence(Json::parse(R"({"executions":[{"actions":[{"type":"snapshot"}]},
                                    {"actions":[{"type":"snapshot"}]}]})"),
                                 {}, counted_random);
  REQUIRE(admitted);
  REQUIRE(admitted->executions.size() == 2);
  CHECK(admitted->executions[0].command_id != admitted->executions[1].command_id);
}

TEST_CASE("suggestions: an unknown action type gets the nearest name or alias",
          "[contract][suggestion]") {
  const HostError error = refused_short(Json::parse(R"({"actions":[{"type":"tapp"}]})"));
  CHECK(error.code == "EXECUTION_ACTION_UNSUPPORTED");
  CHECK(error.top_level["suggestion"] == "tap");
  CHECK(error.message ==
        "Unsupported action type 'tapp': all action types must be supported. Did you mean 'tap'?");
  CHECK(error.details["issues"][0]["suggestion"] == "tap");
  CHECK(
      refused_short(Json::parse(R"({"actions":[{"type":"snapshott"}]})")).top_level["suggestion"] ==
      "snapshot");
  // Nothing close: no suggestion, the message as it always was.
  const HostError far = refused_short(Json::parse(R"({"actions":[{"type":"teleport"}]})"));
  CHECK_FALSE(far.top_level.contains("suggestion"));
  CHECK(far.message == "Unsupported action type 'teleport': all action types must be supported");
}

TEST_CASE("suggestions: unknown matcher, param and top-level keys", "[contract][suggestion]") {
  const HostError matcher = refused_short(
      Json::parse(R"({"actions":[{"type":"click","params":{"matcher":{"textEqual":"OK"}}}]})"));
  CHECK(matcher.code == "EXECUTION_VALIDATION_FAILED");
  CHECK(matcher.details["path"] == "actions.0.params.matcher");
  CHECK(matcher.top_level["suggestion"] == "textEquals");
  CHECK(matcher.message ==
        "Unrecognized key(s) in object: 'textEqual'. Did you mean 'textEquals'?");
  const HostError param = refused_short(
      Json::parse(R"({"actions":[{"type":"click","params":{"matchr":{"textEquals":"OK"}}}]})"));
  CHECK(param.top_level["suggestion"] == "matcher");
  CHECK(param.details["issues"][0]["invalidKeys"] == Json::array({"matchr"}));
  Json top = whole_short_payload();
  top["timeoutMS"] = 1000;
  top.erase("timeoutMs");
  CHECK(refused_short(top).top_level["suggestion"] == "timeoutMs");
  // The issue's own words stay the original's.
  CHECK(param.details["issues"][0]["message"] == "Unrecognized key(s) in object: 'matchr'");
}
