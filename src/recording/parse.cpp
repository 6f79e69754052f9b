#include "clawperator/recording/parse.hpp"

#include "clawperator/recording/recording_file.hpp"
#include "clawperator/recording/streamed_file.hpp"
#include "clawperator/recording/warnings.hpp"
#include "pretty_stream.hpp"

namespace clawperator::recording {
namespace {

// The event's snapshot as the original copied it (`snapshot ?? null`): never type-checked.
Json ui_state_before(const RecordingEvent& event) {
  const auto found = event.fields.find("snapshot");
  if (found == event.fields.end()) return nullptr;
  return *found;
}

Json open_app_step(const RecordingEvent& event) {
  Json step = Json::object();
  step["seq"] = event.seq_json();
  step["type"] = "open_app";
  step["packageName"] = event.fields.at("packageName");
  step["uiStateBefore"] = ui_state_before(event);
  return step;
}

Json click_step(const RecordingEvent& event) {
  Json step = Json::object();
  step["seq"] = event.seq_json();
  step["type"] = "click";
  for (const char* key : {"packageName", "resourceId", "text", "contentDesc", "bounds"}) {
    step[key] = event.fields.at(key);
  }
  step["uiStateBefore"] = ui_state_before(event);
  return step;
}

bool parse_snapshot_missing(const RecordingEvent& event) {
  const auto found = event.fields.find("snapshot");
  return found == event.fields.end() || found->is_null();
}

// A JavaScript truthy string: present and non-empty.
const std::string* parse_truthy_string(const Json& step, const char* key) {
  const auto found = step.find(key);
  if (found == step.end() || !found->is_string() || found->get_ref<const std::string&>().empty())
    return nullptr;
  return &found->get_ref<const std::string&>();
}

}  // namespace

std::filesystem::path default_steps_path(const std::filesystem::path& input) {
  return path_beside_recording(input, ".steps.json");
}

std::string step_summary_line(const Json& step) {
  const std::string type = step.value("type", "");
  std::string line = "[" + number_text(step.at("seq")) + "] " + type;
  if (type.size() < 10) line.append(10 - type.size(), ' ');
  line += ' ';
  if (type == "open_app") {
    line += step.value("packageName", "");
    return line;
  }
  std::string details;
  auto append = [&](const std::string& part) {
    if (!details.empty()) details += ' ';
    details += part;
  };
  if (const auto* text = parse_truthy_string(step, "text")) append("text=\"" + *text + "\"");
  if (const auto* id = parse_truthy_string(step, "resourceId")) append("resourceId=" + *id);
  if (const auto* desc = parse_truthy_string(step, "contentDesc"))
    append("contentDesc=\"" + *desc + "\"");
  line += details.empty() ? std::string("(no selector)") : details;
  return line;
}

contract::Outcome<Json> parse_recording(const ParseOptions& options) {
  const std::filesystem::path output =
      options.output ? *options.output : default_steps_path(options.input);
  CLAWPERATOR_TRY_ASSIGN(auto file, RecordingFile::open(options.input));

  // Pass 1: every event validated; the snapshot warnings in file order, as the original
  // collected them while validating.
  WarningList warnings;
  auto scanned = file.scan([&](const RecordingEvent& event) -> contract::Status {
    if ((event.type == EventType::WindowChange || event.type == EventType::Click) &&
        parse_snapshot_missing(event)) {
      warnings.add("seq " + number_text(event.seq_json()) + ": snapshot missing on " +
                   std::string(to_string(event.type)) + " event (uiStateBefore null)");
    }
    return {};
  });
  if (!scanned) return contract::failed(std::move(scanned).error());

  CLAWPERATOR_TRY_ASSIGN(auto out, StreamedFile::create(output, "RECORDING_PARSE_FAILED"));
  const RecordingHeader& header = file.header();
  std::string opening = "{\n  \"sessionId\": " + quote_json(header.session_id) +
                        ",\n  \"schemaVersion\": " + dump_json(header.schema_version) +
                        ",\n  \"steps\": [";
  CLAWPERATOR_TRY(out.write(opening));

  // Pass 2, in seq order: the v1 rules. Only the first window change and the clicks make steps;
  // press_key and text_change are dropped silently, each scroll with a warning.
  bool open_app_inferred = false;
  std::size_t step_count = 0;
  auto emitted = file.for_each_in_seq_order([&](const RecordingEvent& event) -> contract::Status {
    Json step;
    switch (event.type) {
      case EventType::WindowChange:
        if (open_app_inferred) return {};
        open_app_inferred = true;
        step = open_app_step(event);
        break;
      case EventType::Click:
        step = click_step(event);
        break;
      case EventType::Scroll:
        warnings.add("seq " + number_text(event.seq_json()) +
                     ": scroll event dropped (not extracted in v1)");
        return {};
      case EventType::PressKey:
      case EventType::TextChange:
        return {};
    }
    CLAWPERATOR_TRY(out.write(step_count == 0 ? "\n    " : ",\n    "));
    CLAWPERATOR_TRY(write_pretty_indented(out, step, "    "));
    ++step_count;
    if (options.on_step) options.on_step(step);
    return {};
  });
  if (!emitted) return contract::failed(std::move(emitted).error());

  std::string closing = step_count == 0 ? "]" : "\n  ]";
  const Json warning_list = warnings.to_json();
  if (!warnings.empty()) {
    // The list one level deep: each of its line breaks indented (its strings hold none).
    closing += ",\n  \"_warnings\": ";
    for (const char c : dump_json(warning_list, true)) {
      closing += c;
      if (c == '\n') closing += "  ";
    }
  }
  closing += "\n}";
  CLAWPERATOR_TRY(out.write(closing));
  CLAWPERATOR_TRY(out.commit());

  Json document = Json::object();
  document["ok"] = true;
  document["outputFile"] = output.string();
  document["stepCount"] = step_count;
  if (!warnings.empty()) {
    document["warnings"] = warning_list;
    if (warnings.omitted() > 0) document["warningsOmitted"] = warnings.omitted();
  }
  return document;
}

}  // namespace clawperator::recording
