#include "clawperator/mcp/tool_calls.hpp"

#include <algorithm>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/caller_paths.hpp"
#include "clawperator/mcp/schema_check.hpp"
#include "clawperator/service/evidence.hpp"
#include "clawperator/text.hpp"

namespace clawperator::mcp {
namespace {

std::optional<std::string> string_argument(const Json& arguments, const char* key) {
  const auto found = arguments.find(key);
  if (found == arguments.end() || !found->is_string()) return std::nullopt;
  return std::string(trim(found->get<std::string>()));
}

bool flag(const Json& arguments, const char* key, bool fallback = false) {
  const auto found = arguments.find(key);
  return found != arguments.end() && found->is_boolean() ? found->get<bool>() : fallback;
}

std::optional<long long> integer_argument(const Json& arguments, const char* key) {
  const auto found = arguments.find(key);
  if (found == arguments.end() || !found->is_number()) return std::nullopt;
  return found->get<long long>();
}

service::Coordinate point_argument(const Json& arguments, const char* key) {
  const Json& point = arguments.at(key);
  return service::Coordinate{point.at("x").get<long long>(), point.at("y").get<long long>()};
}

std::optional<Json> selector_argument(const Json& arguments, const char* key) {
  const auto found = arguments.find(key);
  if (found == arguments.end()) return std::nullopt;
  return selector_to_matcher(*found);
}

// MCP's ids and source (the original's createMcpExecutionIds): the builders' shape stays.
Json with_mcp_metadata(Json payload, const std::string& tool, const service::IdStamp& stamp) {
  const std::string id = service::stamped_id("mcp-" + tool, stamp);
  payload["commandId"] = id;
  payload["taskId"] = id;
  payload["source"] = "mcp";
  return payload;
}

// The execute tool's actions, as the caller wrote them: the check `serve` makes too.
Expected<void, Problem> check_screenshot_paths(const Json& actions) {
  const auto issue = contract::find_caller_host_path(actions);
  if (!issue) return {};
  return Unexpected(Problem{
      issue->path, "execute does not allow caller-controlled take_screenshot paths over MCP"});
}

// The execute tool's payload (and a row tool's): ids and timeout come from with_mcp_metadata.
Json generic_payload(Json actions) {
  Json payload = Json::object();
  payload["commandId"] = "";
  payload["taskId"] = "";
  payload["source"] = "mcp";
  payload["expectedFormat"] = "android-ui-automator";
  payload["timeoutMs"] = 30000;
  payload["actions"] = std::move(actions);
  return payload;
}

// query_ui, swipe and drag as `clawperator query`, `swipe` and `drag` build them; a row tool
// the CLI has no builder for sends the row with the arguments (but the common options) as
// its params.
Json row_payload(const ToolDefinition& tool, const Json& a, const service::IdStamp& stamp) {
  switch (tool.rows.front()->type) {
    case contract::ActionType::QueryUi: {
      service::QueryRequest request;
      if (a.contains("matcher")) request.matcher = a["matcher"];
      request.visibility = string_argument(a, "visibility");
      request.limit = integer_argument(a, "limit");
      return service::build_query(stamp, request);
    }
    case contract::ActionType::Swipe:
      return service::build_swipe(stamp, point_argument(a, "start"), point_argument(a, "end"),
                                  *integer_argument(a, "durationMs"), std::nullopt);
    case contract::ActionType::Drag: {
      service::DragRequest request;
      request.start = point_argument(a, "start");
      request.end = point_argument(a, "end");
      request.hold_duration_ms = *integer_argument(a, "holdDurationMs");
      request.move_duration_ms = *integer_argument(a, "moveDurationMs");
      return service::build_drag(stamp, request, std::nullopt);
    }
    default:
      break;
  }
  Json params = Json::object();
  for (const auto& [key, value] : a.items()) {
    if (key != "deviceId" && key != "operatorPackage" && key != "timeoutMs") params[key] = value;
  }
  return generic_payload(
      Json::array({{{"id", "a1"}, {"type", tool.name}, {"params", std::move(params)}}}));
}

// The element tools' strict and container (service::with_selection); the payload's rules refuse
// them where they do not apply (a coordinate click).
bool takes_selection(ToolKind kind) {
  switch (kind) {
    case ToolKind::Click:
    case ToolKind::Type:
    case ToolKind::Read:
    case ToolKind::Wait:
    case ToolKind::Scroll:
    case ToolKind::ScrollUntil:
    case ToolKind::ScrollAndClick:
      return true;
    default:
      return false;
  }
}

// snapshot's mode rules, which its flat schema cannot say: maxChars is raw mode's, maxNodes,
// maxTextChars and saveRaw are compact mode's.
Expected<void, Problem> check_snapshot_modes(const Json& a) {
  const bool compact = flag(a, "compact");
  if (compact && a.contains("maxChars")) {
    return Unexpected(Problem{"maxChars", "maxChars cannot be combined with compact"});
  }
  for (const char* key : {"maxNodes", "maxTextChars", "saveRaw", "withText"}) {
    if (!compact && a.contains(key)) {
      return Unexpected(Problem{key, std::string(key) + " requires compact: true"});
    }
  }
  return {};
}

Json build_payload(const ToolDefinition& tool, const Json& a, const service::IdStamp& stamp) {
  switch (tool.kind) {
    case ToolKind::Snapshot:
      return service::build_snapshot(stamp);
    case ToolKind::Screenshot:
      return service::build_screenshot(stamp, std::nullopt, std::nullopt);
    case ToolKind::Open: {
      const bool app = a.contains("appId");
      const std::string target = *string_argument(a, app ? "appId" : "uri");
      Json payload = service::build_open(stamp, target);
      // build_open picks by the target's look; here the caller said which it is.
      Json& action = payload["actions"][0];
      action["type"] = app ? "open_app" : "open_uri";
      action["params"] = app ? Json{{"applicationId", target}} : Json{{"uri", target}};
      return payload;
    }
    case ToolKind::Click: {
      std::optional<service::Coordinate> point;
      if (a.contains("coordinate")) point = point_argument(a, "coordinate");
      const std::string type = string_argument(a, "clickType").value_or("default");
      return service::build_click(stamp, selector_argument(a, "selector"), point,
                                  type == "long_click" ? service::ClickType::LongClick
                                  : type == "focus"    ? service::ClickType::Focus
                                                       : service::ClickType::Default);
    }
    case ToolKind::Type:
      return service::build_type(stamp, *selector_argument(a, "selector"),
                                 a["text"].get<std::string>(), flag(a, "submit"), flag(a, "clear"));
    case ToolKind::Read: {
      Json payload = service::build_read(stamp, *selector_argument(a, "selector"),
                                         selector_argument(a, "container"), flag(a, "all"));
      Json& params = payload["actions"][0]["params"];
      if (a.contains("validator")) params["validator"] = a["validator"];
      if (a.contains("validatorPattern")) params["validatorPattern"] = a["validatorPattern"];
      return payload;
    }
    case ToolKind::Press:
      return service::build_press_key(stamp, *string_argument(a, "key"));
    case ToolKind::Wait: {
      std::optional<double> wait_ms;
      if (a.contains("timeoutMs")) wait_ms = a["timeoutMs"].get<double>();
      return service::build_wait(stamp, *selector_argument(a, "selector"), wait_ms);
    }
    case ToolKind::Scroll:
      return service::build_scroll(stamp, *string_argument(a, "direction"),
                                   selector_argument(a, "container"), std::nullopt);
    case ToolKind::ScrollUntil:
    case ToolKind::ScrollAndClick: {
      service::ScrollUntilRequest request;
      request.direction = *string_argument(a, "direction");
      request.matcher = *selector_argument(a, "selector");
      request.container = selector_argument(a, "container");
      request.click_after = flag(a, "clickAfter", tool.kind == ToolKind::ScrollAndClick);
      return service::build_scroll_until(stamp, request);
    }
    case ToolKind::RecordingStart:
    case ToolKind::RecordingStop:
      return service::build_recording_control(stamp,
                                              tool.kind == ToolKind::RecordingStart
                                                  ? service::RecordingControl::Start
                                                  : service::RecordingControl::Stop,
                                              string_argument(a, "sessionId"));
    case ToolKind::Execute:
      return generic_payload(a["actions"]);
    case ToolKind::Row:
      return row_payload(tool, a, stamp);
    case ToolKind::Devices:
    case ToolKind::Configure:
    case ToolKind::Doctor:
    case ToolKind::ExplainError:
    case ToolKind::SkillsList:
    case ToolKind::SkillsGet:
    case ToolKind::SkillsRun:
    case ToolKind::RecordingCompile:
    case ToolKind::EmulatorProvision:
    case ToolKind::EvidenceCapture:
    case ToolKind::EvidenceVideoStart:
    case ToolKind::EvidenceVideoStatus:
    case ToolKind::EvidenceVideoStop:
    case ToolKind::Webview:
    case ToolKind::VisualText:
      break;
  }
  return Json::object();
}

Unexpected<ArgumentError> argument_error(std::string message) {
  return {ArgumentError{std::move(message)}};
}

// MCP's wording of a problem: "<message> (path: a.b)", the message alone without a path.
Unexpected<ArgumentError> argument_error(const Problem& problem) {
  if (problem.path.empty()) return argument_error(problem.message);
  return argument_error(problem.message + " (path: " + problem.path + ")");
}

// execute with `executions` (docs/payload.md §12): each one execute's payload with the call's
// ids and its number ("-1", "-2" …: a sequence's command ids are distinct), its own timeoutMs,
// else the call's or the session's.
ToolPlan sequence_call(const Json& arguments, const SessionDefaults& merged,
                       const service::IdStamp& stamp) {
  const Json& items = arguments["executions"];
  Json executions = Json::array();
  for (std::size_t index = 0; index < items.size(); ++index) {
    const Json& item = items[index];
    if (auto checked = check_screenshot_paths(item["actions"]); !checked) {
      Problem problem = checked.error();
      problem.path = "executions." + std::to_string(index) + "." + problem.path;
      return argument_error(problem);
    }
    Json payload = with_mcp_metadata(generic_payload(item["actions"]), "execute", stamp);
    payload["commandId"] =
        payload["commandId"].get<std::string>() + "-" + std::to_string(index + 1);
    if (item.contains("timeoutMs")) {
      payload["timeoutMs"] = item["timeoutMs"];
    } else if (merged.timeout_ms) {
      payload["timeoutMs"] = service::milliseconds_json(*merged.timeout_ms);
    }
    executions.push_back(std::move(payload));
  }
  ExecutionCall call;
  call.payload = Json{{"executions", std::move(executions)}};
  call.device_id = merged.device_id;
  call.operator_package = merged.operator_package;
  return ToolCall{std::move(call)};
}

}  // namespace

Json to_json(const SessionDefaults& session) {
  Json out = Json::object();
  if (session.device_id) out["deviceId"] = *session.device_id;
  if (session.operator_package) out["operatorPackage"] = *session.operator_package;
  if (session.timeout_ms) out["timeoutMs"] = service::milliseconds_json(*session.timeout_ms);
  return out;
}

SessionDefaults configured(SessionDefaults session, const Json& arguments) {
  if (auto device = string_argument(arguments, "deviceId")) session.device_id = std::move(device);
  if (auto package = string_argument(arguments, "operatorPackage")) {
    session.operator_package = std::move(package);
  }
  if (arguments.contains("timeoutMs")) session.timeout_ms = arguments["timeoutMs"].get<double>();
  return session;
}

ToolPlan plan_tool_call(const ToolDefinition& tool, const Json& arguments,
                        const SessionDefaults& session, const service::IdStamp& stamp) {
  if (auto checked = check_against_schema(tool.input_schema, arguments); !checked) {
    return argument_error(checked.error());
  }
  const SessionDefaults merged = configured(session, arguments);
  if (tool.kind == ToolKind::EvidenceCapture || tool.kind == ToolKind::EvidenceVideoStart) {
    // What a schema cannot say (UTF-16 length, the context's size as JSON text), by the readers
    // every front end uses.
    const auto problem = [](const contract::HostError& error) {
      return argument_error(error.message + " (path: " + error.details.value("field", "") + ")");
    };
    if (tool.kind == ToolKind::EvidenceCapture) {
      if (auto read = service::read_capture_arguments(arguments); !read) {
        return problem(read.error());
      }
    } else if (auto read = service::read_video_start_arguments(arguments); !read) {
      return problem(read.error());
    }
  }
  if (tool.kind == ToolKind::Webview) {
    // What a schema cannot say (a blank selector, both page choices), by the reader every front
    // end uses.
    if (auto read = service::read_webview_arguments(webview_action_of(tool), arguments); !read) {
      return argument_error(Problem{read.error().details.value("field", ""), read.error().message});
    }
  }
  if (tool.kind == ToolKind::VisualText) {
    if (auto read = service::read_visual_text_arguments(visual_text_action_of(tool), arguments);
        !read) {
      return argument_error(Problem{read.error().details.value("field", ""), read.error().message});
    }
  }
  if (!tool.runs_execution) {
    return ToolCall{LocalCall{tool.kind, arguments, merged.device_id, merged.operator_package}};
  }
  if (tool.kind == ToolKind::Execute && arguments.contains("executions")) {
    return sequence_call(arguments, merged, stamp);
  }
  if (tool.kind == ToolKind::Execute) {
    if (auto checked = check_screenshot_paths(arguments["actions"]); !checked) {
      return argument_error(checked.error());
    }
  }
  if (tool.kind == ToolKind::Read && arguments.value("validator", "") == "regex" &&
      !arguments.contains("validatorPattern")) {
    return argument_error(
        Problem{"validatorPattern", "validatorPattern is required with validator regex"});
  }
  if (tool.kind == ToolKind::Snapshot) {
    if (auto checked = check_snapshot_modes(arguments); !checked) {
      return argument_error(checked.error());
    }
  }
  for (const char* key : {"selector", "container"}) {
    if (const auto found = arguments.find(key); found != arguments.end()) {
      if (auto checked = check_selector(*found, key); !checked) {
        return argument_error(checked.error());
      }
    }
  }
  ExecutionCall call;
  Json payload = build_payload(tool, arguments, stamp);
  if (takes_selection(tool.kind)) {
    payload = service::with_selection(std::move(payload), flag(arguments, "strict"),
                                      selector_argument(arguments, "container"));
  }
  call.payload = with_mcp_metadata(std::move(payload), tool.name, stamp);
  // wait's timeoutMs is the wait; its execution's timeout follows from it (the builder).
  if (tool.kind != ToolKind::Wait && merged.timeout_ms) {
    call.payload["timeoutMs"] = service::milliseconds_json(*merged.timeout_ms);
  }
  call.device_id = merged.device_id;
  call.operator_package = merged.operator_package;
  if (tool.kind == ToolKind::Snapshot && arguments.contains("maxChars")) {
    call.max_chars = arguments["maxChars"].get<long long>();
  }
  if (tool.kind == ToolKind::Screenshot) {
    call.max_dimension = integer_argument(arguments, "maxDimension");
  }
  if (tool.kind == ToolKind::Snapshot && flag(arguments, "compact")) {
    hierarchy::CompactOptions compact;
    compact.max_nodes =
        static_cast<int>(integer_argument(arguments, "maxNodes").value_or(compact.max_nodes));
    compact.max_text_chars = static_cast<int>(
        integer_argument(arguments, "maxTextChars").value_or(compact.max_text_chars));
    call.compact = compact;
    call.save_raw = flag(arguments, "saveRaw");
    call.with_text = flag(arguments, "withText");
  }
  return ToolCall{std::move(call)};
}

}  // namespace clawperator::mcp
