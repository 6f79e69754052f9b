// The newest Operator's observation and gesture actions (docs/payload.md §10, §11): query_ui,
// relational matchers, strict selection, swipe, drag, toasts and the payload normalisation.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/payload_normalization.hpp"
#include "clawperator/contract/payload_validation.hpp"

using clawperator::dump_json;
using clawperator::Json;
using namespace clawperator::contract;

namespace {

Json payload_with(const std::string& type, const std::string& params_json) {
  Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
    "expectedFormat":"android-ui-automator","timeoutMs":5000})");
  Json action = Json::object();
  action["id"] = "a1";
  action["type"] = type;
  if (!params_json.empty()) action["params"] = Json::parse(params_json);
  payload["actions"] = Json::array({action});
  return payload;
}

struct RefusalCase {
  std::string type;
  std::string params;
  std::string path;
  std::string message;
};

// Each refusal is EXECUTION_VALIDATION_FAILED, exit 2, not delivered, with the first issue's
// path in details.path.
void check_refusals(const std::vector<RefusalCase>& cases) {
  for (const RefusalCase& c : cases) {
    CAPTURE(c.type, c.params);
    const ValidationOutcome outcome = validate_execution(payload_with(c.type, c.params));
    REQUIRE_FALSE(outcome.valid);
    REQUIRE_FALSE(outcome.issues.empty());
    CHECK(outcome.issues.front().message == c.message);
    const HostError error = validation_failure(outcome.issues);
    CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
    CHECK(exit_code_of(error) == 2);
    CHECK(to_json(disposition_of(error))["delivery"] == "not_delivered");
    CHECK(error.details["path"] == c.path);
  }
}

Json device_payload(const std::string& type, const std::string& params_json) {
  const ValidationOutcome outcome = validate_execution(payload_with(type, params_json));
  INFO((outcome.issues.empty() ? std::string() : outcome.issues.front().message));
  REQUIRE(outcome.valid);
  return to_device_json(*outcome.valid);
}

}  // namespace

TEST_CASE("query_ui params and limits", "[contract][validation][query]") {
  CHECK(device_payload("query_ui", "")["actions"][0].contains("params") == false);
  const Json full = device_payload(
      "query_ui", R"({"limit":1000,"visibility":"all","matcher":{"textEquals":"Wi-Fi"}})");
  CHECK(dump_json(full["actions"][0]["params"]) ==
        R"({"matcher":{"textEquals":"Wi-Fi"},"visibility":"all","limit":1000})");
  device_payload("query_ui", R"({"limit":1,"visibility":"on_screen"})");
  const std::string range = "query_ui params.limit must be an integer in [1, 1000]";
  check_refusals({
      {"query_ui", R"({"limit":0})", "actions.0.params.limit", range},
      {"query_ui", R"({"limit":1001})", "actions.0.params.limit", range},
      {"query_ui", R"({"limit":2.5})", "actions.0.params.limit", range},
      {"query_ui", R"({"limit":"5"})", "actions.0.params.limit",
       "Expected number, received string"},
      {"query_ui", R"({"visibility":"All"})", "actions.0.params.visibility",
       "query_ui params.visibility must be one of: on_screen, all"},
      {"query_ui", R"({"visibility":"visible"})", "actions.0.params.visibility",
       "query_ui params.visibility must be one of: on_screen, all"},
      {"query_ui", R"({"matcher":{}})", "actions.0.params.matcher",
       "Matcher must have at least one nonblank field"},
      {"query_ui", R"({"strict":true})", "actions.0.params.strict",
       "strict is only supported by node-targeted actions"},
      {"query_ui", R"({"container":{"textEquals":"x"}})", "actions.0.params",
       "Unrecognized key(s) in object: 'container'"},
  });
  CHECK(is_read_only_action("query_ui"));
  CHECK(action_spec(ActionType::QueryUi).post_processing == PostProcessing::ParseQuery);
}

TEST_CASE("relational matchers", "[contract][validation][matcher]") {
  const Json sent = device_payload(
      "click", R"({"matcher":{"role":"switch","textEquals":"On","ancestor":{"textContains":"Wi"},
                   "descendant":{"resourceId":"x:id/y"}}})");
  CHECK(dump_json(sent["actions"][0]["params"]["matcher"]) ==
        R"({"role":"switch","textEquals":"On","ancestor":{"textContains":"Wi"},)"
        R"("descendant":{"resourceId":"x:id/y"}})");
  // A relation alone is a matcher.
  device_payload("read_text", R"({"matcher":{"ancestor":{"resourceId":"a:id/list"}}})");
  device_payload("wait_for_node", R"({"matcher":{"descendant":{"textEquals":"On"}}})");
  check_refusals({
      {"click", R"({"matcher":{"textEquals":"  "}})", "actions.0.params.matcher.textEquals",
       "textEquals must not be blank: omit it to leave it open"},
      // A blank field beside a non-blank one is refused too: the Operator would ignore it.
      {"click", R"({"matcher":{"role":"switch","textEquals":""}})",
       "actions.0.params.matcher.textEquals",
       "textEquals must not be blank: omit it to leave it open"},
      {"click", R"({"matcher":{"ancestor":{}}})", "actions.0.params.matcher.ancestor",
       "Predicate must have at least one nonblank field"},
      {"click", R"({"matcher":{"ancestor":{"role":" "}}})",
       "actions.0.params.matcher.ancestor.role",
       "role must not be blank: omit it to leave it open"},
      {"click", R"({"matcher":{"descendant":{"ancestor":{"textEquals":"a"}}}})",
       "actions.0.params.matcher.descendant", "Unrecognized key(s) in object: 'ancestor'"},
      {"click", R"({"matcher":{"ancestor":{"hasChild":"a"}}})", "actions.0.params.matcher.ancestor",
       "Unrecognized key(s) in object: 'hasChild'"},
      {"click", R"({"matcher":{"below":{"textEquals":"a"}}})", "actions.0.params.matcher",
       "Unrecognized key(s) in object: 'below'"},
      {"click", R"({"matcher":{"ancestor":"list"}})", "actions.0.params.matcher.ancestor",
       "Expected object, received string"},
      {"click", R"({"matcher":{"descendant":{"textEquals":5}}})",
       "actions.0.params.matcher.descendant.textEquals", "Expected string, received number"},
      {"click", R"({"matcher":{"ancestor":{"textEquals":")" + std::string(513, 'x') + R"("}}})",
       "actions.0.params.matcher.ancestor.textEquals",
       "String must contain at most 512 character(s)"},
  });
}

TEST_CASE("strict and container on node-targeted actions", "[contract][validation][strict]") {
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"click", R"({"matcher":{"textEquals":"OK"},"strict":true,"container":{"resourceId":"l"}})"},
      {"enter_text", R"({"matcher":{"textEquals":"a"},"text":"x","strict":false})"},
      {"read_text", R"({"matcher":{"textEquals":"a"},"strict":true,"all":true})"},
      {"wait_for_node", R"({"matcher":{"textEquals":"a"},"strict":true})"},
      {"scroll", R"({"direction":"down","strict":true,"container":{"resourceId":"l"}})"},
      {"scroll_until", R"({"matcher":{"textEquals":"a"},"strict":true})"},
      {"scroll_and_click", R"({"matcher":{"textEquals":"a"},"strict":true})"},
  };
  for (const auto& [type, params] : accepted) {
    CAPTURE(type);
    const Json sent = device_payload(type, params);
    CHECK(sent["actions"][0]["params"].contains("strict"));
  }
  const std::string refused = "strict is only supported by node-targeted actions";
  check_refusals({
      {"click", R"({"matcher":{"textEquals":"OK"},"strict":"yes"})", "actions.0.params.strict",
       "Expected boolean, received string"},
      {"click", R"({"coordinate":{"x":1,"y":2},"strict":true})", "actions.0.params",
       "click params.coordinate cannot use strict or container"},
      {"snapshot", R"({"strict":true})", "actions.0.params.strict", refused},
      {"open_app", R"({"applicationId":"a.b","strict":true})", "actions.0.params.strict", refused},
      {"press_key", R"({"key":"back","strict":false})", "actions.0.params.strict", refused},
      {"sleep", R"({"durationMs":1,"strict":true})", "actions.0.params.strict", refused},
      {"read_key_value_pair", R"({"labelMatcher":{"textEquals":"a"},"strict":true})",
       "actions.0.params.strict", refused},
      {"click", R"({"matcher":{"textEquals":"OK"},"container":{}})", "actions.0.params.container",
       "Matcher must have at least one nonblank field"},
  });
}

TEST_CASE("swipe and drag params", "[contract][validation][gesture]") {
  const Json swipe = device_payload(
      "swipe", R"({"start":{"x":500,"y":1800},"end":{"x":500,"y":400},"durationMs":300})");
  CHECK(dump_json(swipe["actions"][0]) ==
        R"({"id":"a1","type":"swipe","params":{"start":{"x":500,"y":1800},)"
        R"("end":{"x":500,"y":400},"durationMs":300}})");
  device_payload("swipe",
                 R"({"start":{"x":0,"y":0},"end":{"x":2147483647,"y":1},"durationMs":10000})");
  const Json drag =
      device_payload("drag", R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4},"holdDurationMs":600,
                  "moveDurationMs":1})");
  CHECK(drag["actions"][0]["params"]["holdDurationMs"] == 600);
  CHECK(action_spec(ActionType::Drag).preflight == PreflightEffect::RequireGestureSdk);
  CHECK(action_spec(ActionType::Drag).min_sdk == 26);
  const std::string p = R"("start":{"x":1,"y":2},"end":{"x":3,"y":4})";
  check_refusals({
      {"swipe", R"({"end":{"x":3,"y":4},"durationMs":5})", "actions.0.params.start",
       "swipe requires params.start"},
      {"swipe", R"({"start":{"x":3,"y":4},"durationMs":5})", "actions.0.params.end",
       "swipe requires params.end"},
      {"swipe", "{" + p + "}", "actions.0.params.durationMs", "swipe requires params.durationMs"},
      {"swipe", R"({"start":{"x":3,"y":4},"end":{"x":3,"y":4},"durationMs":5})",
       "actions.0.params.end", "swipe start and end must differ"},
      {"swipe", "{" + p + R"(,"durationMs":0})", "actions.0.params.durationMs",
       "swipe params.durationMs must be an integer in [1, 10000]"},
      {"swipe", "{" + p + R"(,"durationMs":10001})", "actions.0.params.durationMs",
       "swipe params.durationMs must be an integer in [1, 10000]"},
      {"swipe", "{" + p + R"(,"durationMs":1.5})", "actions.0.params.durationMs",
       "swipe params.durationMs must be an integer in [1, 10000]"},
      {"swipe", "{" + p + R"(,"durationMs":5,"retry":{}})", "actions.0.params",
       "Unrecognized key(s) in object: 'retry'"},
      {"swipe", "{" + p + R"(,"durationMs":5,"matcher":{"textEquals":"a"}})", "actions.0.params",
       "Unrecognized key(s) in object: 'matcher'"},
      {"swipe", R"({"start":{"x":-1,"y":2},"end":{"x":3,"y":4},"durationMs":5})",
       "actions.0.params.start.x", "Number must be greater than or equal to 0"},
      {"swipe", R"({"start":{"x":2147483648,"y":2},"end":{"x":3,"y":4},"durationMs":5})",
       "actions.0.params.start.x", "Number must be less than or equal to 2147483647"},
      {"swipe", R"({"start":{"x":1,"y":2,"z":0},"end":{"x":3,"y":4},"durationMs":5})",
       "actions.0.params.start", "Unrecognized key(s) in object: 'z'"},
      {"swipe", R"({"start":{"x":1.5,"y":2},"end":{"x":3,"y":4},"durationMs":5})",
       "actions.0.params.start.x", "Expected integer, received float"},
      {"drag", "{" + p + R"(,"moveDurationMs":5})", "actions.0.params.holdDurationMs",
       "drag requires params.holdDurationMs"},
      {"drag", "{" + p + R"(,"holdDurationMs":5})", "actions.0.params.moveDurationMs",
       "drag requires params.moveDurationMs"},
      {"drag", "{" + p + R"(,"holdDurationMs":0,"moveDurationMs":5})",
       "actions.0.params.holdDurationMs",
       "drag params.holdDurationMs must be an integer in [1, 10000]"},
      {"drag", "{" + p + R"(,"holdDurationMs":5,"moveDurationMs":10001})",
       "actions.0.params.moveDurationMs",
       "drag params.moveDurationMs must be an integer in [1, 10000]"},
      {"drag",
       R"({"start":{"x":1,"y":2},"end":{"x":1,"y":2},"holdDurationMs":5,)"
       R"("moveDurationMs":5})",
       "actions.0.params.end", "drag start and end must differ"},
      {"drag", "{" + p + R"(,"holdDurationMs":5,"moveDurationMs":5,"durationMs":5})",
       "actions.0.params", "Unrecognized key(s) in object: 'durationMs'"},
  });
}

TEST_CASE("show_toast and cancel_toast params", "[contract][validation][toast]") {
  const Json shown = device_payload("show_toast", R"({"text":"  Hello\n","duration":"long"})");
  CHECK(shown["actions"][0]["params"]["text"] == "  Hello\n");
  device_payload("show_toast", R"({"text":")" + std::string(2048, 'x') + R"("})");
  device_payload("cancel_toast", "");
  device_payload("cancel_toast", "{}");
  check_refusals({
      {"show_toast", R"({})", "actions.0.params.text", "show_toast requires params.text"},
      {"show_toast", R"({"text":" \n "})", "actions.0.params.text",
       "show_toast requires params.text"},
      {"show_toast", R"({"text":")" + std::string(2049, 'x') + R"("})", "actions.0.params.text",
       "String must contain at most 2048 character(s)"},
      {"show_toast", R"({"text":"a","duration":"LONG"})", "actions.0.params.duration",
       "show_toast params.duration must be one of: short, long"},
      {"show_toast", R"({"text":"a","duration":null})", "actions.0.params.duration",
       "Expected string, received null"},
      {"show_toast", R"({"text":"a","duration":3500})", "actions.0.params.duration",
       "Expected string, received number"},
      {"show_toast", R"({"text":"a","durationMs":100})", "actions.0.params",
       "Unrecognized key(s) in object: 'durationMs'"},
      // Toast params are not aliased: `value` is not `text`.
      {"show_toast", R"({"value":"a"})", "actions.0.params",
       "Unrecognized key(s) in object: 'value'"},
      {"cancel_toast", R"({"text":"a"})", "actions.0.params",
       "Unrecognized key(s) in object: 'text'"},
      {"cancel_toast", "null", "actions.0.params", "Expected object, received null"},
      {"cancel_toast", "[]", "actions.0.params", "Expected object, received array"},
      {"cancel_toast", R"("")", "actions.0.params", "Expected object, received string"},
  });
}

TEST_CASE("payload normalisation: top-level, params and matcher aliases",
          "[contract][normalisation]") {
  const Json raw = Json::parse(R"({"command_id":"c1","task_id":"t1","source":"s",
    "expected_format":"android-ui-automator","timeout_ms":5000,"actions":[
      {"id":"a1","type":"open_app","params":{"package":"com.android.settings"}},
      {"id":"a2","type":"open_url","params":{"url":"https://example.com"}},
      {"id":"a3","type":"tap","params":{"selector":{"id":"android:id/title","text":"Wi-Fi"},
                                        "longPress":true,"within":{"content_desc":"List"}}},
      {"id":"a4","type":"type_text","params":{"element":{"text_contains":"Search"},"value":"x"}},
      {"id":"a5","type":"click","params":{"matcher":{"textEquals":"a"},"longPress":false}},
      {"id":"a6","type":"wait_for_navigation","params":{"wait_for":{"description":"d"},
                                                        "timeout_ms":100}},
      {"id":"a7","type":"read_key_value_pair","params":{"label_selector":{"text":"Battery"}}},
      {"id":"a8","type":"take_screenshot","params":{"output_path":"/tmp/x.png"}}]})");
  const Json normalised = normalize_payload(raw);
  CHECK(dump_json(normalised) ==
        R"({"commandId":"c1","taskId":"t1","source":"s","expectedFormat":"android-ui-automator",)"
        R"("timeoutMs":5000,"actions":[)"
        R"({"id":"a1","type":"open_app","params":{"applicationId":"com.android.settings"}},)"
        R"({"id":"a2","type":"open_url","params":{"uri":"https://example.com"}},)"
        R"({"id":"a3","type":"tap","params":{"matcher":{"resourceId":"android:id/title",)"
        R"("textEquals":"Wi-Fi"},"clickType":"long_click","container":)"
        R"({"contentDescEquals":"List"}}},)"
        R"({"id":"a4","type":"type_text","params":{"matcher":{"textContains":"Search"},)"
        R"("text":"x"}},)"
        R"({"id":"a5","type":"click","params":{"matcher":{"textEquals":"a"}}},)"
        R"({"id":"a6","type":"wait_for_navigation","params":{"expectedNode":)"
        R"({"contentDescEquals":"d"},"timeoutMs":100}},)"
        R"({"id":"a7","type":"read_key_value_pair","params":{"labelMatcher":)"
        R"({"textEquals":"Battery"}}},)"
        R"({"id":"a8","type":"take_screenshot","params":{"path":"/tmp/x.png"}}]})");
  const ValidationOutcome outcome = validate_execution(raw);
  REQUIRE(outcome.valid);
  const Json sent = to_device_json(*outcome.valid);
  CHECK(sent["commandId"] == "c1");
  CHECK(sent["actions"][0]["params"]["applicationId"] == "com.android.settings");
  CHECK(sent["actions"][1]["type"] == "open_uri");
  CHECK(sent["actions"][1]["params"]["uri"] == "https://example.com");
}

TEST_CASE("payload normalisation: the canonical key wins", "[contract][normalisation]") {
  const Json raw = Json::parse(R"({"commandId":"c1","command_id":"alias","actions":[
      {"id":"a1","type":"open_app","params":{"app":"x.first","applicationId":"a.b",
                                             "package":"x.last"}},
      {"id":"a2","type":"open_app","params":{"app":"x.first","package":"x.last"}},
      {"id":"a3","type":"click","params":{"matcher":{"text":"alias","textEquals":"canonical",
                                                     "ancestor":{"text":"kept"}}}}]})");
  const Json out = normalize_payload(raw);
  CHECK(dump_json(out) ==
        R"({"commandId":"c1","actions":[)"
        R"({"id":"a1","type":"open_app","params":{"applicationId":"a.b"}},)"
        R"({"id":"a2","type":"open_app","params":{"applicationId":"x.last"}},)"
        R"({"id":"a3","type":"click","params":{"matcher":{"textEquals":"canonical",)"
        R"("ancestor":{"text":"kept"}}}}]})");
  // Relations are not remapped: validation refuses the alias inside them.
  check_refusals({
      {"click", R"({"matcher":{"ancestor":{"text":"x"}}})", "actions.0.params.matcher.ancestor",
       "Unrecognized key(s) in object: 'text'"},
      {"click", R"({"matcher":{"textEquals":"a"},"longPress":"yes"})", "actions.0.params",
       "Unrecognized key(s) in object: 'longPress'"},
  });
  // Nothing but objects is touched.
  CHECK(normalize_payload(Json::array({1})) == Json::array({1}));
  CHECK(dump_json(normalize_payload(Json::parse(R"({"actions":[5,{"params":[]}]})"))) ==
        R"({"actions":[5,{"params":[]}]})");
}

TEST_CASE("a row marked Verbatim keeps its params and needs its exact type",
          "[contract][normalisation]") {
  // show_toast is ParamsVerbatim; cancel_toast too (docs/payload.md §11).
  CHECK(action_spec(ActionType::ShowToast).input == InputForm::ParamsVerbatim);
  const Json raw = Json::parse(R"({"actions":[{"id":"a","type":"show_toast",
      "params":{"value":"x","duration_ms":5}}]})");
  CHECK(normalize_payload(raw) == raw);
  // The type itself is still looked up trimmed and in any case.
  CHECK(find_caller_action(" Show_Toast ") == &action_spec(ActionType::ShowToast));
}
