// The tool list, generated from the action table: each named tool says which rows it sends and
// which of its arguments are which row params; the JSON types, enums, ranges and descriptions
// of those arguments, and the tool's title, description and annotations, come from the rows.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/emulator/request.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/hierarchy/compact_snapshot.hpp"
#include "clawperator/mcp/tools.hpp"
#include "clawperator/recording/device_recordings.hpp"
#include "clawperator/skills/remote_limits.hpp"

namespace clawperator::mcp {
namespace {

using contract::ActionSpec;
using contract::ConstraintKind;
using contract::ParamKind;

const ActionSpec& row(std::string_view name) {
  const ActionSpec* spec = contract::find_action(name);
  if (spec == nullptr) throw std::logic_error("an MCP tool names a missing action row");
  return *spec;
}

Json nonblank_string(std::string_view description) {
  Json schema = {{"type", "string"}, {"minLength", 1}, {"pattern", "\\S"}};
  if (!description.empty()) schema["description"] = std::string(description);
  return schema;
}

Json number_json(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return static_cast<long long>(value);
  return value;
}

Json predicate_schema() {
  Json properties = Json::object();
  for (const contract::MatcherFieldRow& row : contract::matcher_fields()) {
    properties[std::string(row.key)] = {{"type", "string"},
                                        {"maxLength", contract::limits::kMaxMatcherValueLength}};
  }
  return {
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
}

// The canonical NodeMatcher of docs/payload.md, for the tools that take one as it is.
Json matcher_schema(std::string_view description) {
  Json schema = predicate_schema();
  schema["properties"][std::string(contract::kAncestorKey)] = predicate_schema();
  schema["properties"][std::string(contract::kDescendantKey)] = predicate_schema();
  schema["minProperties"] = 1;
  if (!description.empty()) schema["description"] = std::string(description);
  return schema;
}

Json coordinate_schema(std::string_view description) {
  const Json axis = {{"type", "integer"}, {"minimum", 0}, {"maximum", 2147483647}};
  Json schema = {{"type", "object"},
                 {"properties", {{"x", axis}, {"y", axis}}},
                 {"required", {"x", "y"}},
                 {"additionalProperties", false}};
  if (!description.empty()) schema["description"] = std::string(description);
  return schema;
}

// One row param as an argument: its kind's JSON type, its limits, and the row's constraints
// on it (enum, range, non-blank).
Json param_property(const ActionSpec& spec, std::string_view key) {
  const contract::ParamSpec* param = spec.schema != nullptr ? spec.schema->find(key) : nullptr;
  if (param == nullptr) throw std::logic_error("an MCP argument names a param the row lacks");
  Json schema;
  switch (contract::kind_of(param->member)) {
    case ParamKind::String:
      schema = {{"type", "string"}};
      if (param->max_length > 0) schema["maxLength"] = param->max_length;
      break;
    case ParamKind::Number:
      schema = {{"type", "number"}};
      break;
    case ParamKind::Boolean:
      schema = {{"type", "boolean"}};
      break;
    case ParamKind::Object:
      schema = {{"type", "object"}};
      break;
    case ParamKind::Matcher:
      schema = matcher_schema({});
      break;
    case ParamKind::Coordinate:
      schema = coordinate_schema({});
      break;
  }
  for (const contract::ParamConstraint& constraint : spec.constraints) {
    if (constraint.key != key) continue;
    switch (constraint.kind) {
      case ConstraintKind::RequiredNotBlank:
      case ConstraintKind::NotBlankIfGiven:
        schema["minLength"] = 1;
        schema["pattern"] = "\\S";
        break;
      case ConstraintKind::RequiredNonEmpty:
        schema["minLength"] = 1;
        break;
      case ConstraintKind::DisplayText:
        schema["minLength"] = 1;
        schema["pattern"] = "\\S";
        break;
      case ConstraintKind::Color:
        schema["pattern"] = "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$";
        break;
      case ConstraintKind::Template:  // its grammar is checked by validation, not by a pattern
        break;
      case ConstraintKind::OneOfExact:
      case ConstraintKind::OneOf: {
        Json values = Json::array();
        for (std::string_view value : constraint.values) values.push_back(std::string(value));
        schema["enum"] = std::move(values);
        break;
      }
      case ConstraintKind::Range:
        if (constraint.integer) schema["type"] = "integer";
        if (!constraint.min_exclusive) schema["minimum"] = number_json(constraint.min);
        schema["maximum"] = number_json(constraint.max);
        break;
      case ConstraintKind::Required:
      case ConstraintKind::CrossFieldRule:
      case ConstraintKind::Forbidden:  // a tool never offers a key its row refuses
        break;
    }
  }
  if (!param->description.empty()) schema["description"] = std::string(param->description);
  return schema;
}

// A key the row refuses (query_ui's strict) is never offered as an argument.
bool forbidden_by(const ActionSpec& spec, std::string_view key) {
  return std::any_of(spec.constraints.begin(), spec.constraints.end(), [&](const auto& rule) {
    return rule.key == key && rule.kind == ConstraintKind::Forbidden;
  });
}

bool required_by(const ActionSpec& spec, std::string_view key) {
  return std::any_of(spec.constraints.begin(), spec.constraints.end(), [&](const auto& rule) {
    return rule.key == key && (rule.kind == ConstraintKind::Required ||
                               rule.kind == ConstraintKind::RequiredNotBlank ||
                               rule.kind == ConstraintKind::RequiredNonEmpty || rule.required);
  });
}

Json container_schema() {
  Json schema = selector_schema();
  schema["description"] = "Only elements inside this one: at least one field";
  return schema;
}

// Builds one tool's input schema: an object closed to unknown keys.
class InputSchema {
 public:
  explicit InputSchema(bool common_options = true) {
    if (!common_options) return;
    device_target();
    add("timeoutMs",
        {{"type", "integer"},
         {"minimum", number_json(contract::limits::kMinExecutionTimeoutMs)},
         {"maximum", number_json(contract::limits::kMaxExecutionTimeoutMs)},
         {"description", "The execution's timeout in milliseconds (default: the session's)"}});
  }
  // deviceId and operatorPackage: the common options without timeoutMs, for the tools whose
  // run is not one execution.
  InputSchema& device_target() {
    add("deviceId", nonblank_string("The device serial (default: the session's, then the only "
                                    "connected device)"));
    return add("operatorPackage", nonblank_string("The Operator's package (default: the "
                                                  "session's, then CLAWPERATOR_OPERATOR_PACKAGE)"));
  }
  InputSchema& add(std::string_view name, Json schema, bool required = false) {
    properties_[std::string(name)] = std::move(schema);
    if (required) required_.push_back(std::string(name));
    return *this;
  }
  // A row param under the same name, required when the row requires it.
  InputSchema& param(const ActionSpec& spec, std::string_view key) {
    return add(key, param_property(spec, key), required_by(spec, key));
  }
  // strict and container, as the element actions take them (service::with_selection).
  InputSchema& selection(const ActionSpec& spec) {
    param(spec, "strict");
    return add("container", container_schema());
  }
  InputSchema& set(std::string_view keyword, Json value) {
    extra_[std::string(keyword)] = std::move(value);
    return *this;
  }
  Json build() const {
    Json schema = {{"type", "object"}, {"properties", properties_}};
    if (!required_.empty()) schema["required"] = required_;
    schema["additionalProperties"] = false;
    for (const auto& [key, value] : extra_.items()) schema[key] = value;
    return schema;
  }

 private:
  Json properties_ = Json::object();
  Json required_ = Json::array();
  Json extra_ = Json::object();
};

// Exactly one of the named arguments (open's appId / uri, click's selector / coordinate).
Json exactly_one_of(std::initializer_list<const char*> names, const char* message) {
  Json options = Json::array();
  for (const char* name : names) options.push_back({{"required", {name}}});
  return options.empty() ? Json() : Json{{"oneOf", options}, {"description", message}};
}

ToolDefinition from_rows(ToolKind kind, std::string name, std::vector<const ActionSpec*> rows,
                         Json schema, std::string description = {}) {
  ToolDefinition tool;
  tool.kind = kind;
  tool.name = std::move(name);
  tool.title = std::string(rows.front()->title);
  tool.description = description.empty() ? std::string(rows.front()->description) : description;
  tool.input_schema = std::move(schema);
  tool.annotations = annotations_of(rows);
  tool.annotations.open_world = true;  // the phone and what its apps reach
  tool.rows = std::move(rows);
  tool.runs_execution = true;
  return tool;
}

ToolDefinition local_tool(ToolKind kind, std::string name, std::string title,
                          std::string description, Json schema, ToolAnnotations annotations) {
  ToolDefinition tool;
  tool.kind = kind;
  tool.name = std::move(name);
  tool.title = std::move(title);
  tool.description = std::move(description);
  tool.input_schema = std::move(schema);
  tool.annotations = annotations;
  return tool;
}

Json with_one_of(Json schema, const Json& rule) {
  for (const auto& [key, value] : rule.items()) schema[key] = value;
  return schema;
}

// The schema of one argument of a service's table (webview_fields, visual_text_fields): its type
// and words, no empty string, and a timeoutMs's 1..600000 (both services' bounds).
Json table_field_property(std::string_view type, std::string_view description,
                          std::string_view name) {
  Json property = {{"type", std::string(type)}, {"description", std::string(description)}};
  if (type == "string") property["minLength"] = 1;
  if (name == "timeoutMs") {
    property["minimum"] = static_cast<long long>(service::kMinWebviewTimeoutMs);
    property["maximum"] = static_cast<long long>(service::kMaxWebviewTimeoutMs);
  }
  return property;
}

// webview_list … webview_screenshot (docs/webview.md §5): their arguments from the service's one
// table; a screenshot comes back as image content, never as a host path.
void add_webview_tools(std::vector<ToolDefinition>& tools) {
  using service::WebviewAction;
  struct WebviewTool {
    WebviewAction action;
    const char* title;
    const char* description;
  };
  const std::array<WebviewTool, 7> described = {{
      {WebviewAction::List, "List WebViews",
       "The device's DevTools sockets (debuggable WebViews and Chrome), each with its app and "
       "pages: id, title, URL, type (clawperator webview list)."},
      {WebviewAction::Query, "Query a web page",
       "The elements a CSS selector matches in a WebView's page: tag, text, attributes, bounds in "
       "the page and on the screen."},
      {WebviewAction::Click, "Click in a web page",
       "Clicks the one element a CSS selector matches (the page's own handlers run). Several "
       "matches: WEBVIEW_ELEMENT_AMBIGUOUS with the candidates. Judged by the action policy."},
      {WebviewAction::Type, "Type in a web page",
       "Focuses the one element a CSS selector matches and inserts text (clear: empty it "
       "first). Judged by the action policy."},
      {WebviewAction::Eval, "Evaluate JavaScript",
       "Evaluates an expression in the page and returns its JSON value (bounded); a throw is "
       "WEBVIEW_EVALUATION_FAILED with its message."},
      {WebviewAction::Wait, "Wait in a web page",
       "Waits until a CSS selector matches (gone: until it matches nothing), up to timeoutMs."},
      {WebviewAction::Screenshot, "Screenshot a web page",
       "The page as a PNG image, rendered by the browser (not the phone's screen)."},
  }};
  for (const WebviewTool& entry : described) {
    InputSchema schema(false);
    for (const service::WebviewField& field : service::webview_fields()) {
      if (!service::takes_field(field, entry.action)) continue;
      schema.add(field.name, table_field_property(field.type, field.description, field.name),
                 field.required);
    }
    schema.device_target();
    const bool acts = entry.action == WebviewAction::Click || entry.action == WebviewAction::Type ||
                      entry.action == WebviewAction::Eval;
    tools.push_back(
        local_tool(ToolKind::Webview, "webview_" + std::string(service::to_string(entry.action)),
                   entry.title, entry.description, schema.build(), {!acts, acts, !acts, true}));
  }
}

// visual_text_query … visual_text_read (docs/visual-text.md): text drawn on the screen, found by
// OCR on the host with a selector's strict rules; arguments from the service's one table.
void add_visual_text_tools(std::vector<ToolDefinition>& tools) {
  using service::VisualTextAction;
  struct VisualTextTool {
    VisualTextAction action;
    const char* title;
    const char* description;
  };
  const std::array<VisualTextTool, 4> described = {{
      {VisualTextAction::Query, "Find text on the screen",
       "Every place the text is drawn on the screen, read by OCR from a screenshot (for text the "
       "accessibility tree lacks: Flutter, games, canvases): text, bounds, center, confidence."},
      {VisualTextAction::Click, "Tap text on the screen",
       "Taps the centre of the one place the text is drawn (OCR). Several: NODE_AMBIGUOUS with "
       "the candidates (choose with index); none: NODE_NOT_FOUND with the nearest phrases read. "
       "Judged by the action policy by the words read and the node under the point."},
      {VisualTextAction::Wait, "Wait for text on the screen",
       "Reads the screen until the text is drawn, up to timeoutMs (WAIT_TIMEOUT after)."},
      {VisualTextAction::Read, "Read a line on the screen",
       "The whole line of drawn text the words are found in (OCR), with its bounds."},
  }};
  for (const VisualTextTool& entry : described) {
    InputSchema schema(false);
    for (const service::VisualTextField& field : service::visual_text_fields()) {
      if (!service::takes_field(field, entry.action)) continue;
      Json property = table_field_property(field.type, field.description, field.name);
      if (field.name == "index") property["minimum"] = 0;
      if (field.name == "minConfidence") {
        property["minimum"] = 0;
        property["maximum"] = 100;
      }
      schema.add(field.name, std::move(property));
    }
    schema.device_target();
    const bool acts = entry.action == VisualTextAction::Click;
    tools.push_back(local_tool(
        ToolKind::VisualText, "visual_text_" + std::string(service::to_string(entry.action)),
        entry.title, entry.description,
        with_one_of(schema.build(),
                    exactly_one_of({"text", "contains"}, "give exactly one of text and contains")),
        {!acts, acts, !acts, true}));
  }
}

// The newest original's evidence tools (evidence_capture, evidence_video_*): bundles go to
// the default bundles directory, so no argument names a host path.
void add_evidence_tools(std::vector<ToolDefinition>& tools) {
  const Json label = {{"type", "string"},
                      {"maxLength", static_cast<long long>(evidence::kMaxLabelUtf16Units)},
                      {"description", "A label for the manifest (at most 2048 UTF-16 code units)"}};
  const Json context = {
      {"type", "object"},
      {"description", "A JSON object stored in the manifest (at most 16 KiB as compact JSON)"}};
  const Json session_id = {{"type", "string"},
                           {"minLength", 1},
                           {"maxLength", 64},
                           {"description", "The sessionId (a UUID) evidence_video_start returned"}};
  {
    InputSchema schema;
    schema.add("label", label);
    schema.add("context", context);
    tools.push_back(local_tool(
        ToolKind::EvidenceCapture, "evidence_capture", "Capture evidence",
        "A verifiable bundle of what the screen shows now (clawperator evidence capture): the "
        "screenshot, the UI hierarchy and the Operator's envelope, each with its size and "
        "SHA-256 in manifest.json. Returns evidenceId, status and manifestPath; an error unless "
        "the bundle is complete.",
        schema.build(), {true, false, false, false}));
  }
  {
    InputSchema schema(false);
    schema.add("durationSeconds",
               {{"type", "integer"},
                {"minimum", evidence::kMinVideoSeconds},
                {"maximum", evidence::kMaxVideoSeconds},
                {"description", "How long to record (stop ends it earlier)"}},
               true);
    schema.add("size", {{"type", "string"},
                        {"minLength", 1},
                        {"maxLength", 16},
                        {"description", "The video's WIDTHxHEIGHT, even numbers 16..4096"}});
    schema.add("label", label);
    schema.add("context", context);
    schema.add("recorder", {{"type", "string"},
                            {"enum", Json::array({"screenrecord", "scrcpy"})},
                            {"description",
                             "The device's own screenrecord (default) or scrcpy 3.0+ on the "
                             "server's host"}});
    schema.device_target();
    tools.push_back(local_tool(
        ToolKind::EvidenceVideoStart, "evidence_video_start", "Start a screen video",
        "Starts recording the device's screen in the background (clawperator evidence video "
        "start) and returns its sessionId at once. One session per device. The MP4 is pulled, "
        "checked with ffprobe and hashed into a bundle when the time is up or on "
        "evidence_video_stop.",
        schema.build(), {false, false, false, false}));
  }
  for (const auto& [kind, name, title, description] :
       {std::tuple{ToolKind::EvidenceVideoStatus, "evidence_video_status", "Video session status",
                   "The status of a video session: starting, recording, finalizing, complete, "
                   "partial or failed, with its manifest. An error unless complete."},
        std::tuple{ToolKind::EvidenceVideoStop, "evidence_video_stop", "Stop a screen video",
                   "Ends a video session now and waits up to 15 s for its bundle to be "
                   "finalised. An error unless it completed."}}) {
    InputSchema schema(false);
    schema.add("sessionId", session_id, true);
    tools.push_back(local_tool(kind, name, title, description, schema.build(),
                               {kind == ToolKind::EvidenceVideoStatus, false,
                                kind == ToolKind::EvidenceVideoStatus, false}));
  }
}

std::vector<ToolDefinition> build_tools() {
  std::vector<ToolDefinition> tools;
  const Json selector = selector_schema();

  tools.push_back(local_tool(ToolKind::Devices, "devices", "Devices",
                             "List the devices adb knows, with their state.",
                             InputSchema(false).build(), {true, false, true, false}));
  {
    InputSchema schema;
    tools.push_back(local_tool(
        ToolKind::Configure, "configure", "Configure the session",
        "Set this session's defaults (deviceId, operatorPackage, timeoutMs) for the calls that "
        "follow; a call's own arguments win. Returns the session's defaults.",
        schema.build(), {false, false, true, false}));
  }
  {
    const ActionSpec& snapshot = row("snapshot");
    InputSchema schema;
    schema.add("maxChars", {{"type", "integer"},
                            {"minimum", 1},
                            {"description",
                             "Raw mode: cut the snapshot's XML at this many characters "
                             "(truncated: true)"}});
    schema.add("compact", {{"type", "boolean"},
                           {"description",
                            "Return `compact`, a bounded JSON list of nodes, instead of the XML "
                            "(default false)"}});
    schema.add("maxNodes", {{"type", "integer"},
                            {"minimum", 1},
                            {"maximum", hierarchy::kMaxCompactNodes},
                            {"description", "Compact: most nodes returned (default 100)"}});
    schema.add("maxTextChars", {{"type", "integer"},
                                {"minimum", 1},
                                {"maximum", hierarchy::kMaxCompactTextChars},
                                {"description",
                                 "Compact: text and content-desc cut at this many characters "
                                 "(default 256)"}});
    schema.add("saveRaw", {{"type", "boolean"},
                           {"description",
                            "Compact: also keep the raw XML in a new private file in the state "
                            "directory (compact.rawArtifactPath)"}});
    schema.add("withText", {{"type", "boolean"},
                            {"description",
                             "Compact: nodes without words gain the text read on the screen by "
                             "OCR (recognisedText), for apps that draw text the tree lacks"}});
    tools.push_back(from_rows(ToolKind::Snapshot, "snapshot", {&snapshot}, schema.build()));
  }
  for (std::string_view name : kRowToolNames) {
    const ActionSpec* spec = contract::find_caller_action(name);
    if (spec == nullptr || spec->schema == nullptr) continue;
    InputSchema schema;
    for (const contract::ParamSpec& param : spec->schema->params) {
      if (!forbidden_by(*spec, param.key)) schema.param(*spec, param.key);
    }
    tools.push_back(from_rows(ToolKind::Row, std::string(name), {spec}, schema.build()));
  }
  {
    std::vector<const ActionSpec*> rows;
    Json types = Json::array();
    for (const ActionSpec& spec : contract::action_table()) {
      if (!spec.from_callers) continue;
      rows.push_back(&spec);
      types.push_back(std::string(spec.name));
    }
    const Json action = {
        {"type", "object"},
        {"properties",
         {{"id", nonblank_string("The action's id, unique in the payload; a1, a2, … when left "
                                 "out (docs/payload.md §13)")},
          {"type", {{"type", "string"}, {"description", "An action type: " + types.dump()}}},
          // An object; what it may hold depends on the type, which validation checks with
          // its own codes and paths (EXECUTION_VALIDATION_FAILED in the error's data).
          {"params",
           {{"type", "object"},
            {"additionalProperties", true},
            {"description", "The action's params (docs/payload.md)"}}}}},
        {"required", {"type"}},
        {"additionalProperties", false}};
    const Json actions = {
        {"type", "array"},
        {"minItems", 1},
        {"items", action},
        {"description", "The actions to run in order, as in an execution payload"}};
    const Json timeout = {{"type", "integer"},
                          {"minimum", number_json(contract::limits::kMinExecutionTimeoutMs)},
                          {"maximum", number_json(contract::limits::kMaxExecutionTimeoutMs)},
                          {"description",
                           "This execution's timeout in milliseconds (default: "
                           "the call's timeoutMs, else the session's)"}};
    InputSchema schema;
    schema.add("actions", actions);
    schema.add("executions",
               {{"type", "array"},
                {"minItems", 1},
                {"maxItems", contract::kMaxSequenceExecutions},
                {"items",
                 {{"type", "object"},
                  {"properties", {{"actions", actions}, {"timeoutMs", timeout}}},
                  {"required", {"actions"}},
                  {"additionalProperties", false}}},
                {"description",
                 "A sequence (docs/payload.md §12): executions run in order under one device "
                 "lock, stopping at the first that fails"}});
    ToolDefinition tool = from_rows(
        ToolKind::Execute, "execute", std::move(rows),
        with_one_of(schema.build(), exactly_one_of({"actions", "executions"},
                                                   "give exactly one of actions and executions")),
        "Run a validated payload of actions (docs/payload.md) in one execution on the device, or "
        "a sequence of them (executions) under one device lock.");
    tool.title = "Execute actions";
    tools.push_back(std::move(tool));
  }
  {
    const ActionSpec& app = row("open_app");
    const ActionSpec& uri = row("open_uri");
    InputSchema schema;
    schema.add("appId", param_property(app, "applicationId"));
    schema.add("uri", param_property(uri, "uri"));
    tools.push_back(from_rows(ToolKind::Open, "open", {&app, &uri},
                              with_one_of(schema.build(), exactly_one_of({"appId", "uri"},
                                                                         "give exactly one of "
                                                                         "appId and uri")),
                              "Open an app by its package (appId) or a URI (uri)."));
    tools.back().title = "Open app or URI";
  }
  {
    const ActionSpec& click = row("click");
    InputSchema schema;
    schema.add("selector", selector);
    schema.add("coordinate", coordinate_schema("Screen point {x, y} in pixels"));
    schema.add("clickType", {{"type", "string"},
                             {"enum", {"default", "long_click", "focus"}},
                             {"description", "default, long_click or focus"}});
    schema.selection(click);  // refused with a coordinate, by the payload's click rule
    tools.push_back(
        from_rows(ToolKind::Click, "click", {&click},
                  with_one_of(schema.build(), exactly_one_of({"selector", "coordinate"},
                                                             "give exactly one of selector and "
                                                             "coordinate"))));
  }
  {
    const ActionSpec& type = row("enter_text");
    InputSchema schema;
    schema.add("selector", selector, true);
    schema.add("text", param_property(type, "text"), true);
    schema.param(type, "submit").param(type, "clear").selection(type);
    tools.push_back(from_rows(ToolKind::Type, "type", {&type}, schema.build()));
  }
  {
    const ActionSpec& read = row("read_text");
    InputSchema schema;
    schema.add("selector", selector, true);
    schema.selection(read).param(read, "all");
    schema.add(
        "validator",
        {{"type", "string"}, {"enum", {"regex"}}, {"description", "regex: check the text read"}});
    schema.param(read, "validatorPattern");
    tools.push_back(from_rows(ToolKind::Read, "read", {&read}, schema.build()));
  }
  {
    const ActionSpec& press = row("press_key");
    InputSchema schema;
    schema.add("key", param_property(press, "key"), true);
    tools.push_back(from_rows(ToolKind::Press, "press", {&press}, schema.build()));
  }
  {
    const ActionSpec& wait = row("wait_for_node");
    InputSchema schema;
    schema.add("selector", selector, true);
    // Here the wait itself; the execution gets 5 s more, as `clawperator wait` does.
    schema.add("timeoutMs", {{"type", "integer"},
                             {"minimum", number_json(contract::limits::kMinExecutionTimeoutMs)},
                             {"maximum", number_json(contract::limits::kMaxExecutionTimeoutMs)},
                             {"description", "How long to wait for the element, in milliseconds"}});
    schema.selection(wait);
    tools.push_back(from_rows(ToolKind::Wait, "wait", {&wait}, schema.build()));
  }
  {
    const ActionSpec& scroll = row("scroll");
    InputSchema schema;
    schema.add("direction", param_property(scroll, "direction"), true);
    schema.selection(scroll);
    tools.push_back(from_rows(ToolKind::Scroll, "scroll", {&scroll}, schema.build()));
  }
  for (const bool click_after : {false, true}) {
    const ActionSpec& until = row(click_after ? "scroll_and_click" : "scroll_until");
    const ActionSpec& other = row(click_after ? "scroll_until" : "scroll_and_click");
    InputSchema schema;
    schema.add("selector", selector, true);
    schema.add("direction", param_property(row("scroll_until"), "direction"), true);
    schema.selection(until);
    schema.add("clickAfter",
               {{"type", "boolean"},
                {"description", click_after ? "Click the element once found (default true)"
                                            : "Click the element once found (default false)"}});
    tools.push_back(from_rows(click_after ? ToolKind::ScrollAndClick : ToolKind::ScrollUntil,
                              click_after ? "scroll_and_click" : "scroll_until", {&until, &other},
                              schema.build(), std::string(until.description)));
    tools.back().title = std::string(until.title);
  }
  {
    const ActionSpec& shot = row("take_screenshot");
    InputSchema schema;
    schema.add("maxDimension",
               {{"type", "integer"},
                {"minimum", kMinScreenshotDimension},
                {"maximum", kMaxScreenshotDimension},
                {"description",
                 "Scale the PNG down (aspect ratio kept, never up) so that its longer side is "
                 "at most this many pixels; `image` then gives both sizes (default: the "
                 "device's PNG as it is)"}});
    tools.push_back(from_rows(ToolKind::Screenshot, "screenshot", {&shot}, schema.build(),
                              "Capture the screen; the PNG comes back as MCP image content, "
                              "scaled down to maxDimension when given."));
  }
  {
    InputSchema schema;
    schema.add("full",
               {{"type", "boolean"}, {"description", "Also run a smoke execution on the device"}});
    tools.push_back(local_tool(
        ToolKind::Doctor, "doctor", "Doctor",
        "Check adb, the device, the Operator and its readiness, as `clawperator doctor` does.",
        schema.build(), {true, false, true, true}));
  }
  {
    InputSchema schema(false);
    schema.add("code", nonblank_string("An error code, e.g. NODE_NOT_FOUND"), true);
    tools.push_back(local_tool(
        ToolKind::ExplainError, "explain_error", "Explain an error code",
        "One row of the error catalog: meaning, disposition (may the request be retried) and "
        "recovery.",
        schema.build(), {true, false, true, false}));
  }
  {
    InputSchema schema(false);
    schema.add("app", nonblank_string("Only the skills of this application id"));
    schema.add("intent", nonblank_string("Only the skills with this intent"));
    schema.add("keyword",
               nonblank_string("Only the skills whose id, summary or application id holds this "
                               "text (any case)"));
    tools.push_back(local_tool(
        ToolKind::SkillsList, "skills_list", "List skills",
        "The skills of the registry (docs/skills.md), each with its id, application id, intent, "
        "summary, scripts and artifacts; filtered when app, intent or keyword is given.",
        schema.build(), {true, false, true, false}));
  }
  {
    InputSchema schema(false);
    schema.add("skillId", nonblank_string("The skill's id, as skills_list gives it"), true);
    tools.push_back(local_tool(ToolKind::SkillsGet, "skills_get", "Get a skill",
                               "One skill's registry entry; SKILL_NOT_FOUND when there is none.",
                               schema.build(), {true, false, true, false}));
  }
  {
    InputSchema schema(false);
    schema.add("skillId", nonblank_string("The skill's id, as skills_list gives it"), true);
    schema.add("args",
               {{"type", "array"},
                {"items", {{"type", "string"}, {"maxLength", skills::kMaxRemoteSkillArgBytes}}},
                {"maxItems", skills::kMaxRemoteSkillArgs},
                {"description", "The script's arguments, verbatim"}});
    schema.add("expectContains", {{"type", "string"},
                                  {"minLength", 1},
                                  {"maxLength", skills::kMaxRemoteSkillArgBytes},
                                  {"description",
                                   "Fail (SKILL_OUTPUT_ASSERTION_FAILED) unless the script's "
                                   "stdout contains this text"}});
    schema.add("skipValidate",
               {{"type", "boolean"}, {"description", "Skip the dry-run validation of the skill"}});
    schema.add("deviceId", nonblank_string("The device serial (default: the session's, then the "
                                           "only connected device)"));
    schema.add("operatorPackage", nonblank_string("The Operator's package (default: the "
                                                  "session's, then CLAWPERATOR_OPERATOR_PACKAGE)"));
    schema.add("timeoutMs", {{"type", "integer"},
                             {"minimum", 1},
                             {"maximum", skills::kMaxRemoteSkillTimeoutMs},
                             {"description",
                              "The script's deadline in milliseconds (default "
                              "120000; the session's timeoutMs does not apply)"}});
    tools.push_back(local_tool(
        ToolKind::SkillsRun, "skills_run", "Run a skill",
        "Runs a skill's script (clawperator skills run) on a device made ready and locked for it, "
        "under a deadline; the result has the script's exit code, its output (bounded) and "
        "skillResult when the script printed a [Clawperator-Skill-Result] line. The script may "
        "do anything on the device: read the disposition before running it again.",
        schema.build(), {false, true, false, true}));
  }
  for (const auto& [kind, name, row_name] :
       {std::tuple{ToolKind::RecordingStart, "recording_start", "start_recording"},
        std::tuple{ToolKind::RecordingStop, "recording_stop", "stop_recording"}}) {
    InputSchema schema;
    schema.add("sessionId", {{"type", "string"},
                             {"minLength", 1},
                             {"maxLength", recording::kMaxSessionIdLength},
                             {"pattern", "^[A-Za-z0-9_-]+$"},
                             {"description",
                              kind == ToolKind::RecordingStart
                                  ? "The session id (default: the Operator makes record-<ms>-<hex>)"
                                  : "The session to stop (the active one is stopped either way)"}});
    tools.push_back(from_rows(kind, name, {&row(row_name)}, schema.build()));
  }
  {
    InputSchema schema(false);
    schema.add("sessionId", {{"type", "string"},
                             {"minLength", 1},
                             {"maxLength", recording::kMaxSessionIdLength},
                             {"pattern", "^[A-Za-z0-9_-]+$"},
                             {"description",
                              "The recording to compile (default: the device's latest, the "
                              "last one stopped)"}});
    schema.add("closeAppFirst", {{"type", "boolean"},
                                 {"description",
                                  "Close the app before opening it, so the replay starts from "
                                  "its launch screen (default false)"}});
    schema.device_target();
    tools.push_back(local_tool(
        ToolKind::RecordingCompile, "recording_compile", "Compile a recording",
        "Pulls a recording from the device and compiles it into the execution payload that "
        "replays it (clawperator recording compile): `execution` (or `executions` when it had "
        "to be split) to pass to execute, and `warnings` for every step that could not be made "
        "reliable. Nothing is kept on the host.",
        schema.build(), {true, false, true, true}));
  }
  {
    InputSchema schema(false);
    schema.add("api", {{"type", "integer"},
                       {"minimum", emulator::kMinApiLevel},
                       {"maximum", emulator::kMaxApiLevel},
                       {"description", "The image's API level (default 35)"}});
    schema.add("target",
               {{"type", "string"},
                {"enum", Json::array({"google_apis_playstore", "google_apis", "default"})},
                {"description", "The image's tag (default google_apis_playstore)"}});
    schema.add("abi", {{"type", "string"},
                       {"enum", Json::array({"x86_64", "arm64-v8a"})},
                       {"description", "The image's ABI (default: the host's)"}});
    schema.add("profile", {{"type", "string"},
                           {"minLength", 1},
                           {"maxLength", 128},
                           {"pattern", "^[A-Za-z0-9_-]+$"},
                           {"description", "The device profile (default pixel_7)"}});
    schema.add("headless", {{"type", "boolean"},
                            {"description",
                             "No window, no audio, software rendering (default "
                             "false)"}});
    schema.add("wipe", {{"type", "boolean"},
                        {"description", "Start from wiped user data (default false)"}});
    schema.add("keepAnimations", {{"type", "boolean"},
                                  {"description",
                                   "Leave the animation scales as they are "
                                   "(default: set to 0)"}});
    schema.add("bootTimeoutMs", {{"type", "integer"},
                                 {"minimum", emulator::kMinBootTimeoutMs},
                                 {"maximum", emulator::kMaxBootTimeoutMs},
                                 {"description",
                                  "How long a start may take, adb registration "
                                  "included (default 180000)"}});
    tools.push_back(local_tool(
        ToolKind::EmulatorProvision, "emulator_provision", "Provision an emulator",
        "A booted Android emulator of the image asked for (clawperator emulator provision): a "
        "running one that fits is reused, else a configured AVD that fits is started, else "
        "clawperator-pixel is created and started. Returns its serial (pass it as deviceId) and "
        "`action`: reused, started or created. Needs the Android SDK on the server's host; a "
        "boot can take minutes.",
        schema.build(), {false, false, true, false}));
  }
  add_evidence_tools(tools);
  add_webview_tools(tools);
  add_visual_text_tools(tools);
  return tools;
}

}  // namespace

ToolAnnotations annotations_of(const std::vector<const contract::ActionSpec*>& rows) {
  ToolAnnotations annotations;
  annotations.read_only = !rows.empty();
  annotations.idempotent = !rows.empty();
  for (const ActionSpec* spec : rows) {
    annotations.read_only = annotations.read_only && spec->read_only;
    annotations.destructive = annotations.destructive || (!spec->read_only && spec->destructive);
    annotations.idempotent = annotations.idempotent && spec->idempotent;
  }
  return annotations;
}

const std::vector<ToolDefinition>& tool_definitions() {
  static const std::vector<ToolDefinition> tools = build_tools();
  return tools;
}

service::WebviewAction webview_action_of(const ToolDefinition& tool) {
  constexpr std::string_view kPrefix = "webview_";
  return service::parse_webview_action(std::string_view(tool.name).substr(kPrefix.size()))
      .value_or(service::WebviewAction::List);
}

service::VisualTextAction visual_text_action_of(const ToolDefinition& tool) {
  constexpr std::string_view kPrefix = "visual_text_";
  return service::parse_visual_text_action(std::string_view(tool.name).substr(kPrefix.size()))
      .value_or(service::VisualTextAction::Query);
}

const ToolDefinition* find_tool(std::string_view name) {
  for (const ToolDefinition& tool : tool_definitions()) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

Json selector_schema() {
  Json properties = Json::object();
  // The selector's short keys and the payload's own (docs/payload.md "Matchers"), which an
  // agent that learned the payload writes: both are accepted, one of a pair at a time.
  for (const contract::MatcherFieldRow& row : contract::matcher_fields()) {
    Json schema = nonblank_string(row.selector_help);
    schema["maxLength"] = contract::limits::kMaxMatcherValueLength;
    properties[std::string(row.short_key)] = schema;
    if (row.short_key != row.key) {
      schema["description"] = "the same as " + std::string(row.short_key);
      properties[std::string(row.key)] = std::move(schema);
    }
  }
  properties[std::string(contract::kAncestorKey)] = predicate_schema();
  properties[std::string(contract::kDescendantKey)] = predicate_schema();
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"additionalProperties", false},
          {"minProperties", 1},
          {"description", "The element: at least one field"}};
}

Expected<void, Problem> check_selector(const Json& selector, std::string_view path) {
  for (const contract::MatcherFieldRow& row : contract::matcher_fields()) {
    if (row.short_key != row.key && selector.contains(row.short_key) &&
        selector.contains(row.key)) {
      return Unexpected(Problem{
          std::string(path) + "." + std::string(row.key),
          "give " + std::string(row.short_key) + " or " + std::string(row.key) + ", not both"});
    }
  }
  return {};
}

Json selector_to_matcher(const Json& selector) {
  Json matcher = Json::object();
  // In the caller's order: the payload keeps it (docs/payload.md "Matchers").
  for (const auto& [key, value] : selector.items()) {
    if (key == contract::kAncestorKey || key == contract::kDescendantKey) {
      matcher[key] = value;
      continue;
    }
    for (const contract::MatcherFieldRow& row : contract::matcher_fields()) {
      if (key == row.short_key || key == row.key) matcher[std::string(row.key)] = value;
    }
  }
  return matcher;
}

Json tool_list_entry(const ToolDefinition& tool, std::string_view protocol_version) {
  Json entry = Json::object();
  entry["name"] = tool.name;
  const bool titled = protocol_version >= "2025-06-18";
  if (titled) entry["title"] = tool.title;
  entry["description"] = tool.description;
  entry["inputSchema"] = tool.input_schema;
  if (titled) {
    entry["outputSchema"] = {{"type", "object"},
                             {"properties",
                              {{"ok", {{"type", "boolean"}}},
                               {"disposition", {{"type", "object"}}},
                               {"code", {{"type", "string"}}}}}};
  }
  if (protocol_version >= "2025-03-26") {
    Json annotations = Json::object();
    if (!titled) annotations["title"] = tool.title;
    annotations["readOnlyHint"] = tool.annotations.read_only;
    annotations["destructiveHint"] = tool.annotations.destructive;
    annotations["idempotentHint"] = tool.annotations.idempotent;
    annotations["openWorldHint"] = tool.annotations.open_world;
    entry["annotations"] = std::move(annotations);
  }
  return entry;
}

}  // namespace clawperator::mcp
