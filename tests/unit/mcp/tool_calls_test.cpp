#include "clawperator/mcp/tool_calls.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/payload_validation.hpp"

namespace {

using namespace clawperator;
using namespace clawperator::mcp;

const cli::IdStamp kStamp{1764500000000, "k3x9a0b"};

ToolPlan plan(const std::string& tool, const std::string& arguments,
              const SessionDefaults& session = {}) {
  const ToolDefinition* definition = find_tool(tool);
  REQUIRE(definition != nullptr);
  return plan_tool_call(*definition, Json::parse(arguments), session, kStamp);
}

ExecutionCall execution(const std::string& tool, const std::string& arguments,
                        const SessionDefaults& session = {}) {
  ToolPlan planned = plan(tool, arguments, session);
  if (auto* error = std::get_if<ArgumentError>(&planned)) FAIL(error->message);
  REQUIRE(std::holds_alternative<ExecutionCall>(planned));
  ExecutionCall call = std::get<ExecutionCall>(std::move(planned));
  // Every payload a tool builds is one the validator accepts.
  const contract::ValidationOutcome outcome = contract::validate_execution(call.payload);
  INFO(call.payload.dump());
  CHECK(outcome.issues.empty());
  return call;
}

std::string argument_error(const std::string& tool, const std::string& arguments) {
  ToolPlan planned = plan(tool, arguments);
  REQUIRE(std::holds_alternative<ArgumentError>(planned));
  return std::get<ArgumentError>(planned).message;
}

}  // namespace

TEST_CASE("tools build the CLI's payloads with MCP's ids and source", "[mcp][calls]") {
  const ExecutionCall click = execution("click", R"({"selector":{"text":"OK"}})");
  CHECK(
      dump_json(click.payload) ==
      R"({"commandId":"mcp-click-1764500000000-k3x9a0b","taskId":"mcp-click-1764500000000-k3x9a0b",)"
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
  CHECK(call.payload["commandId"] == "mcp-execute-1764500000000-k3x9a0b");
  CHECK(argument_error(
            "execute",
            R"({"actions":[{"id":"s","type":"screenshot","params":{"path":"/etc/x"}}]})") ==
        "execute does not allow caller-controlled take_screenshot paths over MCP (path: "
        "actions.0.params)");
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
    CHECK(std::holds_alternative<LocalCall>(plan(tool, "{}")));
  }
  ToolPlan explain = plan("explain_error", R"({"code":"NODE_NOT_FOUND"})");
  REQUIRE(std::holds_alternative<LocalCall>(explain));
  CHECK(std::get<LocalCall>(explain).kind == ToolKind::ExplainError);
}
