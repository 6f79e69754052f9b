#include "clawperator/recording/export.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "clawperator/contract/execution.hpp"
#include "clawperator/recording/recording_file.hpp"
#include "clawperator/recording/streamed_file.hpp"
#include "pretty_stream.hpp"

namespace clawperator::recording {
namespace {

constexpr EventType kExportTypeOrder[] = {EventType::WindowChange, EventType::Click,
                                          EventType::Scroll, EventType::PressKey,
                                          EventType::TextChange};

struct ExportSpoolCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

contract::HostError export_failure(std::string message, const std::filesystem::path& path,
                                   int error_number) {
  return recording_error("RECORDING_EXPORT_FAILED", std::move(message),
                         Json{{"path", path.string()}, {"errno", error_number}});
}

// b - a, as an integer when both are (epoch milliseconds are), else as a number.
Json export_difference(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    return b.get<std::int64_t>() - a.get<std::int64_t>();
  }
  return contract::Number::milliseconds(b.get<double>() - a.get<double>()).to_json();
}

// The event as exported: seq, ts, the time since the previous one, type, its own fields in
// the file's order, then the snapshot as {present, xml}.
Json export_event_entry(const RecordingEvent& event, const Json& delta, SnapshotMode mode) {
  Json entry = object_with_capacity(event.fields.size() + 2);
  entry["seq"] = event.seq_json();
  entry["ts"] = event.ts_json();
  entry["deltaMsSincePrevious"] = delta;
  entry["type"] = to_string(event.type);
  for (const auto& [key, value] : event.fields.items()) {
    if (key == "seq" || key == "ts" || key == "type" || key == "snapshot") continue;
    entry[key] = value;
  }
  const std::string* snapshot = event.snapshot();
  Json snapshot_entry = Json::object();
  snapshot_entry["present"] = snapshot != nullptr;
  snapshot_entry["xml"] =
      snapshot != nullptr && mode == SnapshotMode::Include ? Json(*snapshot) : Json(nullptr);
  entry["snapshot"] = std::move(snapshot_entry);
  return entry;
}

// `text` indented one level per line break, for a value placed one level deep.
std::string export_indented(const std::string& text, std::string_view indent) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace

std::string_view to_string(SnapshotMode mode) {
  return mode == SnapshotMode::Include ? "include" : "omit";
}

std::filesystem::path default_export_path(const std::filesystem::path& recording) {
  return path_beside_recording(recording, ".export.json");
}

contract::Outcome<Json> export_recording(const ExportOptions& options) {
  std::filesystem::path recording = options.input;
  std::error_code error;
  if (std::filesystem::is_directory(options.input, error)) {
    CLAWPERATOR_TRY_ASSIGN(auto newest,
                           newest_recording_in(options.input, "RECORDING_EXPORT_FAILED"));
    recording = std::move(newest);
  }
  const std::filesystem::path output =
      options.output ? *options.output : default_export_path(recording);

  CLAWPERATOR_TRY_ASSIGN(auto file, RecordingFile::open(recording));
  // Pass 1 validates every line before anything is written.
  if (auto scanned = file.scan([](const RecordingEvent&) -> contract::Status { return {}; });
      !scanned)
    return contract::failed(std::move(scanned).error());

  CLAWPERATOR_TRY_ASSIGN(auto out, StreamedFile::create(output, "RECORDING_EXPORT_FAILED"));
  // The transitions come after the events in the document, and there may be as many as there
  // are events: they wait in an unnamed temporary file, not in memory.
  std::unique_ptr<std::FILE, ExportSpoolCloser> spool(std::tmpfile());
  if (!spool)
    return contract::failed(export_failure(
        std::string("Cannot create a temporary file: ") + std::strerror(errno), output, errno));

  const RecordingHeader& header = file.header();
  Json session = Json::object();
  session["sessionId"] = header.session_id;
  session["schemaVersion"] = header.schema_version;
  session["startedAt"] = header.started_at;
  session["operatorPackage"] = header.operator_package;
  std::string opening = "{\n  \"exportVersion\": 1,\n  \"session\": " +
                        export_indented(dump_json(session, true), "  ") +
                        ",\n  \"snapshotMode\": " + quote_json(to_string(options.snapshots)) +
                        ",\n  \"events\": [";
  CLAWPERATOR_TRY(out.write(opening));

  std::uint64_t event_count = 0;
  std::uint64_t by_type[std::size(kExportTypeOrder)] = {};
  std::uint64_t transition_count = 0;
  std::optional<Json> first_ts;
  std::optional<Json> previous_ts;
  std::string current_package;
  bool spool_failed = false;
  auto emitted = file.for_each_in_seq_order([&](const RecordingEvent& event) -> contract::Status {
    const Json delta =
        previous_ts ? export_difference(*previous_ts, event.ts_json()) : Json(nullptr);
    if (!first_ts) first_ts = event.ts_json();
    previous_ts = event.ts_json();
    ++by_type[static_cast<std::size_t>(event.type)];
    // A transition: an event in another package than the last one seen (press_key has none,
    // and an empty packageName names none).
    if (const std::string_view package = event.package_name(); !package.empty()) {
      if (!current_package.empty() && package != current_package) {
        Json transition = Json::object();
        transition["seq"] = event.seq_json();
        transition["ts"] = event.ts_json();
        transition["fromPackageName"] = current_package;
        transition["toPackageName"] = package;
        const std::string text = (transition_count == 0 ? "\n    " : ",\n    ") +
                                 export_indented(dump_json(transition, true), "    ");
        if (std::fwrite(text.data(), 1, text.size(), spool.get()) != text.size())
          spool_failed = true;
        ++transition_count;
      }
      current_package = std::string(package);
    }
    CLAWPERATOR_TRY(out.write(event_count == 0 ? "\n    " : ",\n    "));
    CLAWPERATOR_TRY(
        write_pretty_indented(out, export_event_entry(event, delta, options.snapshots), "    "));
    ++event_count;
    return {};
  });
  if (!emitted) return contract::failed(std::move(emitted).error());
  if (spool_failed || std::fflush(spool.get()) != 0) {
    return contract::failed(export_failure(
        std::string("Cannot write a temporary file: ") + std::strerror(errno), output, errno));
  }

  Json by_type_json = Json::object();
  for (const EventType type : kExportTypeOrder) {
    by_type_json[std::string(to_string(type))] = by_type[static_cast<std::size_t>(type)];
  }
  Json counts = Json::object();
  counts["totalEvents"] = event_count;
  counts["byType"] = by_type_json;
  std::string middle = event_count == 0 ? "]" : "\n  ]";
  middle += ",\n  \"counts\": " + export_indented(dump_json(counts, true), "  ") +
            ",\n  \"packageTransitions\": [";
  CLAWPERATOR_TRY(out.write(middle));
  std::rewind(spool.get());
  char chunk[1 << 16];
  while (true) {
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, spool.get());
    if (got == 0) break;
    CLAWPERATOR_TRY(out.write(std::string_view(chunk, got)));
  }
  if (std::ferror(spool.get())) {
    return contract::failed(export_failure(
        std::string("Cannot read a temporary file: ") + std::strerror(errno), output, errno));
  }
  Json timeline = Json::object();
  timeline["firstEventTs"] = first_ts ? *first_ts : Json(nullptr);
  timeline["lastEventTs"] = previous_ts ? *previous_ts : Json(nullptr);
  timeline["durationMs"] = first_ts ? export_difference(*first_ts, *previous_ts) : Json(nullptr);
  std::string closing = transition_count == 0 ? "]" : "\n  ]";
  closing += ",\n  \"timeline\": " + export_indented(dump_json(timeline, true), "  ") + "\n}\n";
  CLAWPERATOR_TRY(out.write(closing));
  CLAWPERATOR_TRY(out.commit());

  Json document = Json::object();
  document["ok"] = true;
  document["outputFile"] = output.string();
  document["sessionId"] = header.session_id;
  document["eventCount"] = event_count;
  document["packageTransitionCount"] = transition_count;
  document["byType"] = std::move(by_type_json);
  return document;
}

}  // namespace clawperator::recording
