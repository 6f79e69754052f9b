#include "clawperator/mcp/tools.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <vector>

#include "clawperator/mcp/schema_check.hpp"

namespace {

using namespace clawperator;
using namespace clawperator::mcp;

// Which rows each tool sends, written out here so that the test does not trust the code.
const std::map<std::string, std::vector<std::string>> kToolRows = {
    {"snapshot", {"snapshot"}},
    {"open", {"open_app", "open_uri"}},
    {"click", {"click"}},
    {"type", {"enter_text"}},
    {"read", {"read_text"}},
    {"press", {"press_key"}},
    {"wait", {"wait_for_node"}},
    {"scroll", {"scroll"}},
    {"scroll_until", {"scroll_until", "scroll_and_click"}},
    {"scroll_and_click", {"scroll_and_click", "scroll_until"}},
    {"screenshot", {"take_screenshot"}},
    {"query_ui", {"query_ui"}},
    {"swipe", {"swipe"}},
    {"drag", {"drag"}},
    {"recording_start", {"start_recording"}},
    {"recording_stop", {"stop_recording"}},
};

std::vector<std::string> tool_names() {
  std::vector<std::string> names;
  for (const ToolDefinition& tool : tool_definitions()) names.push_back(tool.name);
  return names;
}

}  // namespace

TEST_CASE("tools/list has every tool of the issue, in order", "[mcp][tools]") {
  std::vector<std::string> expected = {"devices", "configure", "snapshot"};
  for (std::string_view row : kRowToolNames) {
    // query_ui, swipe and drag arrive with their rows.
    if (contract::find_caller_action(row) != nullptr) expected.emplace_back(row);
  }
  for (const char* name : {"execute",
                           "open",
                           "click",
                           "type",
                           "read",
                           "press",
                           "wait",
                           "scroll",
                           "scroll_until",
                           "scroll_and_click",
                           "screenshot",
                           "doctor",
                           "explain_error",
                           "skills_list",
                           "skills_get",
                           "skills_run",
                           "recording_start",
                           "recording_stop",
                           "recording_compile",
                           "emulator_provision",
                           "evidence_capture",
                           "evidence_video_start",
                           "evidence_video_status",
                           "evidence_video_stop",
                           "webview_list",
                           "webview_query",
                           "webview_click",
                           "webview_type",
                           "webview_eval",
                           "webview_wait",
                           "webview_screenshot",
                           "visual_text_query",
                           "visual_text_click",
                           "visual_text_wait",
                           "visual_text_read"}) {
    expected.emplace_back(name);
  }
  CHECK(tool_names() == expected);
}

TEST_CASE("tool annotations match the action table", "[mcp][tools]") {
  for (const ToolDefinition& tool : tool_definitions()) {
    INFO(tool.name);
    if (tool.name == "execute") {
      // Any payload: mutating, destructive, not idempotent, as the table's rows are in sum.
      CHECK_FALSE(tool.annotations.read_only);
      CHECK(tool.annotations.destructive);
      CHECK_FALSE(tool.annotations.idempotent);
      std::size_t callers = 0;
      for (const contract::ActionSpec& spec : contract::action_table())
        callers += spec.from_callers;
      CHECK(tool.rows.size() == callers);
      continue;
    }
    const auto rows = kToolRows.find(tool.name);
    if (rows == kToolRows.end()) {
      CHECK_FALSE(tool.runs_execution);
      continue;
    }
    bool read_only = true;
    bool destructive = false;
    bool idempotent = true;
    for (const std::string& name : rows->second) {
      const contract::ActionSpec* spec = contract::find_action(name);
      REQUIRE(spec != nullptr);
      read_only = read_only && spec->read_only;
      destructive = destructive || (!spec->read_only && spec->destructive);
      idempotent = idempotent && spec->idempotent;
    }
    CHECK(tool.annotations.read_only == read_only);
    CHECK(tool.annotations.destructive == destructive);
    CHECK(tool.annotations.idempotent == idempotent);
    CHECK(tool.annotations.open_world);
    // open sends two rows and has a title of its own.
    if (tool.name != "open")
      CHECK(tool.title == contract::find_action(rows->second.front())->title);
    // And tools/list publishes exactly these.
    const Json entry = tool_list_entry(tool, "2025-11-25");
    CHECK(entry["annotations"]["readOnlyHint"] == read_only);
    CHECK(entry["annotations"]["destructiveHint"] == destructive);
    CHECK(entry["annotations"]["idempotentHint"] == idempotent);
  }
}

TEST_CASE("every input schema is a closed object our checker understands", "[mcp][tools]") {
  for (const ToolDefinition& tool : tool_definitions()) {
    INFO(tool.name);
    CHECK(tool.input_schema["type"] == "object");
    CHECK(tool.input_schema["additionalProperties"] == false);
    CHECK(schema_uses_known_keywords(tool.input_schema));
    CHECK_FALSE(tool.description.empty());
    CHECK_FALSE(tool.title.empty());
    if (tool.runs_execution) {
      CHECK(tool.input_schema["properties"].contains("deviceId"));
      CHECK(tool.input_schema["properties"]["timeoutMs"]["minimum"] == 1000);
      CHECK(tool.input_schema["properties"]["timeoutMs"]["maximum"] == 120000);
    }
  }
  CHECK_FALSE(find_tool("devices")->input_schema["properties"].contains("deviceId"));
}

TEST_CASE("enums and requirements come from the rows' constraints", "[mcp][tools]") {
  const Json press = find_tool("press")->input_schema;
  CHECK(press["properties"]["key"]["enum"] == Json::array({"back", "home", "recents"}));
  CHECK(press["required"] == Json::array({"key"}));
  const Json scroll = find_tool("scroll")->input_schema;
  CHECK(scroll["properties"]["direction"]["enum"] == Json::array({"down", "up", "left", "right"}));
  const Json type = find_tool("type")->input_schema;
  CHECK(type["properties"]["text"]["maxLength"] == 512);
  CHECK(type["required"] == Json::array({"selector", "text"}));
  const Json open = find_tool("open")->input_schema;
  CHECK(open["properties"]["appId"]["pattern"] == "\\S");
  CHECK(open["properties"]["uri"]["maxLength"] == 2048);
  CHECK(open["oneOf"].size() == 2);
}

TEST_CASE("tools/list entries follow the negotiated version", "[mcp][tools]") {
  const ToolDefinition& snapshot = *find_tool("snapshot");
  const Json newest = tool_list_entry(snapshot, "2025-11-25");
  CHECK(newest["title"] == "Snapshot");
  CHECK(newest.contains("outputSchema"));
  CHECK_FALSE(newest["annotations"].contains("title"));
  const Json march = tool_list_entry(snapshot, "2025-03-26");
  CHECK_FALSE(march.contains("title"));
  CHECK_FALSE(march.contains("outputSchema"));
  CHECK(march["annotations"]["title"] == "Snapshot");
  CHECK(march["annotations"]["readOnlyHint"] == true);
  const Json oldest = tool_list_entry(snapshot, "2024-11-05");
  CHECK_FALSE(oldest.contains("annotations"));
  CHECK(oldest["inputSchema"] == snapshot.input_schema);
}

TEST_CASE("a row tool appears with its row and takes the row's params", "[mcp][tools]") {
  for (std::string_view name : kRowToolNames) {
    const contract::ActionSpec* spec = contract::find_caller_action(name);
    const ToolDefinition* tool = find_tool(name);
    if (spec == nullptr) {
      CHECK(tool == nullptr);
      continue;
    }
    REQUIRE(tool != nullptr);
    for (const contract::ParamSpec& param : spec->schema->params) {
      // A key the row refuses (query_ui's strict) is not offered.
      const bool forbidden =
          std::any_of(spec->constraints.begin(), spec->constraints.end(), [&](const auto& rule) {
            return rule.key == param.key && rule.kind == contract::ConstraintKind::Forbidden;
          });
      INFO(param.key);
      CHECK(tool->input_schema["properties"].contains(std::string(param.key)) == !forbidden);
    }
  }
}

TEST_CASE("the MCP selector becomes the payload's matcher, in the caller's order", "[mcp][tools]") {
  const Json selector =
      Json::parse(R"({"text":"OK","id":"android:id/button1","desc":"d","descContains":"e",)"
                  R"("textContains":"K","role":"button","ancestor":{"resourceId":"list"}})");
  CHECK(dump_json(selector_to_matcher(selector)) ==
        R"({"textEquals":"OK","resourceId":"android:id/button1","contentDescEquals":"d",)"
        R"("contentDescContains":"e","textContains":"K","role":"button",)"
        R"("ancestor":{"resourceId":"list"}})");
}

TEST_CASE("query_ui, swipe and drag take their rows' params, required and ranged", "[mcp][tools]") {
  const Json query = find_tool("query_ui")->input_schema;
  CHECK(query["properties"]["visibility"]["enum"] == Json::array({"on_screen", "all"}));
  CHECK(query["properties"]["limit"]["type"] == "integer");
  CHECK(query["properties"]["limit"]["minimum"] == 1);
  CHECK(query["properties"]["limit"]["maximum"] == 1000);
  CHECK(query["properties"]["matcher"]["properties"].contains("ancestor"));
  CHECK(query["properties"]["matcher"]["properties"].contains("descendant"));
  // The row refuses strict, so the tool does not offer it.
  CHECK_FALSE(query["properties"].contains("strict"));
  CHECK_FALSE(query.contains("required"));
  const Json swipe = find_tool("swipe")->input_schema;
  CHECK(swipe["required"] == Json::array({"start", "end", "durationMs"}));
  CHECK(swipe["properties"]["durationMs"]["maximum"] == 10000);
  CHECK(swipe["properties"]["start"]["properties"]["x"]["maximum"] == 2147483647);
  const Json drag = find_tool("drag")->input_schema;
  CHECK(drag["required"] == Json::array({"start", "end", "holdDurationMs", "moveDurationMs"}));
  CHECK(drag["properties"]["moveDurationMs"]["minimum"] == 1);
}

TEST_CASE("the element tools take strict and a container selector", "[mcp][tools]") {
  for (const char* name :
       {"click", "type", "read", "wait", "scroll", "scroll_until", "scroll_and_click"}) {
    INFO(name);
    const Json properties = find_tool(name)->input_schema["properties"];
    CHECK(properties["strict"]["type"] == "boolean");
    CHECK(properties["container"]["minProperties"] == 1);
    CHECK(properties["container"]["properties"].contains("textContains"));
  }
  for (const char* name : {"press", "open", "snapshot", "swipe"}) {
    INFO(name);
    CHECK_FALSE(find_tool(name)->input_schema["properties"].contains("strict"));
  }
}

TEST_CASE("snapshot offers the compact mode's options", "[mcp][tools]") {
  const Json properties = find_tool("snapshot")->input_schema["properties"];
  CHECK(properties["compact"]["type"] == "boolean");
  CHECK(properties["maxNodes"]["minimum"] == 1);
  CHECK(properties["maxNodes"]["maximum"] == 1000);
  CHECK(properties["maxTextChars"]["maximum"] == 4096);
  CHECK(properties["saveRaw"]["type"] == "boolean");
  CHECK_FALSE(properties.contains("rawPath"));
}
