// The notification, media and on-screen log rows (docs/payload.md §8–9): every rule and limit,
// with the code, exit code and details.path a caller sees.
#include <catch2/catch.hpp>
#include <utility>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/on_screen_log.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_validation.hpp"

using clawperator::Json;
using namespace clawperator::contract;

namespace {

Json payload_of(const std::string& type, const std::string& params_json) {
  Json action = Json::object();
  action["id"] = "a1";
  action["type"] = type;
  if (!params_json.empty()) action["params"] = Json::parse(params_json);
  Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
    "expectedFormat":"android-ui-automator","timeoutMs":5000})");
  payload["actions"] = Json::array({action});
  return payload;
}

struct Refusal {
  std::string path;
  std::string message;
  std::string code;
  int exit = -1;
};

Refusal refusal(const std::string& type, const std::string& params_json) {
  const ValidationOutcome outcome = validate_execution(payload_of(type, params_json));
  REQUIRE_FALSE(outcome.valid);
  const HostError error = validation_failure(outcome.issues);
  return {error.details["path"].get<std::string>(), error.message, error.code, exit_code_of(error)};
}

Execution accepted(const std::string& type, const std::string& params_json) {
  const ValidationOutcome outcome = validate_execution(payload_of(type, params_json));
  INFO((outcome.issues.empty()
            ? std::string()
            : outcome.issues.front().path + ": " + outcome.issues.front().message));
  REQUIRE(outcome.valid);
  return *outcome.valid;
}

void expect_refused(const std::string& type, const std::string& params_json,
                    const std::string& path, const std::string& message_part) {
  CAPTURE(type, params_json);
  const Refusal got = refusal(type, params_json);
  CHECK(got.code == "EXECUTION_VALIDATION_FAILED");
  CHECK(got.exit == 2);
  CHECK(got.path == path);
  CHECK_THAT(got.message, Catch::Contains(message_part));
}

}  // namespace

TEST_CASE("notification lists: optional filters with their limits", "[contract][notifications]") {
  for (const std::string type : {"list_notifications", "list_media_sessions"}) {
    accepted(type, "");
    accepted(type, R"({"applicationId":"com.example","limit":100,"maxTextChars":1024})");
    accepted(type, R"({"limit":1,"maxTextChars":1.0})");
    const std::string base = "actions.0.params.";
    expect_refused(type, R"({"limit":0})", base + "limit", "in [1, 100]");
    expect_refused(type, R"({"limit":101})", base + "limit", "in [1, 100]");
    expect_refused(type, R"({"limit":2.5})", base + "limit", "an integer");
    expect_refused(type, R"({"limit":"5"})", base + "limit", "Expected number");
    expect_refused(type, R"({"maxTextChars":0})", base + "maxTextChars", "in [1, 1024]");
    expect_refused(type, R"({"maxTextChars":1025})", base + "maxTextChars", "in [1, 1024]");
    expect_refused(type, R"({"applicationId":"  "})", base + "applicationId", "must not be blank");
    expect_refused(type, R"({"applicationId":")" + std::string(513, 'a') + R"("})",
                   base + "applicationId", "at most 512");
    // Strict: a key of another action is refused.
    expect_refused(type, R"({"mediaSessionId":"s1"})", "actions.0.params", "Unrecognized key");
  }
}

TEST_CASE("media targets: exactly one of applicationId and mediaSessionId",
          "[contract][notifications]") {
  const std::string targets[] = {"get_media_status", "media_play", "media_pause"};
  for (const std::string& type : targets) {
    accepted(type, R"({"mediaSessionId":"s1"})");
    accepted(type, R"({"applicationId":"com.example"})");
    expect_refused(type, "", "actions.0.params", "provide exactly one of applicationId");
    expect_refused(type, R"({"applicationId":"a","mediaSessionId":"s"})", "actions.0.params",
                   "discover sessions with media list");
    expect_refused(type, R"({"mediaSessionId":" "})", "actions.0.params.mediaSessionId",
                   "must not be blank");
    expect_refused(type, R"({"mediaSessionId":")" + std::string(129, 's') + R"("})",
                   "actions.0.params.mediaSessionId", "at most 128");
  }
  expect_refused("get_media_status", R"({"mediaSessionId":"s","waitTimeoutMs":0})",
                 "actions.0.params", "Unrecognized key");
}

TEST_CASE("media controls and observation: their own limits", "[contract][notifications]") {
  const std::string base = "actions.0.params.";
  accepted("media_pause", R"({"mediaSessionId":"s","waitTimeoutMs":30000})");
  expect_refused("media_pause", R"({"mediaSessionId":"s","waitTimeoutMs":30001})",
                 base + "waitTimeoutMs", "in [0, 30000]");
  expect_refused("media_play", R"({"mediaSessionId":"s","waitTimeoutMs":-1})",
                 base + "waitTimeoutMs", "in [0, 30000]");

  accepted("observe_media", R"({"mediaSessionId":"s","durationMs":30000})");
  expect_refused("observe_media", R"({"mediaSessionId":"s"})", base + "durationMs",
                 "media observe --session <id> --duration-ms 10000");
  expect_refused("observe_media", R"({"mediaSessionId":"s","durationMs":0})", base + "durationMs",
                 "[1, 30000]");
  expect_refused("observe_media", R"({"mediaSessionId":"s","durationMs":30001})",
                 base + "durationMs", "[1, 30000]");

  accepted("media_seek", R"({"mediaSessionId":"s","positionMs":0})");
  accepted("media_seek", R"({"mediaSessionId":"s","positionMs":9007199254740991,
    "positionToleranceMs":60000,"waitTimeoutMs":0})");
  expect_refused("media_seek", R"({"mediaSessionId":"s"})", base + "positionMs",
                 "requires params.positionMs");
  expect_refused("media_seek", R"({"mediaSessionId":"s","positionMs":-1})", base + "positionMs",
                 "[0, 9007199254740991]");
  expect_refused("media_seek", R"({"mediaSessionId":"s","positionMs":9007199254740992})",
                 base + "positionMs", "[0, 9007199254740991]");
  expect_refused("media_seek", R"({"mediaSessionId":"s","positionMs":1.5})", base + "positionMs",
                 "[0, 9007199254740991]");
  expect_refused("media_seek",
                 R"({"mediaSessionId":"s","positionMs":1,"positionToleranceMs":60001})",
                 base + "positionToleranceMs", "[0, 60000]");
}

TEST_CASE("notification mutations: key, action id and wait", "[contract][notifications]") {
  const std::string base = "actions.0.params.";
  accepted("dismiss_notification", R"({"notificationKey":"0|com.example|1|null|10123"})");
  expect_refused("dismiss_notification", "", base + "notificationKey",
                 "requires params.notificationKey");
  expect_refused("dismiss_notification", R"({"notificationKey":" "})", base + "notificationKey",
                 "requires params.notificationKey");
  expect_refused("dismiss_notification",
                 R"({"notificationKey":")" + std::string(4097, 'k') + R"("})",
                 base + "notificationKey", "at most 4096");
  expect_refused("dismiss_notification", R"({"notificationKey":"k","waitTimeoutMs":30001})",
                 base + "waitTimeoutMs", "[0, 30000]");

  accepted("invoke_notification_action", R"({"notificationKey":"k","actionId":"reply"})");
  expect_refused("invoke_notification_action", R"({"notificationKey":"k"})", base + "actionId",
                 "requires params.actionId");
  expect_refused("invoke_notification_action",
                 R"({"notificationKey":"k","actionId":")" + std::string(129, 'a') + R"("})",
                 base + "actionId", "at most 128");
  expect_refused("invoke_notification_action",
                 R"({"notificationKey":"k","actionId":"a","waitTimeoutMs":1})", "actions.0.params",
                 "Unrecognized key");
}

TEST_CASE("background readiness follows the table", "[contract][notifications]") {
  CHECK(accepted("list_notifications", "").readiness() == ActionReadiness::BackgroundObservation);
  CHECK(accepted("observe_media", R"({"mediaSessionId":"s","durationMs":5})").readiness() ==
        ActionReadiness::BackgroundObservation);
  CHECK(accepted("media_seek", R"({"mediaSessionId":"s","positionMs":5})").readiness() ==
        ActionReadiness::BackgroundService);
  // A notification mutation needs the screen, like any UI action.
  CHECK(accepted("dismiss_notification", R"({"notificationKey":"k"})").readiness() ==
        ActionReadiness::Interactive);
  Json mixed = payload_of("list_media_sessions", "");
  mixed["actions"].push_back(
      Json{{"id", "a2"}, {"type", "media_pause"}, {"params", Json{{"mediaSessionId", "s"}}}});
  CHECK(validate_execution(mixed).valid->readiness() == ActionReadiness::BackgroundService);
  mixed["actions"].push_back(Json{{"id", "a3"}, {"type", "snapshot"}});
  CHECK(validate_execution(mixed).valid->readiness() == ActionReadiness::Interactive);
  CHECK(accepted("list_notifications", "").read_only());
  CHECK_FALSE(accepted("media_pause", R"({"mediaSessionId":"s"})").read_only());
}

TEST_CASE("on-screen log types match exactly", "[contract][on-screen-log]") {
  accepted("set_on_screen_log", R"({"text":"run 42"})");
  accepted("on_screen_log_set", R"({"text":"run 42"})");
  accepted("clear_on_screen_log", "");
  accepted("on_screen_log_clear", "{}");
  CHECK(normalize_action_type("on_screen_log_set") == "set_on_screen_log");
  // Refused, each pointed at the name as it must be written (docs/payload.md §6).
  for (const auto& [type, exact] :
       {std::pair<std::string, std::string>{"SET_ON_SCREEN_LOG", "set_on_screen_log"},
        {" clear_on_screen_log ", "clear_on_screen_log"},
        {"on_screen_log", "set_on_screen_log"},
        {"Set_On_Screen_Log", "set_on_screen_log"},
        {"ON_SCREEN_LOG_CLEAR", "on_screen_log_clear"}}) {
    CAPTURE(type);
    const Refusal got = refusal(type, "");
    CHECK(got.message == "Unsupported action type '" + type +
                             "': all action types must be supported. Did you mean '" + exact +
                             "'?");
    CHECK(got.exit == 2);
  }
}

TEST_CASE("on-screen log params: every rule of the panel", "[contract][on-screen-log]") {
  const std::string base = "actions.0.params.";
  const Execution full = accepted("set_on_screen_log", R"({"template":"{{device.model}}",
    "anchor":"right","textAlign":"right","topOffsetDp":1000,"edgeOffsetDp":0,"widthDp":600,
    "fontSizeSp":8,"textColor":"#a1b2c3","backgroundColor":"#80ffFFff","ttlMs":1e3})");
  const Json device = to_device_json(full);
  CHECK(device["actions"][0]["params"]["textColor"] == "#FFA1B2C3");
  CHECK(device["actions"][0]["params"]["backgroundColor"] == "#80FFFFFF");
  CHECK(device["actions"][0]["params"]["template"] == "{{device.model}}");

  expect_refused("set_on_screen_log", "", "actions.0.params",
                 "set_on_screen_log requires exactly one of params.text or params.template");
  expect_refused("set_on_screen_log", R"({"text":"a","template":"b"})", "actions.0.params",
                 "exactly one of params.text or params.template");
  expect_refused("set_on_screen_log", R"({"text":""})", base + "text", "non-whitespace");
  expect_refused("set_on_screen_log", "{\"text\":\" \\t\\n\\u00a0\\ufeff\"}", base + "text",
                 "non-whitespace");
  expect_refused("set_on_screen_log", "{\"text\":\"a\\u0007b\"}", base + "text",
                 "control characters");
  accepted("set_on_screen_log", "{\"text\":\"line 1\\n\\tline 2\"}");
  expect_refused("set_on_screen_log", R"({"text":")" + std::string(2049, 'x') + R"("})",
                 base + "text", "at most 2048");
  // Not trimmed, not aliased.
  expect_refused("set_on_screen_log", R"({"text":"a","anchor":" left"})", base + "anchor",
                 "must be one of: left, right");
  expect_refused("set_on_screen_log", R"({"text":"a","textAlign":"Right"})", base + "textAlign",
                 "must be one of: left, right");
  expect_refused("set_on_screen_log", R"({"value":"a"})", base + "value",
                 "set_on_screen_log does not accept params.value");
  expect_refused("set_on_screen_log", R"({"text":"a","text_align":"left"})", base + "text_align",
                 "does not accept params.text_align");
  const std::pair<const char*, const char*> ranges[] = {
      {"topOffsetDp", "1001"}, {"edgeOffsetDp", "-1"}, {"widthDp", "79"},
      {"widthDp", "601"},      {"fontSizeSp", "7"},    {"fontSizeSp", "25"},
      {"ttlMs", "999"},        {"ttlMs", "3600001"},   {"ttlMs", "1000.5"},
  };
  for (const auto& [key, value] : ranges) {
    expect_refused("set_on_screen_log",
                   std::string(R"({"text":"a",")") + key + R"(":)" + value + "}", base + key,
                   "must be an integer in [");
  }
  expect_refused("set_on_screen_log", R"({"text":"a","ttlMs":null})", base + "ttlMs",
                 "Expected number, received null");
  expect_refused("set_on_screen_log", R"({"text":"a","ttlMs":"5000"})", base + "ttlMs",
                 "Expected number, received string");
  for (const char* color : {"#fff", "#GGGGGG", "a1b2c3", " #a1b2c3", "#a1b2c3d", ""}) {
    expect_refused("set_on_screen_log", std::string(R"({"text":"a","textColor":")") + color + "\"}",
                   base + "textColor", "must be exactly #RRGGBB or #AARRGGBB");
  }
  expect_refused("clear_on_screen_log", R"({"text":"a"})", base + "text",
                 "clear_on_screen_log does not accept params.text");
  expect_refused("clear_on_screen_log", "null", "actions.0.params",
                 "Expected object, received null");
}

TEST_CASE("on-screen log templates: the grammar checked on the host", "[contract][on-screen-log]") {
  using on_screen_log::parse_template;
  std::string every;
  for (const std::string_view name : on_screen_log::placeholder_names()) {
    every += "{{" + std::string(name) + "}} ";
  }
  accepted("set_on_screen_log", Json{{"template", every}}.dump());
  CHECK(on_screen_log::placeholder_names().size() == 9);

  const auto pieces = parse_template("a {{{{x}}}} {b} {{device.model}}!");
  REQUIRE(pieces);
  REQUIRE(pieces->size() == 3);
  CHECK((*pieces)[0].text == "a {{x}} {b} ");
  CHECK((*pieces)[1].placeholder);
  CHECK((*pieces)[1].text == "device.model");
  CHECK((*pieces)[2].text == "!");

  const std::string base = "actions.0.params.template";
  expect_refused("set_on_screen_log", R"({"template":"{{device.serial}}"})", base,
                 "Invalid template placeholder (an unknown name at offset 0)");
  expect_refused("set_on_screen_log", R"({"template":"ab {{device.model"})", base,
                 "an unclosed {{ at offset 3");
  expect_refused("set_on_screen_log", R"({"template":"a }} b"})", base, "a stray }}");
  expect_refused("set_on_screen_log", R"({"template":"{{ device.model }}"})", base,
                 "supported names: {{foreground_app.icon}}");
  // `text` is never expanded, so braces there are just text.
  accepted("set_on_screen_log", R"({"text":"{{device.serial}} }}"})");
}

TEST_CASE("on-screen log colours and readable text", "[contract][on-screen-log]") {
  using on_screen_log::normalize_color;
  CHECK(normalize_color("#a1b2c3") == "#FFA1B2C3");
  CHECK(normalize_color("#00aaBBcc") == "#00AABBCC");
  CHECK_FALSE(normalize_color("#a1b2c"));
  CHECK_FALSE(normalize_color("#a1b2c3 "));
  CHECK_FALSE(normalize_color(""));
  CHECK(on_screen_log::check_display_text("ok"));
  CHECK(on_screen_log::check_display_text("\u2003\u3000").error().message ==
        "must contain a non-whitespace character");
  CHECK(on_screen_log::check_display_text("a\x7f").error().message ==
        "must not contain control characters other than newline and tab");
}
