#include "clawperator/recording/compile.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/recording/exact_matcher.hpp"
#include "clawperator/recording/recording_file.hpp"
#include "clawperator/recording/warnings.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

// Room left in a payload for its own keys, under the validator's 64000 bytes.
constexpr std::size_t kCompiledPayloadActionBytes = contract::limits::kMaxPayloadBytes - 1000;
constexpr std::size_t kCompiledSessionIdChars = 100;

// JavaScript's length: UTF-16 code units (the validator's limits count them).
std::size_t compile_utf16_length(std::string_view text) {
  std::size_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;
    units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

// A value a matcher field can hold: non-blank and within the validator's limit.
bool usable_matcher_value(const std::string* value) {
  return value != nullptr && !is_blank(*value) &&
         compile_utf16_length(*value) <= contract::limits::kMaxMatcherValueLength;
}

Json matcher_json(const ExactMatcher& matcher) {
  return contract::to_json(node_matcher(matcher));
}

std::string describe_matcher(const ExactMatcher& matcher) {
  return dump_json(matcher_json(matcher));
}

// A node of `nodes` that names its screen on its own: the first with a resource-id no other
// node has, else such a text, else such a content-desc.
std::optional<ExactMatcher> landmark_of(const hierarchy::Tree& nodes) {
  for (int field = 0; field < 3; ++field) {
    for (const hierarchy::Node& node : nodes.nodes) {
      ExactMatcher candidate;
      const std::string value(node.attribute(field == 0   ? "resource-id"
                                             : field == 1 ? "text"
                                                          : "content-desc"));
      if (!usable_matcher_value(&value)) continue;
      (field == 0   ? candidate.resource_id
       : field == 1 ? candidate.text
                    : candidate.content_desc) = value;
      if (count_matching_nodes(nodes, candidate) == 1) return candidate;
    }
  }
  return std::nullopt;
}

class RecordingCompiler {
 public:
  RecordingCompiler(WarningList& warnings, const CompileOptions& options)
      : warnings_(warnings), options_(options) {}

  void visit(const RecordingEvent& event) {
    where_ = "line " + std::to_string(event.line) + " (seq " + number_text(event.seq_json()) + ")";
    // The screen's nodes as this event saw them: for a click, the screen before it; for the
    // step before, the screen that step led to. Parsed only when one of the two is needed.
    std::optional<hierarchy::Tree> nodes;
    const std::string* snapshot = event.snapshot();
    if (snapshot != nullptr && (event.type == EventType::Click ||
                                event.type == EventType::WindowChange || awaiting_anchor_)) {
      auto read = hierarchy::parse(*snapshot);
      if (read) {
        nodes = std::move(*read);
      } else {
        warn("snapshot is not a readable hierarchy (" + read.error().message + "); not used");
      }
    }
    if (awaiting_anchor_ && nodes) {
      anchor_nodes_ = *nodes;
      awaiting_anchor_ = false;
    }
    switch (event.type) {
      case EventType::WindowChange:
        return window_change(event, nodes);
      case EventType::Click:
        return click(event, nodes);
      case EventType::PressKey:
        return press_back();
      case EventType::TextChange:
        return text_change(event);
      case EventType::Scroll:
        warn(
            "scroll not replayed: a scroll event names no target to scroll to, so a later step "
            "whose target needed the scroll may not find it");
        return;
    }
  }

  void finish() {
    flush_text();
    // The last screen the recording saw, when a snapshot came after the last step.
    if (!actions_.empty() && anchor_nodes_) {
      if (auto landmark = landmark_of(*anchor_nodes_)) add_wait(*landmark);
    }
  }

  std::vector<Json>& actions() { return actions_; }

 private:
  void warn(const std::string& text) { warnings_.add(where_ + ": " + text); }

  void add_action(std::string type, Json params) {
    Json action = Json::object();
    action["id"] = type + "-" + std::to_string(actions_.size() + 1);
    action["type"] = std::move(type);
    action["params"] = std::move(params);
    actions_.push_back(std::move(action));
  }

  void add_wait(const ExactMatcher& anchor) {
    Json params = Json::object();
    params["matcher"] = matcher_json(anchor);
    params["timeoutMs"] = kCompiledWaitTimeoutMs;
    add_action("wait_for_node", std::move(params));
  }

  // Before a step that follows another: wait for the screen the previous step led to, named by
  // this step's own target when that screen shows it, else by a landmark of that screen.
  void wait_before(const std::optional<ExactMatcher>& target) {
    if (actions_.empty()) return;
    if (!anchor_nodes_) {
      warn(
          "no snapshot between the previous step and this one, so the replay does not wait for "
          "the screen before it");
      return;
    }
    if (target && count_matching_nodes(*anchor_nodes_, *target) >= 1) return add_wait(*target);
    if (auto landmark = landmark_of(*anchor_nodes_)) return add_wait(*landmark);
    warn(
        "the screen before this step has no node with a unique resource-id, text or "
        "content-desc, so the replay does not wait for it");
  }

  void after_step() {
    anchor_nodes_.reset();
    awaiting_anchor_ = true;
  }

  void window_change(const RecordingEvent& event, const std::optional<hierarchy::Tree>& nodes) {
    if (nodes) focus_on_new_screen(*nodes);
    if (opened_app_) return;
    const std::string_view package = event.package_name();
    if (is_blank(package)) {
      warn("window change without a packageName; no open_app made of it");
      return;
    }
    opened_app_ = true;
    flush_text();
    Json params = Json::object();
    params["applicationId"] = std::string(package);
    if (options_.close_app_first) add_action("close_app", params);
    add_action("open_app", std::move(params));
    after_step();
  }

  void click(const RecordingEvent& event, const std::optional<hierarchy::Tree>& nodes) {
    flush_text();
    const std::string* resource_id = event.optional_string("resourceId");
    const std::string* text = event.optional_string("text");
    const std::string* content_desc = event.optional_string("contentDesc");
    std::vector<ExactMatcher> candidates;
    auto candidate = [&](const std::string* id, const std::string* label, const std::string* desc) {
      if ((id != nullptr && !usable_matcher_value(id)) ||
          (label != nullptr && !usable_matcher_value(label)) ||
          (desc != nullptr && !usable_matcher_value(desc)))
        return;
      candidates.push_back({id ? *id : "", label ? *label : "", desc ? *desc : ""});
    };
    // Most stable first: an id survives relabelling and translation, a text a layout change.
    const std::string* none = nullptr;
    if (usable_matcher_value(resource_id)) candidate(resource_id, none, none);
    if (usable_matcher_value(text)) candidate(none, text, none);
    if (usable_matcher_value(content_desc)) candidate(none, none, content_desc);
    if (usable_matcher_value(resource_id) && usable_matcher_value(text))
      candidate(resource_id, text, none);
    if (usable_matcher_value(resource_id) && usable_matcher_value(content_desc))
      candidate(resource_id, none, content_desc);
    if (usable_matcher_value(text) && usable_matcher_value(content_desc))
      candidate(none, text, content_desc);

    if (candidates.empty()) return coordinate_click(event);
    ExactMatcher chosen = candidates.front();
    bool strict = false;
    if (!nodes) {
      warn("no snapshot before the click, so whether " + describe_matcher(chosen) +
           " is unique is unknown; clicked without strict");
    } else {
      std::optional<ExactMatcher> unique;
      std::optional<std::pair<ExactMatcher, std::size_t>> present;
      for (const ExactMatcher& matcher : candidates) {
        const std::size_t count = count_matching_nodes(*nodes, matcher);
        if (count == 1) {
          unique = matcher;
          break;
        }
        if (count > 1 && !present) present = std::make_pair(matcher, count);
      }
      if (unique) {
        chosen = *unique;
        strict = true;
      } else if (present) {
        chosen = present->first;
        warn(describe_matcher(chosen) + " matches " + std::to_string(present->second) +
             " nodes in the snapshot before the click; the replay clicks the first (no strict)");
      } else {
        warn("the clicked node's " + describe_matcher(chosen) +
             " is not in the snapshot before the click; the replay may not find it");
      }
    }
    wait_before(chosen);
    Json params = Json::object();
    params["matcher"] = matcher_json(chosen);
    if (strict) params["strict"] = true;
    add_action("click", std::move(params));
    focused_ = chosen;
    after_step();
  }

  // A new screen that opens with a field focused (a search screen) takes typed text there,
  // whatever was clicked to reach it: the Operator's text_change names no field
  // (docs/recording.md, "compile"). The field is named by its resource-id (its text is what
  // changes), with its content-desc when the id alone is not unique.
  void focus_on_new_screen(const hierarchy::Tree& nodes) {
    const auto field = std::find_if(
        nodes.nodes.begin(), nodes.nodes.end(),
        [](const hierarchy::Node& node) { return node.attribute("focused") == "true"; });
    if (field == nodes.nodes.end()) return;
    flush_text();
    const std::string resource_id(field->attribute("resource-id"));
    const std::string content_desc(field->attribute("content-desc"));
    std::vector<ExactMatcher> candidates;
    if (usable_matcher_value(&resource_id)) candidates.push_back({resource_id, "", ""});
    if (usable_matcher_value(&content_desc)) {
      candidates.push_back({"", "", content_desc});
      if (!candidates.front().resource_id.empty()) {
        candidates.push_back({resource_id, "", content_desc});
      }
    }
    for (const ExactMatcher& candidate : candidates) {
      if (count_matching_nodes(nodes, candidate) == 1) {
        focused_ = candidate;
        return;
      }
    }
  }

  void coordinate_click(const RecordingEvent& event) {
    const Json& bounds = event.fields.at("bounds");
    const double left = bounds.at("left").get<double>();
    const double top = bounds.at("top").get<double>();
    const double right = bounds.at("right").get<double>();
    const double bottom = bounds.at("bottom").get<double>();
    focused_.reset();
    if (!(left >= 0 && top >= 0 && right > left && bottom > top)) {
      warn("the click has no resourceId, text, contentDesc or bounds; not replayed");
      return;
    }
    const auto x = static_cast<long long>(std::floor((left + right) / 2));
    const auto y = static_cast<long long>(std::floor((top + bottom) / 2));
    warn(
        "the click has no resourceId, text or contentDesc; replayed as a tap at the centre of "
        "its bounds (" +
        std::to_string(x) + ", " + std::to_string(y) +
        "), which holds only for the same screen size and layout");
    wait_before(std::nullopt);
    Json coordinate = Json::object();
    coordinate["x"] = x;
    coordinate["y"] = y;
    Json params = Json::object();
    params["coordinate"] = std::move(coordinate);
    add_action("click", std::move(params));
    after_step();
  }

  void press_back() {
    flush_text();
    wait_before(std::nullopt);
    Json params = Json::object();
    params["key"] = "back";
    add_action("press_key", std::move(params));
    focused_.reset();
    after_step();
  }

  void text_change(const RecordingEvent& event) {
    if (!focused_) {
      warn("text change with no clicked field before it to type into; not replayed");
      return;
    }
    // Each change carries the field's whole text: the last one of a run is what was typed.
    if (!pending_text_) screen_before_text_ = anchor_nodes_.has_value();
    pending_text_ = event.fields.at("text").get<std::string>();
    pending_where_ = where_;
  }

  void flush_text() {
    if (!pending_text_) return;
    const std::string text = std::move(*pending_text_);
    pending_text_.reset();
    const std::string saved = where_;
    where_ = pending_where_;
    if (text.empty()) {
      warn("the field was emptied; enter_text needs text, so this is not replayed");
    } else if (compile_utf16_length(text) > contract::limits::kMaxTextLength) {
      warn("the text is longer than enter_text's " +
           std::to_string(contract::limits::kMaxTextLength) + " characters; not replayed");
    } else {
      // A screen recorded between the last step and the typing (a search screen opening): the
      // replay waits for it before typing there.
      if (screen_before_text_) wait_before(*focused_);
      Json params = Json::object();
      params["matcher"] = matcher_json(*focused_);
      params["text"] = text;
      // The event holds the field's whole text: replace what is there, do not append.
      params["clear"] = true;
      add_action("enter_text", std::move(params));
    }
    where_ = saved;
  }

  WarningList& warnings_;
  const CompileOptions& options_;
  std::string where_;
  std::vector<Json> actions_;
  bool opened_app_ = false;
  bool awaiting_anchor_ = false;
  std::optional<hierarchy::Tree> anchor_nodes_;
  std::optional<ExactMatcher> focused_;
  std::optional<std::string> pending_text_;
  bool screen_before_text_ = false;
  std::string pending_where_;
};

int action_budget_ms(const Json& action) {
  return action.at("type") == "wait_for_node" ? kCompiledWaitTimeoutMs : kCompiledActionBudgetMs;
}

Json payload_shell(const std::string& command_id, const std::string& task_id, int timeout_ms) {
  Json payload = Json::object();
  payload["commandId"] = command_id;
  payload["taskId"] = task_id;
  payload["source"] = "clawperator-recording";
  payload["expectedFormat"] = "android-ui-automator";
  payload["timeoutMs"] = timeout_ms;
  payload["actions"] = Json::array();
  return payload;
}

}  // namespace

std::string compiled_command_id(const std::string& session_id) {
  std::string id = "recording-";
  for (const char c : session_id.substr(0, kCompiledSessionIdChars)) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    id += safe ? c : '_';
  }
  return id;
}

contract::Outcome<CompiledRecording> compile_recording(const std::filesystem::path& input,
                                                       const CompileOptions& options) {
  CLAWPERATOR_TRY_ASSIGN(auto file, RecordingFile::open(input));
  if (auto scanned = file.scan([](const RecordingEvent&) -> contract::Status { return {}; });
      !scanned)
    return contract::failed(std::move(scanned).error());
  WarningList warnings;
  RecordingCompiler compiler(warnings, options);
  auto visited = file.for_each_in_seq_order([&](const RecordingEvent& event) -> contract::Status {
    compiler.visit(event);
    return {};
  });
  if (!visited) return contract::failed(std::move(visited).error());
  compiler.finish();
  std::vector<Json>& actions = compiler.actions();
  if (actions.empty()) {
    return contract::failed(
        recording_error("RECORDING_PARSE_FAILED", "Recording has no replayable steps",
                        Json{{"path", input.string()}, {"warnings", warnings.to_json()}}));
  }

  // Parts within the payload's limits: actions, bytes, and the time the envelope allows.
  std::vector<std::vector<Json>> parts(1);
  std::size_t part_bytes = 0;
  int part_budget = kCompiledActionBudgetMs;
  for (Json& action : actions) {
    const std::size_t bytes = dump_json(action).size() + 1;
    const int budget = action_budget_ms(action);
    if (!parts.back().empty() &&
        (parts.back().size() == contract::limits::kMaxExecutionActions ||
         part_bytes + bytes > kCompiledPayloadActionBytes ||
         part_budget + budget > static_cast<int>(contract::limits::kMaxExecutionTimeoutMs))) {
      parts.emplace_back();
      part_bytes = 0;
      part_budget = kCompiledActionBudgetMs;
    }
    part_bytes += bytes;
    part_budget += budget;
    parts.back().push_back(std::move(action));
  }

  CompiledRecording compiled;
  compiled.session_id = file.header().session_id;
  const std::string base_id = compiled_command_id(compiled.session_id);
  for (std::size_t index = 0; index < parts.size(); ++index) {
    int timeout_ms = kCompiledActionBudgetMs;
    for (const Json& action : parts[index]) timeout_ms += action_budget_ms(action);
    timeout_ms =
        std::clamp(timeout_ms, 30000, static_cast<int>(contract::limits::kMaxExecutionTimeoutMs));
    const std::string command_id =
        parts.size() == 1 ? base_id : base_id + "-part" + std::to_string(index + 1);
    Json payload = payload_shell(command_id, base_id, timeout_ms);
    compiled.action_count += parts[index].size();
    for (Json& action : parts[index]) payload["actions"].push_back(std::move(action));
    // What compile makes must be what exec accepts; a failure here is this file's bug.
    CLAWPERATOR_TRY(contract::admit_execution(payload));
    compiled.payloads.push_back(std::move(payload));
  }
  compiled.warnings = warnings.to_json();
  compiled.warnings_omitted = warnings.omitted();
  return compiled;
}

Json to_json(const CompiledRecording& compiled) {
  Json document = Json::object();
  document["ok"] = true;
  document["sessionId"] = compiled.session_id;
  document["actionCount"] = compiled.action_count;
  document["payloadCount"] = compiled.payloads.size();
  if (compiled.payloads.size() == 1) {
    document["execution"] = compiled.payloads.front();
  } else {
    document["executions"] = compiled.payloads;
  }
  if (!compiled.warnings.empty()) {
    document["warnings"] = compiled.warnings;
    if (compiled.warnings_omitted > 0) document["warningsOmitted"] = compiled.warnings_omitted;
  }
  return document;
}

}  // namespace clawperator::recording
