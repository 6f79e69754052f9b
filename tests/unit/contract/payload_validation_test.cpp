#include "clawperator/contract/payload_validation.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/action_table.hpp"

using clawperator::Json;
using namespace clawperator::contract;

namespace {

Json base_payload() {
  return Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
    "expectedFormat":"android-ui-automator","timeoutMs":5000,
    "actions":[{"id":"a1","type":"snapshot"}]})");
}

Json with_action(const Json& action) {
  Json payload = base_payload();
  payload["actions"] = Json::array({action});
  return payload;
}

Json action(const std::string& type, const std::string& params_json) {
  Json out = Json::object();
  out["id"] = "a1";
  out["type"] = type;
  if (!params_json.empty()) out["params"] = Json::parse(params_json);
  return out;
}

// The first issue of an invalid payload (what message/details.path report).
ValidationIssue first_issue(const Json& payload) {
  const ValidationOutcome outcome = validate_execution(payload);
  REQUIRE_FALSE(outcome.valid);
  REQUIRE_FALSE(outcome.issues.empty());
  return outcome.issues.front();
}

void expect_valid(const Json& payload) {
  const ValidationOutcome outcome = validate_execution(payload);
  INFO((outcome.issues.empty() ? std::string() : outcome.issues.front().message));
  REQUIRE(outcome.valid);
}

}  // namespace

TEST_CASE("a well-formed payload validates and is normalised", "[contract][validation]") {
  Json payload = base_payload();
  payload["actions"] = Json::parse(
      R"([{"id":"a1","type":" Snapshot_UI "},{"id":"a2","type":"tap","params":
          {"coordinate":{"y":2,"x":1}}}])");
  payload["mode"] = "direct";
  const ValidationOutcome outcome = validate_execution(payload);
  REQUIRE(outcome.valid);
  const Json normalised = to_device_json(*outcome.valid);
  CHECK(normalised["actions"][0]["type"] == "snapshot");
  CHECK(normalised["actions"][1]["type"] == "click");
  CHECK(normalised["mode"] == "direct");
  CHECK(outcome.valid->command_id == "c1");
  CHECK(outcome.valid->task_id == "t1");
  CHECK(outcome.valid->timeout_ms.value() == 5000);
  CHECK_FALSE(outcome.valid->read_only());
}

TEST_CASE("every alias resolves to its canonical type", "[contract][validation]") {
  const std::vector<std::pair<std::string, std::string>> aliases = {
      {"open_url", "open_uri"},
      {"tap", "click"},
      {"press", "click"},
      {"wait_for", "wait_for_node"},
      {"find", "wait_for_node"},
      {"find_node", "wait_for_node"},
      {"read", "read_text"},
      {"snapshot_ui", "snapshot"},
      {"screenshot", "take_screenshot"},
      {"capture_screenshot", "take_screenshot"},
      {"type_text", "enter_text"},
      {"text_entry", "enter_text"},
      {"input_text", "enter_text"},
      {"key_press", "press_key"},
      {"SLEEP", "sleep"},
  };
  for (const auto& [alias, canonical] : aliases) {
    CAPTURE(alias);
    CHECK(clawperator::contract::normalize_action_type(alias) == canonical);
  }
}

TEST_CASE("top-level fields and limits", "[contract][validation][limits]") {
  struct Case {
    std::string field;
    Json value;
    std::string path;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"commandId", "", "commandId", "String must contain at least 1 character(s)"},
      {"commandId", std::string(129, 'c'), "commandId",
       "String must contain at most 128 character(s)"},
      {"commandId", 7, "commandId", "Expected string, received number"},
      {"taskId", std::string(129, 't'), "taskId", "String must contain at most 128 character(s)"},
      {"source", std::string(65, 's'), "source", "String must contain at most 64 character(s)"},
      {"source", "", "source", "String must contain at least 1 character(s)"},
      {"expectedFormat", "xml", "expectedFormat",
       "Invalid literal value, expected \"android-ui-automator\""},
      {"timeoutMs", 999, "timeoutMs", "Number must be greater than or equal to 1000"},
      {"timeoutMs", 120001, "timeoutMs", "Number must be less than or equal to 120000"},
      {"timeoutMs", "5000", "timeoutMs", "Expected number, received string"},
      {"actions", Json::array(), "actions", "Array must contain at least 1 element(s)"},
      {"actions", Json::object(), "actions", "Expected array, received object"},
      {"mode", "fast", "mode",
       "Invalid enum value. Expected 'artifact_compiled' | 'direct', received 'fast'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.field, c.value.dump());
    Json payload = base_payload();
    payload[c.field] = c.value;
    const ValidationIssue issue = first_issue(payload);
    CHECK(issue.path == c.path);
    CHECK(issue.message == c.message);
  }
}

TEST_CASE("limits are inclusive at the boundary", "[contract][validation][limits]") {
  Json payload = base_payload();
  payload["timeoutMs"] = 1000;
  expect_valid(payload);
  payload["timeoutMs"] = 120000;
  expect_valid(payload);
  payload["commandId"] = std::string(128, 'c');
  payload["source"] = std::string(64, 's');
  expect_valid(payload);

  Json fifty = Json::array();
  for (int i = 0; i < 50; ++i) fifty.push_back(action("sleep", R"({"durationMs":1})"));
  payload["actions"] = fifty;
  expect_valid(payload);
  fifty.push_back(action("sleep", R"({"durationMs":1})"));
  payload["actions"] = fifty;
  const ValidationIssue issue = first_issue(payload);
  CHECK(issue.path == "actions");
  CHECK(issue.message == "Array must contain at most 50 element(s)");
}

TEST_CASE("missing required fields say Required", "[contract][validation]") {
  for (const char* field :
       {"commandId", "taskId", "source", "expectedFormat", "timeoutMs", "actions"}) {
    CAPTURE(field);
    Json payload = base_payload();
    payload.erase(field);
    const ValidationIssue issue = first_issue(payload);
    CHECK(issue.path == field);
    CHECK(issue.message == "Required");
  }
}

TEST_CASE("the payload must be an object", "[contract][validation]") {
  for (const char* text : {"[]", "null", "3", "\"x\"", "true"}) {
    CAPTURE(text);
    const ValidationIssue issue = first_issue(Json::parse(text));
    CHECK(issue.path.empty());
    CHECK(issue.message.rfind("Expected object, received ", 0) == 0);
  }
}

TEST_CASE("unknown keys are rejected with invalidKeys", "[contract][validation]") {
  SECTION("top level") {
    Json payload = base_payload();
    // (command_id is an alias of commandId, docs/payload.md §11.)
    payload["command_key"] = "x";
    const ValidationIssue issue = first_issue(payload);
    CHECK(issue.path.empty());
    CHECK(issue.message == "Unrecognized key(s) in object: 'command_key'");
    CHECK(issue.invalid_keys == std::vector<std::string>{"command_key"});
  }
  SECTION("action") {
    Json a = action("sleep", R"({"durationMs":1})");
    a["extra"] = 1;
    const ValidationIssue issue = first_issue(with_action(a));
    CHECK(issue.path == "actions.0");
    CHECK(issue.invalid_keys == std::vector<std::string>{"extra"});
    CHECK(issue.action_id == "a1");
    CHECK(issue.action_type == "sleep");
  }
  SECTION("params, with the snapshot format hint") {
    const ValidationIssue issue =
        first_issue(with_action(action("snapshot_ui", R"({"format":"xml","bogus":1})")));
    CHECK(issue.path == "actions.0.params");
    CHECK(issue.message == "Unrecognized key(s) in object: 'format', 'bogus'");
    CHECK(issue.invalid_keys == std::vector<std::string>{"format", "bogus"});
    CHECK(issue.hint == "'format' was removed from snapshot_ui. Remove this parameter.");
    CHECK(issue.action_type == "snapshot_ui");
  }
  SECTION("matcher") {
    const ValidationIssue issue =
        first_issue(with_action(action("click", R"({"matcher":{"txt":"OK"}})")));
    CHECK(issue.path == "actions.0.params.matcher");
    CHECK(issue.invalid_keys == std::vector<std::string>{"txt"});
  }
}

TEST_CASE("param types and string limits", "[contract][validation][limits]") {
  struct Case {
    std::string type;
    std::string params;
    std::string path;
    std::string message;
  };
  const std::string long512(513, 'x');
  const std::string long2048(2049, 'u');
  const std::vector<Case> cases = {
      {"open_uri", R"({"uri":")" + long2048 + R"("})", "actions.0.params.uri",
       "String must contain at most 2048 character(s)"},
      {"enter_text", R"({"matcher":{"textEquals":"a"},"text":")" + long512 + R"("})",
       "actions.0.params.text", "String must contain at most 512 character(s)"},
      {"click", R"({"matcher":{"textEquals":")" + long512 + R"("}})",
       "actions.0.params.matcher.textEquals", "String must contain at most 512 character(s)"},
      {"wait_for_navigation", R"({"expectedPackage":")" + long512 + R"(","timeoutMs":5})",
       "actions.0.params.expectedPackage", "String must contain at most 512 character(s)"},
      {"sleep", R"({"durationMs":"5"})", "actions.0.params.durationMs",
       "Expected number, received string"},
      {"enter_text", R"({"matcher":{"textEquals":"a"},"text":"x","submit":"yes"})",
       "actions.0.params.submit", "Expected boolean, received string"},
      {"click", R"({"matcher":"OK"})", "actions.0.params.matcher",
       "Expected object, received string"},
      {"click", R"({"matcher":{}})", "actions.0.params.matcher",
       "Matcher must have at least one nonblank field"},
      {"click", R"({"matcher":{"textEquals":""}})", "actions.0.params.matcher.textEquals",
       "textEquals must not be blank: omit it to leave it open"},
      {"click", R"({"coordinate":{"x":1.5,"y":2}})", "actions.0.params.coordinate.x",
       "Expected integer, received float"},
      {"click", R"({"coordinate":{"x":1,"y":-2}})", "actions.0.params.coordinate.y",
       "Number must be greater than or equal to 0"},
      {"click", R"({"coordinate":{"x":1}})", "actions.0.params.coordinate.y", "Required"},
      {"scroll_until", R"({"retry":3})", "actions.0.params.retry",
       "Expected object, received number"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.type, c.params.substr(0, 80));
    const ValidationIssue issue = first_issue(with_action(action(c.type, c.params)));
    CHECK(issue.path == c.path);
    CHECK(issue.message == c.message);
  }
}

TEST_CASE("string limits count UTF-16 units like the original", "[contract][validation]") {
  // 128 two-byte characters are 128 units: allowed although 256 bytes long.
  std::string id;
  for (int i = 0; i < 128; ++i) id += "\xC3\xA9";
  Json payload = base_payload();
  payload["commandId"] = id;
  expect_valid(payload);
  // 65 emoji are 130 units: too long.
  std::string emoji;
  for (int i = 0; i < 65; ++i) emoji += "\xF0\x9F\x98\x80";
  payload["commandId"] = emoji;
  CHECK(first_issue(payload).message == "String must contain at most 128 character(s)");
}

TEST_CASE("per-action rules (docs/payload.md §4)", "[contract][validation][rules]") {
  struct Case {
    std::string type;
    std::string params;
    std::string path;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"open_app", "", "actions.0.params.applicationId", "open_app requires params.applicationId"},
      {"open_app", R"({"applicationId":"  "})", "actions.0.params.applicationId",
       "open_app requires params.applicationId"},
      {"close_app", "{}", "actions.0.params.applicationId",
       "close_app requires params.applicationId"},
      {"start_recording", R"({"sessionId":" "})", "actions.0.params.sessionId",
       "start_recording params.sessionId must not be blank"},
      {"stop_recording", R"({"sessionId":""})", "actions.0.params.sessionId",
       "stop_recording params.sessionId must not be blank"},
      {"open_uri", "{}", "actions.0.params.uri", "open_uri requires params.uri"},
      {"open_url", R"({"uri":" "})", "actions.0.params.uri", "open_uri requires params.uri"},
      {"sleep", "{}", "actions.0.params.durationMs", "sleep requires params.durationMs >= 0"},
      {"sleep", R"({"durationMs":-1})", "actions.0.params.durationMs",
       "sleep requires params.durationMs >= 0"},
      {"sleep", R"({"durationMs":120001})", "actions.0.params.durationMs",
       "sleep.durationMs must not exceed 120000 ms"},
      {"click", "{}", "actions.0.params", "click requires params.matcher or params.coordinate"},
      {"click", R"({"matcher":{"textEquals":"a"},"coordinate":{"x":1,"y":1}})", "actions.0.params",
       "click params.matcher and params.coordinate are mutually exclusive"},
      {"click", R"({"coordinate":{"x":1,"y":1},"clickType":"focus"})", "actions.0.params.clickType",
       "click params.coordinate does not support clickType='focus'"},
      {"wait_for_node", "{}", "actions.0.params.matcher", "wait_for_node requires params.matcher"},
      {"read_text", "{}", "actions.0.params.matcher", "read_text requires params.matcher"},
      {"read_text", R"({"matcher":{"textEquals":"a"},"validator":"regex"})",
       "actions.0.params.validatorPattern",
       "read_text params.validatorPattern is required when params.validator is 'regex'"},
      {"enter_text", R"({"text":"x"})", "actions.0.params.matcher",
       "enter_text requires params.matcher"},
      {"enter_text", R"({"matcher":{"textEquals":"a"},"text":""})", "actions.0.params.text",
       "enter_text requires non-empty params.text"},
      {"enter_text", R"({"matcher":{"textEquals":"a"}})", "actions.0.params.text",
       "enter_text requires non-empty params.text"},
      {"scroll_and_click", "{}", "actions.0.params.matcher",
       "scroll_and_click requires params.matcher"},
      {"scroll", "{}", "actions.0.params.direction",
       "scroll params.direction must be one of: down, up, left, right"},
      {"scroll", R"({"direction":"sideways"})", "actions.0.params.direction",
       "scroll params.direction must be one of: down, up, left, right"},
      {"scroll", R"({"direction":"down","distanceRatio":1.5})", "actions.0.params.distanceRatio",
       "scroll params.distanceRatio must be a number in [0, 1]"},
      {"scroll", R"({"direction":"down","settleDelayMs":10001})", "actions.0.params.settleDelayMs",
       "scroll params.settleDelayMs must be a number in [0, 10000]"},
      {"scroll_until", R"({"clickAfter":true})", "actions.0.params.matcher",
       "scroll_until requires params.matcher when params.clickAfter is true"},
      {"scroll_until", R"({"direction":"diagonal"})", "actions.0.params.direction",
       "scroll_until params.direction must be one of: down, up, left, right"},
      {"scroll_until", R"({"maxScrolls":0})", "actions.0.params.maxScrolls",
       "scroll_until params.maxScrolls must be an integer in [1, 200]"},
      {"scroll_until", R"({"maxScrolls":201})", "actions.0.params.maxScrolls",
       "scroll_until params.maxScrolls must be an integer in [1, 200]"},
      {"scroll_until", R"({"maxScrolls":2.5})", "actions.0.params.maxScrolls",
       "scroll_until params.maxScrolls must be an integer in [1, 200]"},
      {"scroll_until", R"({"maxDurationMs":120001})", "actions.0.params.maxDurationMs",
       "scroll_until params.maxDurationMs must be a number in [0, 120000]"},
      {"scroll_until", R"({"noPositionChangeThreshold":21})",
       "actions.0.params.noPositionChangeThreshold",
       "scroll_until params.noPositionChangeThreshold must be an integer in [1, 20]"},
      {"scroll_until", R"({"distanceRatio":-0.1})", "actions.0.params.distanceRatio",
       "scroll_until params.distanceRatio must be a number in [0, 1]"},
      {"scroll_until", R"({"settleDelayMs":-1})", "actions.0.params.settleDelayMs",
       "scroll_until params.settleDelayMs must be a number in [0, 10000]"},
      {"press_key", "{}", "actions.0.params.key", "press_key requires params.key"},
      {"press_key", R"({"key":"enter"})", "actions.0.params.key",
       "press_key params.key must be one of: back, home, recents"},
      {"take_screenshot", R"({"path":" "})", "actions.0.params.path",
       "take_screenshot params.path must be a non-empty string"},
      {"wait_for_navigation", R"({"timeoutMs":1000})", "actions.0.params",
       "wait_for_navigation requires params.expectedPackage or params.expectedNode"},
      {"wait_for_navigation", R"({"expectedPackage":"com.x"})", "actions.0.params.timeoutMs",
       "wait_for_navigation requires params.timeoutMs > 0"},
      {"wait_for_navigation", R"({"expectedPackage":"com.x","timeoutMs":0})",
       "actions.0.params.timeoutMs", "wait_for_navigation requires params.timeoutMs > 0"},
      {"wait_for_navigation", R"({"expectedPackage":"com.x","timeoutMs":30001})",
       "actions.0.params.timeoutMs", "wait_for_navigation params.timeoutMs must not exceed 30000"},
      {"read_key_value_pair", "{}", "actions.0.params.labelMatcher",
       "read_key_value_pair requires params.labelMatcher"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.type, c.params);
    const ValidationIssue issue = first_issue(with_action(action(c.type, c.params)));
    CHECK(issue.path == c.path);
    CHECK(issue.message == c.message);
    CHECK(issue.action_id == "a1");
    CHECK(issue.action_type == c.type);
  }
}

TEST_CASE("the boundary values of each rule are accepted", "[contract][validation][rules]") {
  const std::vector<std::pair<std::string, std::string>> valid = {
      {"sleep", R"({"durationMs":0})"},
      {"sleep", R"({"durationMs":120000})"},
      {"press_key", R"({"key":"HOME"})"},
      {"scroll", R"({"direction":" UP ","distanceRatio":1,"settleDelayMs":10000})"},
      {"scroll_until", R"({"maxScrolls":200,"maxDurationMs":0,"noPositionChangeThreshold":1})"},
      {"wait_for_navigation", R"({"expectedNode":{"resourceId":"x"},"timeoutMs":30000})"},
      {"read_text", R"({"matcher":{"textEquals":"a"},"validator":"regex",
                        "validatorPattern":"^[0-9]+$"})"},
      {"enter_text", R"({"matcher":{"textEquals":"a"},"text":" "})"},
      {"take_screenshot", ""},
      {"click", R"({"coordinate":{"x":0,"y":0},"clickType":"long_click"})"},
      {"start_recording", "{}"},
  };
  for (const auto& [type, params] : valid) {
    CAPTURE(type, params);
    expect_valid(with_action(action(type, params)));
  }
}

TEST_CASE("an invalid regular expression is refused, never crashes", "[contract][validation]") {
  for (const std::string& pattern :
       {std::string("("), std::string("[a-"), std::string(5000, '(') + std::string(5000, ')')}) {
    Json params = Json::parse(R"({"matcher":{"textEquals":"a"},"validator":"regex"})");
    params["validatorPattern"] = pattern;
    Json a = action("read_text", "");
    a["params"] = params;
    const ValidationIssue issue = first_issue(with_action(a));
    CHECK(issue.path == "actions.0.params.validatorPattern");
    CHECK(issue.message.rfind("read_text params.validatorPattern must be a valid regular "
                              "expression",
                              0) == 0);
  }
}

TEST_CASE("unsupported types are reported after shape checks", "[contract][validation]") {
  const ValidationIssue issue = first_issue(with_action(action("teleport", "")));
  CHECK(issue.path == "actions");
  CHECK(issue.message == "All action types must be supported");
  CHECK(issue.action_type == "teleport");
  const HostError error = validation_failure({issue});
  // The catalog's own code for it, and a message that names the type.
  CHECK(error.code == "EXECUTION_ACTION_UNSUPPORTED");
  CHECK(error.message == "Unsupported action type 'teleport': all action types must be supported");
  CHECK(exit_code_of(error) == 2);
  CHECK(error.hint.find("open_app") != std::string::npos);
  // It leads whatever else is wrong.
  Json payload = base_payload();
  payload.erase("taskId");
  payload["actions"] = Json::array({action("teleport", "")});
  const HostError mixed = validation_failure(validate_execution(payload).issues);
  CHECK(mixed.code == "EXECUTION_ACTION_UNSUPPORTED");
  CHECK(mixed.details["issues"].size() == 2);
}

TEST_CASE("every problem is listed, the first mirrored in the error", "[contract][validation]") {
  Json payload = base_payload();
  payload["timeoutMs"] = 1;
  payload["actions"] = Json::array({action("open_uri", "{}"), action("press_key", "{}")});
  const ValidationOutcome outcome = validate_execution(payload);
  REQUIRE(outcome.issues.size() == 3);
  const HostError error = validation_failure(outcome.issues);
  CHECK(error.message == "Number must be greater than or equal to 1000");
  CHECK(error.details["path"] == "timeoutMs");
  CHECK_FALSE(error.details.contains("actionId"));
  const Json& issues = error.details["issues"];
  REQUIRE(issues.size() == 3);
  CHECK(issues[1]["path"] == "actions.0.params.uri");
  CHECK(issues[2]["path"] == "actions.1.params.key");
  CHECK(exit_code_of(error) == 2);
}

TEST_CASE("the details of an action issue carry actionId and actionType", "[contract]") {
  const ValidationOutcome outcome = validate_execution(with_action(action("OPEN_URL", "{}")));
  const HostError error = validation_failure(outcome.issues);
  CHECK(error.details["actionId"] == "a1");
  CHECK(error.details["actionType"] == "OPEN_URL");
  CHECK(error.details["path"] == "actions.0.params.uri");
}

TEST_CASE("the timeout override", "[contract][validation][limits]") {
  ValidationOutcome outcome = validate_execution(base_payload());
  REQUIRE(outcome.valid);
  Execution valid = *outcome.valid;
  for (const char* bad : {"nope", "", "1e999", "12ms", "NaN"}) {
    CAPTURE(bad);
    const auto status = apply_timeout_override(valid, bad);
    REQUIRE_FALSE(status);
    const auto& error = status.error();
    CHECK(error.message == "timeoutMs must be a finite number");
    CHECK(exit_code_of(error) == 2);
  }
  for (const char* out_of_range : {"999", "120001", "-5"}) {
    CAPTURE(out_of_range);
    const auto status = apply_timeout_override(valid, out_of_range);
    REQUIRE_FALSE(status);
    CHECK(status.error().message == "timeoutMs must be between 1000 and 120000");
  }
  REQUIRE(apply_timeout_override(valid, "1000"));
  CHECK(to_device_json(valid)["timeoutMs"].dump() == "1000");
  REQUIRE(apply_timeout_override(valid, "120000"));
  CHECK(valid.timeout_ms.value() == 120000);
}

TEST_CASE("the payload size limit applies to the normalised JSON", "[contract][limits]") {
  Json payload = base_payload();
  Json actions = Json::array();
  // 50 actions of ~1300 bytes exceed 64000 bytes once serialised.
  for (int i = 0; i < 50; ++i) {
    Json a = action("enter_text", "");
    a["params"] = Json::object();
    a["params"]["matcher"] = {{"textEquals", std::string(500, 'm')}};
    a["params"]["text"] = std::string(500, 't');
    a["params"]["path"] = std::string(400, 'p');
    a["id"] = std::string(128, 'i');
    actions.push_back(a);
  }
  payload["actions"] = actions;
  ValidationOutcome outcome = validate_execution(payload);
  REQUIRE(outcome.valid);
  const auto status = check_payload_size(*outcome.valid);
  REQUIRE_FALSE(status);
  const auto& error = status.error();
  CHECK(error.code == "PAYLOAD_TOO_LARGE");
  CHECK(error.message.rfind("Payload exceeds 64000 bytes (got ", 0) == 0);
  CHECK(exit_code_of(error) == 2);

  ValidationOutcome small = validate_execution(base_payload());
  CHECK(check_payload_size(*small.valid));
}

TEST_CASE("read-only payloads are recognised", "[contract][validation]") {
  Json payload = base_payload();
  payload["actions"] = Json::array({action("snapshot", ""), action("sleep", R"({"durationMs":1})"),
                                    action("read", R"({"matcher":{"textEquals":"x"}})")});
  const ValidationOutcome outcome = validate_execution(payload);
  REQUIRE(outcome.valid);
  CHECK(outcome.valid->read_only());
}

TEST_CASE("admit_execution: validation, then the timeout override, then the size", "[contract]") {
  const auto admitted = admit_execution(base_payload());
  REQUIRE(admitted);
  CHECK(admitted->timeout_ms.value() == 5000);
  CHECK(admit_execution(base_payload(), "9000").value().timeout_ms.value() == 9000);

  Json unknown = base_payload();
  unknown["actions"][0]["type"] = "levitate";
  CHECK(admit_execution(unknown).error().code == "EXECUTION_ACTION_UNSUPPORTED");
  Json missing = base_payload();
  missing.erase("taskId");
  const auto refused = admit_execution(missing, "9000");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == "EXECUTION_VALIDATION_FAILED");
  CHECK(refused.error().details["path"] == "taskId");
  CHECK(admit_execution(base_payload(), "soon").error().message ==
        "timeoutMs must be a finite number");

  // 50 actions (the most) of four 450-character fields each: valid, but beyond the device's
  // 64000 bytes.
  Json large = base_payload();
  large["actions"] = Json::array();
  const std::string long_value(450, 'x');
  for (int i = 0; i < 50; ++i) {
    Json matcher = {{"resourceId", long_value},
                    {"textEquals", long_value},
                    {"textContains", long_value},
                    {"contentDescEquals", long_value}};
    large["actions"].push_back(
        {{"id", "a" + std::to_string(i)}, {"type", "click"}, {"params", {{"matcher", matcher}}}});
  }
  REQUIRE(validate_execution(large).valid);
  const auto too_large = admit_execution(large);
  REQUIRE_FALSE(too_large);
  CHECK(too_large.error().code == "PAYLOAD_TOO_LARGE");
}
