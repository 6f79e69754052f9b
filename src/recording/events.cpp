#include "clawperator/recording/events.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

const char* const kInvalidHeaderMessage = "Missing or invalid recording header";

bool event_has_string(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string();
}

bool event_has_number(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_number();
}

// Present, and a string or null: the original refuses an absent key (`undefined`).
bool event_has_string_or_null(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && (found->is_string() || found->is_null());
}

std::string invalid_typed_event(std::string_view type, std::uint64_t line,
                                std::string_view detail) {
  return "Invalid " + std::string(type) + " event at line " + std::to_string(line) + ": " +
         std::string(detail);
}

// The first problem of an event of a known type, or "" when it is valid.
std::string event_type_problem(EventType type, const Json& event) {
  switch (type) {
    case EventType::WindowChange:
      if (!event_has_string(event, "packageName")) return "packageName must be a string";
      return "";
    case EventType::Click: {
      if (!event_has_string(event, "packageName")) return "packageName must be a string";
      for (const char* key : {"resourceId", "text", "contentDesc"}) {
        if (!event_has_string_or_null(event, key))
          return std::string(key) + " must be a string or null";
      }
      const auto bounds = event.find("bounds");
      if (bounds == event.end() || !bounds->is_object())
        return "bounds must be an object with numeric left, top, right and bottom";
      for (const char* key : {"left", "top", "right", "bottom"}) {
        if (!event_has_number(*bounds, key))
          return "bounds." + std::string(key) + " must be a number";
      }
      return "";
    }
    case EventType::Scroll:
      if (!event_has_string(event, "packageName")) return "packageName must be a string";
      if (!event_has_string_or_null(event, "resourceId"))
        return "resourceId must be a string or null";
      for (const char* key : {"scrollX", "scrollY", "maxScrollX", "maxScrollY"}) {
        if (!event_has_number(event, key)) return std::string(key) + " must be a number";
      }
      return "";
    case EventType::PressKey: {
      const auto key = event.find("key");
      if (key == event.end() || !key->is_string() || key->get_ref<const std::string&>() != "back")
        return "key must be \"back\"";
      return "";
    }
    case EventType::TextChange:
      if (!event_has_string(event, "packageName")) return "packageName must be a string";
      if (!event_has_string_or_null(event, "resourceId"))
        return "resourceId must be a string or null";
      if (!event_has_string(event, "text")) return "text must be a string";
      return "";
  }
  return "";
}

bool event_type_from_name(std::string_view name, EventType& type) {
  static constexpr std::pair<std::string_view, EventType> kNames[] = {
      {"window_change", EventType::WindowChange},
      {"click", EventType::Click},
      {"scroll", EventType::Scroll},
      {"press_key", EventType::PressKey},
      {"text_change", EventType::TextChange}};
  for (const auto& [text, value] : kNames) {
    if (text == name) {
      type = value;
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view to_string(EventType type) {
  switch (type) {
    case EventType::WindowChange:
      return "window_change";
    case EventType::Click:
      return "click";
    case EventType::Scroll:
      return "scroll";
    case EventType::PressKey:
      return "press_key";
    case EventType::TextChange:
      return "text_change";
  }
  return "window_change";
}

const std::string* RecordingEvent::snapshot() const {
  const auto found = fields.find("snapshot");
  if (found == fields.end() || !found->is_string()) return nullptr;
  return &found->get_ref<const std::string&>();
}

std::string_view RecordingEvent::package_name() const {
  const auto found = fields.find("packageName");
  if (found == fields.end() || !found->is_string()) return {};
  return found->get_ref<const std::string&>();
}

const std::string* RecordingEvent::optional_string(const char* key) const {
  const auto found = fields.find(key);
  if (found == fields.end() || !found->is_string()) return nullptr;
  return &found->get_ref<const std::string&>();
}

contract::HostError recording_error(std::string code, std::string message, Json details) {
  return contract::validation_error(std::move(code), std::move(message), std::move(details));
}

std::string number_text(const Json& value) {
  if (value.is_number_integer()) return dump_json(value);
  const double number = value.get<double>();
  if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 9.007e15) {
    return std::to_string(static_cast<long long>(number));
  }
  // The shortest form that reads back as the same double, as JavaScript prints it.
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, number);
    if (std::strtod(text, nullptr) == number) break;
  }
  return text;
}

contract::Outcome<RecordingHeader> parse_header_line(std::string_view line) {
  const Json header = parse_json(trim(line));
  auto invalid = [] {
    return contract::failed(
        recording_error("RECORDING_PARSE_FAILED", kInvalidHeaderMessage, Json{{"line", nullptr}}));
  };
  if (!header.is_object()) return invalid();
  const auto type = header.find("type");
  if (type == header.end() || !type->is_string() ||
      type->get_ref<const std::string&>() != "recording_header")
    return invalid();
  if (!event_has_string(header, "sessionId") || !event_has_string(header, "operatorPackage") ||
      !event_has_number(header, "startedAt") || !event_has_number(header, "schemaVersion"))
    return invalid();
  const Json& version = header.at("schemaVersion");
  if (version.get<double>() != kSupportedSchemaVersion) {
    return contract::failed(
        recording_error("RECORDING_SCHEMA_VERSION_UNSUPPORTED",
                        "Unsupported recording schema version: " + number_text(version),
                        Json{{"schemaVersion", version}, {"supported", kSupportedSchemaVersion}}));
  }
  RecordingHeader parsed;
  parsed.session_id = header.at("sessionId").get<std::string>();
  parsed.schema_version = version;
  parsed.started_at = header.at("startedAt");
  parsed.operator_package = header.at("operatorPackage").get<std::string>();
  return parsed;
}

contract::Outcome<RecordingEvent> parse_event_line(std::string_view line,
                                                   std::uint64_t line_number) {
  const std::string where = " at line " + std::to_string(line_number);
  Json event = parse_json(trim(line));
  auto fail = [&](std::string message) {
    return contract::failed(
        recording_error("RECORDING_PARSE_FAILED", std::move(message), Json{{"line", line_number}}));
  };
  if (event.is_discarded()) return fail("Malformed NDJSON" + where);
  // Valid JSON that is not an object has no ts, seq or type: the original's message for it.
  if (!event.is_object() || !event_has_number(event, "ts") || !event_has_number(event, "seq") ||
      !event_has_string(event, "type")) {
    return fail("Invalid event" + where + ": missing required fields (ts, seq, type)");
  }
  const std::string& type_name = event.at("type").get_ref<const std::string&>();
  RecordingEvent parsed;
  if (!event_type_from_name(type_name, parsed.type)) {
    return fail("Unknown event type" + where + ": " + type_name);
  }
  if (const std::string problem = event_type_problem(parsed.type, event); !problem.empty()) {
    return fail(invalid_typed_event(type_name, line_number, problem));
  }
  parsed.seq = event.at("seq").get<double>();
  parsed.line = line_number;
  parsed.fields = std::move(event);
  return parsed;
}

}  // namespace clawperator::recording
