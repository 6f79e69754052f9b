// One line of a recording (the Operator's NDJSON, schema version 1), judged on its own: the
// header and every event type with the checks and messages of the original's parse
// (docs/recording.md, "The file"). Pure: the line's text and its physical line number in, a
// typed event or a RECORDING_* error out. The fuzz target drives these two functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// The one schema version this CLI reads.
inline constexpr int kSupportedSchemaVersion = 1;

struct RecordingHeader {
  std::string session_id;
  Json schema_version;  // the number as written (1)
  Json started_at;      // epoch milliseconds, as written
  std::string operator_package;
};

enum class EventType : std::uint8_t { WindowChange, Click, Scroll, PressKey, TextChange };
std::string_view to_string(EventType type);

struct RecordingEvent {
  EventType type = EventType::WindowChange;
  double seq = 0;          // for ordering; the value as written stays in `fields`
  std::uint64_t line = 0;  // physical line number in the file, 1-based
  Json fields;             // the whole validated object, keys in the file's order

  const Json& seq_json() const { return fields.at("seq"); }
  const Json& ts_json() const { return fields.at("ts"); }
  // The snapshot XML, or nullptr when it is null, missing or not a string (never checked).
  const std::string* snapshot() const;
  // packageName, or "" for press_key (which has none).
  std::string_view package_name() const;
  // A string|null field: nullptr when null.
  const std::string* optional_string(const char* key) const;
};

// `line` is one physical line without its '\n' (a trailing '\r' is allowed, as is white space
// around the JSON), already known to be UTF-8. Errors are RECORDING_PARSE_FAILED with
// "Missing or invalid recording header", or RECORDING_SCHEMA_VERSION_UNSUPPORTED.
contract::Outcome<RecordingHeader> parse_header_line(std::string_view line);

// Errors are RECORDING_PARSE_FAILED with the original's messages, naming `line_number`.
contract::Outcome<RecordingEvent> parse_event_line(std::string_view line,
                                                   std::uint64_t line_number);

// A RECORDING_PARSE_FAILED (or another RECORDING_* code) error with details.line and, when
// known, details.path: the shape every reader failure has.
contract::HostError recording_error(std::string code, std::string message,
                                    Json details = Json::object());

// The JSON number `value` as JavaScript prints it in a message (2, 1.5, -0 as 0).
std::string number_text(const Json& value);

}  // namespace clawperator::recording
