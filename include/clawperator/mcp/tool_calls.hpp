// tools/call arguments → what to do: an execution payload built the way the CLI's builders
// build it (service/actions.hpp), with MCP's ids and source, or a call that needs no
// execution, or the -32602 the arguments earn. Pure but for the id stamp the caller passes.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "clawperator/expected.hpp"
#include "clawperator/hierarchy/compact_snapshot.hpp"
#include "clawperator/json.hpp"
#include "clawperator/mcp/tools.hpp"
#include "clawperator/service/actions.hpp"

namespace clawperator::mcp {

// `configure`'s defaults, merged field by field under each call's own arguments.
struct SessionDefaults {
  std::optional<std::string> device_id;
  std::optional<std::string> operator_package;
  std::optional<double> timeout_ms;
};
Json to_json(const SessionDefaults& session);

struct ExecutionCall {
  Json payload;  // not validated yet
  std::optional<std::string> device_id;
  std::optional<std::string> operator_package;
  std::optional<long long> max_chars;  // snapshot: cut data.text
  // snapshot compact: project data.text (service/compact_snapshot.hpp); save_raw keeps
  // the XML in a new private file of the state directory first.
  std::optional<hierarchy::CompactOptions> compact;
  bool save_raw = false;
  // withText: the compact nodes gain the text read on the screen (snapshot --with-text).
  bool with_text = false;
  std::optional<long long> max_dimension;  // screenshot: scale the PNG down to fit
};

// devices, configure, doctor, explain_error: the server answers them itself.
struct LocalCall {
  ToolKind kind = ToolKind::Devices;
  Json arguments;
  std::optional<std::string> device_id;
  std::optional<std::string> operator_package;
};

struct ArgumentError {
  std::string message;
};

// What a tools/call becomes, or why its arguments are refused (-32602).
using ToolCall = std::variant<ExecutionCall, LocalCall>;
using ToolPlan = Expected<ToolCall, ArgumentError>;

// Checks `arguments` against the tool's inputSchema, then builds. `stamp` makes the ids
// ("mcp-<tool>-<ms>-<suffix>").
ToolPlan plan_tool_call(const ToolDefinition& tool, const Json& arguments,
                        const SessionDefaults& session, const service::IdStamp& stamp);

// configure: the new defaults (arguments already checked against its schema).
SessionDefaults configured(SessionDefaults session, const Json& arguments);

}  // namespace clawperator::mcp
