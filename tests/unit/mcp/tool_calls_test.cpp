#include "clawperator/mcp/tool_calls.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/payload_validation.hpp"

namespace {

using namespace clawperator;
using namespace clawperator::mcp;

const service::IdStamp kStamp{"0f1e2d3c4b5a69788796a5b4c3d2e1f0"};

ToolPlan plan(const std::string& tool, const std::string& arguments,
              const SessionDefaults& session = {}) {
  const ToolDefinition* definition = find_tool(tool);
  REQUIRE(definition != nullptr);
  return plan_tool_call(*definition, Json::parse(arguments), session, kStamp);
}

ExecutionCall execution(const std::string& tool, const std::string& arguments,
                        const SessionDefaults& session = {}) {
  ToolPlan planned = plan(tool, arguments, session);
  if (!planned) FAIL(planned.error().message);
  REQUIRE(std::holds_alternative<ExecutionCall>(*planned));
  ExecutionCall call = std::get<ExecutionCall>(std::move(*planned));
  // Every payload a tool builds is one the validator accepts.
  const contract::ValidationOutcome outcome = contract::validate_execution(call.payload);
  INFO(call.payload.dump());
  CHECK(outcome.issues.empty());
  return call;
}

std::string argument_error(const std::string& tool, const std::string& arguments) {
  ToolPlan planned = plan(tool, arguments);
  REQUIRE_FALSE(planned);
  return planned.error().message;
}

}  // namespace

TEST_CASE("tools build the CLI's payloads with MCP's ids and source", "[mcp][calls]") {
  const ExecutionCall click = execution("click", R"({"selector":{"text":"OK"}})");
  CHECK(
      dump_json(click.payload) ==
      R"({"commandId":"mcp-click-0f1e2d3c4b5a69788796a5b4c3d2e1f0","taskId":"mcp-click-0f1e2d3c4b5a69788796a5b4c3d2e1f0",)"
      R"("source":"mcp","expectedFormat":"android-ui-automator","timeoutMs":30000,)"
      R"("actions":[{"id":"click","type":"click","params":{"matcher":{"textEquals":"OK"}}}],)"
      R"("mode":"direct"})");
  const ExecutionCall point =
      execution("click", R"({"coordinate":{"x":10,"y":20},"clickType":"long_click"})");
  CHECK(point.payload["actions"][0]["params"] ==
        Json::parse(R"({"coordinate":{"x":10,"y":20},"clickType":"long_click"})"));
  const ExecutionCall app = execution("open", R"({"appId":"com.android.settings"})");
  CHECK(app.payload["actions"][0] ==
        Json::parse(
            R"({"id":"a1","type":"open_app","params":{"applicationId":"com.android.settings"}})"));
  CHECK(app.payload["timeoutMs"] == 15000);
  const ExecutionCall uri = execution("open", R"({"uri":"tel:123"})");
  CHECK(uri.payload["actions"][0]["type"] == "open_uri");
  const ExecutionCall type =
      execution("type", R"({"selector":{"id":"field"},"text":"hello","submit":true})");
  CHECK(type.payload["actions"][0]["params"] ==
        Json::parse(
            R"({"matcher":{"resourceId":"field"},"text":"hello","submit":true,"clear":false})"));
  const ExecutionCall read = execution(
      "read",
      R"({"selector":{"id":"v"},"all":true,"validator":"regex","validatorPattern":"\\d+"})");
  CHECK(read.payload["actions"][0]["params"]["validatorPattern"] == "\\d+");
  CHECK(execution("press", R"({"key":"back"})").payload["actions"][0]["params"]["key"] == "back");
  CHECK(execution("scroll", R"({"direction":"down"})").payload["actions"][0]["type"] == "scroll");
  CHECK(execution("scroll_until", R"({"selector":{"text":"x"},"direction":"up"})")
            .payload["actions"][0]["type"] == "scroll_until");
  CHECK(execution("scroll_and_click", R"({"selector":{"text":"x"},"direction":"up"})")
            .payload["actions"][0]["type"] == "scroll_and_click");
  CHECK(execution("scroll_and_click",
                  R"({"selector":{"text":"x"},"direction":"up","clickAfter":false})")
            .payload["actions"][0]["type"] == "scroll_until");
  CHECK(execution("snapshot", "{}").payload["actions"][0]["type"] == "snapshot");
  CHECK(execution("snapshot", R"({"maxChars":100})").max_chars == 100);
  CHECK(execution("screenshot", "{}").payload["actions"][0]["type"] == "take_screenshot");
  CHECK_FALSE(execution("screenshot", "{}").max_dimension);
  CHECK(execution("screenshot", R"({"maxDimension":1024})").max_dimension == 1024);
}

TEST_CASE("screenshot's maxDimension is an integer from 64 to 4096", "[mcp][calls]") {
  CHECK(execution("screenshot", R"({"maxDimension":64})").max_dimension == 64);
  CHECK(execution("screenshot", R"({"maxDimension":4096})").max_dimension == 4096);
  CHECK(argument_error("screenshot", R"({"maxDimension":63})") ==
        "must be >= 64 (path: maxDimension)");
  CHECK(argument_error("screenshot", R"({"maxDimension":4097})") ==
        "must be <= 4096 (path: maxDimension)");
  CHECK(argument_error("screenshot", R"({"maxDimension":512.5})") ==
        "must be an integer (path: maxDimension)");
  CHECK(argument_error("screenshot", R"({"maxDimension":"512"})") ==
        "must be an integer (path: maxDimension)");
  CHECK(argument_error("screenshot", R"({"maxDimension":null})") ==
        "must be an integer (path: maxDimension)");
}

TEST_CASE("wait's timeoutMs is the wait; the execution gets the CLI's margin", "[mcp][calls]") {
  const ExecutionCall wait =
      execution("wait", R"({"selector":{"text":"Never"},"timeoutMs":40000})");
  CHECK(wait.payload["actions"][0]["params"]["timeoutMs"] == 40000);
  CHECK(wait.payload["timeoutMs"] == 45000);
}

TEST_CASE("session defaults apply under each call's own arguments", "[mcp][calls]") {
  SessionDefaults session;
  session = configured(session, Json::parse(R"({"deviceId":"a","timeoutMs":5000})"));
  CHECK(to_json(session) == Json::parse(R"({"deviceId":"a","timeoutMs":5000})"));
  const ExecutionCall defaulted = execution("snapshot", "{}", session);
  CHECK(defaulted.device_id == "a");
  CHECK(defaulted.payload["timeoutMs"] == 5000);
  const ExecutionCall own = execution(
      "snapshot", R"({"deviceId":"b","operatorPackage":"com.x.dev","timeoutMs":9000})", session);
  CHECK(own.device_id == "b");
  CHECK(own.operator_package == "com.x.dev");
  CHECK(own.payload["timeoutMs"] == 9000);
}

TEST_CASE("execute runs the caller's actions but never a host path of theirs", "[mcp][calls]") {
  const ExecutionCall call =
      execution("execute", R"({"actions":[{"id":"s","type":"sleep","params":{"durationMs":10}}]})");
  CHECK(call.payload["actions"].size() == 1);
  CHECK(call.payload["commandId"] == "mcp-execute-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  CHECK(argument_error(
            "execute",
            R"({"actions":[{"id":"s","type":"screenshot","params":{"path":"/etc/x"}}]})") ==
        "execute does not allow caller-controlled take_screenshot paths over MCP (path: "
        "actions.0.params.path)");
  for (const char* alias : {"file", "filePath", "output_path"}) {
    const Json arguments = {{"actions", Json::array({{{"id", "s"},
                                                      {"type", "take_screenshot"},
                                                      {"params", {{alias, "/home/u/.bashrc"}}}}})}};
    CHECK(argument_error("execute", arguments.dump()) ==
          "execute does not allow caller-controlled take_screenshot paths over MCP (path: "
          "actions.0.params." +
              std::string(alias) + ")");
  }
}

TEST_CASE("bad arguments are refused with the first problem and its path", "[mcp][calls]") {
  CHECK(argument_error("click", "{}") == "give exactly one of selector and coordinate");
  CHECK(argument_error("click", R"({"selector":{"text":"a"},"coordinate":{"x":1,"y":2}})") ==
        "give exactly one of selector and coordinate");
  CHECK(argument_error("click", R"({"selector":{}})") ==
        "must have at least 1 field(s) (path: selector)");
  CHECK(argument_error("click", R"({"selector":{"text":"  "}})") ==
        "must not be blank (path: selector.text)");
  CHECK(argument_error("click", R"({"selector":{"label":"x"}})") ==
        "unknown argument label (path: selector.label)");
  CHECK(argument_error("press", R"({"key":"menu"})") ==
        R"(must be one of: "back", "home", "recents" (path: key))");
  CHECK(argument_error("press", "{}") == "key is required (path: key)");
  CHECK(argument_error("snapshot", R"({"timeoutMs":10})") == "must be >= 1000 (path: timeoutMs)");
  CHECK(argument_error("snapshot", R"({"timeoutMs":1000.5})") ==
        "must be an integer (path: timeoutMs)");
  CHECK(argument_error("snapshot", R"({"maxChars":0})") == "must be >= 1 (path: maxChars)");
  CHECK(argument_error("snapshot", R"({"deviceId":""})") == "must not be empty (path: deviceId)");
  CHECK(argument_error("devices", R"({"deviceId":"x"})") ==
        "unknown argument deviceId (path: deviceId)");
  CHECK(argument_error("execute", R"({"actions":[]})") ==
        "must have at least 1 item(s) (path: actions)");
  CHECK(argument_error("execute", R"({"actions":[{"id":"a"}]})") ==
        "type is required (path: actions.0.type)");
  CHECK(argument_error("type", R"({"selector":{"text":"a"},"text":5})") ==
        "must be a string (path: text)");
  CHECK(argument_error("read", R"({"selector":{"text":"a"},"validator":"regex"})") ==
        "validatorPattern is required with validator regex (path: validatorPattern)");
  CHECK(argument_error("explain_error", "{}") == "code is required (path: code)");
}

TEST_CASE("devices, configure, doctor and explain_error run no execution", "[mcp][calls]") {
  for (const char* tool : {"devices", "configure", "doctor"}) {
    INFO(tool);
    const ToolPlan planned = plan(tool, "{}");
    REQUIRE(planned);
    CHECK(std::holds_alternative<LocalCall>(*planned));
  }
  ToolPlan explain = plan("explain_error", R"({"code":"NODE_NOT_FOUND"})");
  REQUIRE(explain);
  REQUIRE(std::holds_alternative<LocalCall>(*explain));
  CHECK(std::get<LocalCall>(*explain).kind == ToolKind::ExplainError);
}

TEST_CASE("query_ui, swipe and drag build what the CLI's query, swipe and drag build",
          "[mcp][calls]") {
  const ExecutionCall query = execution(
      "query_ui",
      R"({"matcher":{"textContains":"Wi","ancestor":{"resourceId":"list"}},"visibility":"all",)"
      R"("limit":5})");
  service::QueryRequest request;
  request.matcher = Json::parse(R"({"textContains":"Wi","ancestor":{"resourceId":"list"}})");
  request.visibility = "all";
  request.limit = 5;
  Json expected = service::build_query(kStamp, request);
  CHECK(query.payload["actions"] == expected["actions"]);
  CHECK(query.payload["actions"][0]["id"] == "query");
  CHECK(query.payload["mode"] == expected["mode"]);
  CHECK(query.payload["commandId"] == "mcp-query_ui-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  CHECK(query.payload["source"] == "mcp");
  // Nothing given: the Operator's defaults (on_screen, 100).
  CHECK_FALSE(execution("query_ui", "{}").payload["actions"][0].contains("params"));

  const ExecutionCall swipe = execution(
      "swipe", R"({"start":{"x":500,"y":1500},"end":{"x":500,"y":300},"durationMs":250})");
  CHECK(swipe.payload["actions"] ==
        service::build_swipe(kStamp, {500, 1500}, {500, 300}, 250, std::nullopt)["actions"]);
  const ExecutionCall drag = execution(
      "drag",
      R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4},"holdDurationMs":600,"moveDurationMs":400,)"
      R"("timeoutMs":20000})");
  CHECK(drag.payload["actions"][0]["params"] ==
        Json::parse(R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4},"holdDurationMs":600,)"
                    R"("moveDurationMs":400})"));
  CHECK(drag.payload["timeoutMs"] == 20000);
}

TEST_CASE("strict and container reach the element action's params", "[mcp][calls]") {
  const ExecutionCall click = execution(
      "click", R"({"selector":{"text":"OK"},"strict":true,"container":{"id":"android:id/list"}})");
  CHECK(click.payload["actions"][0]["params"] ==
        Json::parse(R"({"matcher":{"textEquals":"OK"},"strict":true,)"
                    R"("container":{"resourceId":"android:id/list"}})"));
  for (const char* tool : {"type", "read", "wait", "scroll_until", "scroll_and_click"}) {
    INFO(tool);
    const std::string extra = std::string(tool) == "type" ? R"(,"text":"x")" : "";
    const std::string direction =
        std::string(tool).rfind("scroll", 0) == 0 ? R"(,"direction":"down")" : "";
    const ExecutionCall call =
        execution(tool, R"({"selector":{"desc":"d"},"strict":true,"container":{"role":"list"})" +
                            extra + direction + "}");
    CHECK(call.payload["actions"][0]["params"]["strict"] == true);
    CHECK(call.payload["actions"][0]["params"]["container"] == Json::parse(R"({"role":"list"})"));
  }
  const ExecutionCall scroll =
      execution("scroll", R"({"direction":"up","strict":true,"container":{"text":"Feed"}})");
  CHECK(scroll.payload["actions"][0]["params"]["container"] ==
        Json::parse(R"({"textEquals":"Feed"})"));
  // strict false is the default and is not sent.
  CHECK_FALSE(execution("click", R"({"selector":{"text":"OK"},"strict":false})")
                  .payload["actions"][0]["params"]
                  .contains("strict"));
}

TEST_CASE("snapshot's compact mode and its options", "[mcp][calls]") {
  const ExecutionCall plain = execution("snapshot", "{}");
  CHECK_FALSE(plain.compact);
  const ExecutionCall defaults = execution("snapshot", R"({"compact":true})");
  REQUIRE(defaults.compact);
  CHECK(defaults.compact->max_nodes == 100);
  CHECK(defaults.compact->max_text_chars == 256);
  CHECK_FALSE(defaults.save_raw);
  const ExecutionCall own =
      execution("snapshot", R"({"compact":true,"maxNodes":7,"maxTextChars":40,"saveRaw":true})");
  REQUIRE(own.compact);
  CHECK(own.compact->max_nodes == 7);
  CHECK(own.compact->max_text_chars == 40);
  CHECK(own.save_raw);
  CHECK_FALSE(execution("snapshot", R"({"compact":false})").compact);
}

TEST_CASE("the new tools' bad arguments are refused with their paths", "[mcp][calls]") {
  CHECK(argument_error("query_ui", R"({"limit":0})") == "must be >= 1 (path: limit)");
  CHECK(argument_error("query_ui", R"({"limit":1001})") == "must be <= 1000 (path: limit)");
  CHECK(argument_error("query_ui", R"({"visibility":"hidden"})") ==
        R"(must be one of: "on_screen", "all" (path: visibility))");
  CHECK(argument_error("query_ui", R"({"matcher":{}})") ==
        "must have at least 1 field(s) (path: matcher)");
  CHECK(argument_error("query_ui", R"({"matcher":{"ancestor":{"id":"x"}}})") ==
        "unknown argument id (path: matcher.ancestor.id)");
  CHECK(argument_error("query_ui", R"({"strict":true})") ==
        "unknown argument strict (path: strict)");
  CHECK(argument_error("swipe", R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4}})") ==
        "durationMs is required (path: durationMs)");
  CHECK(argument_error("swipe", R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4},"durationMs":0})") ==
        "must be >= 1 (path: durationMs)");
  CHECK(argument_error("swipe", R"({"start":{"x":-1,"y":2},"end":{"x":3,"y":4},"durationMs":9})") ==
        "must be >= 0 (path: start.x)");
  CHECK(argument_error("drag",
                       R"({"start":{"x":1,"y":2},"end":{"x":3,"y":4},"holdDurationMs":5,)"
                       R"("moveDurationMs":10001})") == "must be <= 10000 (path: moveDurationMs)");
  CHECK(argument_error("click", R"({"selector":{"text":"a"},"strict":"yes"})") ==
        "must be a boolean (path: strict)");
  CHECK(argument_error("wait", R"({"selector":{"text":"a"},"container":{}})") ==
        "must have at least 1 field(s) (path: container)");
  CHECK(argument_error("snapshot", R"({"compact":true,"maxChars":10})") ==
        "maxChars cannot be combined with compact (path: maxChars)");
  CHECK(argument_error("snapshot", R"({"maxNodes":10})") ==
        "maxNodes requires compact: true (path: maxNodes)");
  CHECK(argument_error("snapshot", R"({"compact":false,"maxTextChars":10})") ==
        "maxTextChars requires compact: true (path: maxTextChars)");
  CHECK(argument_error("snapshot", R"({"saveRaw":true})") ==
        "saveRaw requires compact: true (path: saveRaw)");
  CHECK(argument_error("snapshot", R"({"compact":true,"maxNodes":1001})") ==
        "must be <= 1000 (path: maxNodes)");
  CHECK(argument_error("snapshot", R"({"compact":true,"maxTextChars":0})") ==
        "must be >= 1 (path: maxTextChars)");
  CHECK(argument_error("snapshot", R"({"compact":true,"rawPath":"/tmp/x.xml"})") ==
        "unknown argument rawPath (path: rawPath)");
}

TEST_CASE("an element tool's selector also takes the payload's own matcher keys",
          "[mcp][calls][selector]") {
  const ExecutionCall canonical =
      execution("click", R"({"selector":{"textEquals":"OK","resourceId":"android:id/button1",)"
                         R"("contentDescEquals":"d","contentDescContains":"e"}})");
  CHECK(dump_json(canonical.payload["actions"][0]["params"]["matcher"]) ==
        R"({"textEquals":"OK","resourceId":"android:id/button1","contentDescEquals":"d",)"
        R"("contentDescContains":"e"})");
  // Short and payload names mix, in the caller's order.
  const ExecutionCall mixed =
      execution("read", R"({"selector":{"id":"title","textEquals":"Wi-Fi"},)"
                        R"("container":{"resourceId":"list","desc":"Settings"}})");
  CHECK(dump_json(mixed.payload["actions"][0]["params"]["matcher"]) ==
        R"({"resourceId":"title","textEquals":"Wi-Fi"})");
  CHECK(dump_json(mixed.payload["actions"][0]["params"]["container"]) ==
        R"({"resourceId":"list","contentDescEquals":"Settings"})");
  // The same rules as the short keys.
  CHECK(argument_error("click", R"({"selector":{"textEquals":" "}})") ==
        "must not be blank (path: selector.textEquals)");
  // One field under both its names is refused, whichever comes first.
  CHECK(argument_error("click", R"({"selector":{"textEquals":"a","text":"b"}})") ==
        "give text or textEquals, not both (path: selector.textEquals)");
  CHECK(
      argument_error("scroll", R"({"direction":"down","container":{"id":"a","resourceId":"b"}})") ==
      "give id or resourceId, not both (path: container.resourceId)");
  CHECK(argument_error("wait", R"({"selector":{"descContains":"a","contentDescContains":"b"}})") ==
        "give descContains or contentDescContains, not both (path: selector.contentDescContains)");
}

TEST_CASE("execute's params are declared an object; what they hold is validation's to refuse",
          "[mcp][calls]") {
  const Json params =
      find_tool("execute")->input_schema["properties"]["actions"]["items"]["properties"]["params"];
  CHECK(params["type"] == "object");
  CHECK(params["additionalProperties"] == true);
  CHECK(argument_error("execute", R"({"actions":[{"id":"a","type":"click","params":"x"}]})") ==
        "must be an object (path: actions.0.params)");
  // Any object passes the schema; the payload's rules come after it (server_test).
  ToolPlan planned = plan("execute", R"({"actions":[{"id":"a","type":"click","params":{"x":1}}]})");
  CHECK(planned.has_value());
}
