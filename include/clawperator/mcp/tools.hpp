// The MCP tools (docs/mcp.md): their names, input schemas, titles, descriptions and
// annotations, generated from the action table's rows (contract/action_table.hpp) plus the
// MCP argument shapes (the selector object, the common deviceId / operatorPackage /
// timeoutMs). A row that appears in the table with a tool name of ours (query_ui, swipe,
// drag) becomes a tool without further code. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/service/visual_text.hpp"
#include "clawperator/service/webview.hpp"

namespace clawperator::mcp {

enum class ToolKind {
  Devices,
  Configure,
  Snapshot,
  Execute,
  Open,
  Click,
  Type,
  Read,
  Press,
  Wait,
  Scroll,
  ScrollUntil,
  ScrollAndClick,
  Screenshot,
  Doctor,
  ExplainError,
  SkillsList,           // the skills of the registry (skills list / search)
  SkillsGet,            // one skill's entry (skills get)
  SkillsRun,            // a skill's script on a prepared device (skills run)
  RecordingStart,       // start_recording (recording start)
  RecordingStop,        // stop_recording (recording stop)
  RecordingCompile,     // a recording on the device, pulled and compiled (recording compile)
  EmulatorProvision,    // a booted emulator, reused, started or created (emulator provision)
  EvidenceCapture,      // a still-evidence bundle (evidence capture)
  EvidenceVideoStart,   // a managed video session (evidence video start)
  EvidenceVideoStatus,  // evidence video status
  EvidenceVideoStop,    // evidence video stop
  Webview,              // webview_<action>: a WebView or Chrome page through DevTools
  VisualText,           // visual_text_<action>: text drawn on the screen, read by OCR
  Row,                  // a row of the table published as it is (query_ui, swipe, drag)
};

struct ToolAnnotations {
  bool read_only = false;
  bool destructive = false;
  bool idempotent = false;
  bool open_world = false;
};

struct ToolDefinition {
  ToolKind kind = ToolKind::Row;
  std::string name;
  std::string title;
  std::string description;
  Json input_schema;
  ToolAnnotations annotations;
  // The rows this tool may send (empty: the tool does not run an execution; for execute:
  // every row a caller may send).
  std::vector<const contract::ActionSpec*> rows;
  bool runs_execution = false;
};

// Every tool, in tools/list order.
const std::vector<ToolDefinition>& tool_definitions();
const ToolDefinition* find_tool(std::string_view name);

// What MCP says of a tool that sends any of `rows`: read-only only when all are, destructive
// when any is, idempotent only when all are.
ToolAnnotations annotations_of(const std::vector<const contract::ActionSpec*>& rows);

// The tools/list entry for a negotiated protocol version: title and outputSchema only from
// 2025-06-18, annotations from 2025-03-26.
Json tool_list_entry(const ToolDefinition& tool, std::string_view protocol_version);

// The schema of the MCP selector object ({id, role, text, textContains, desc, descContains,
// ancestor, descendant}, and the payload's own names resourceId, textEquals, contentDescEquals,
// contentDescContains beside the short ones) and its translation into the payload's matcher.
Json selector_schema();
Json selector_to_matcher(const Json& selector);
// A selector (already checked against selector_schema) that names one field twice, by its
// short and its payload name: why, the problem's path `path`.<payload name>.
Expected<void, Problem> check_selector(const Json& selector, std::string_view path);

// A webview_* tool's action (its name after "webview_").
service::WebviewAction webview_action_of(const ToolDefinition& tool);

// A visual_text_* tool's action (its name after "visual_text_").
service::VisualTextAction visual_text_action_of(const ToolDefinition& tool);

// screenshot's maxDimension: the longest side a scaled screenshot may have.
inline constexpr int kMinScreenshotDimension = 64;
inline constexpr int kMaxScreenshotDimension = 4096;

// The names of the rows that become tools of their own when the table has them.
inline constexpr std::string_view kRowToolNames[] = {"query_ui", "swipe", "drag"};

}  // namespace clawperator::mcp
