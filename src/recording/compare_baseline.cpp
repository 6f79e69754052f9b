#include "clawperator/recording/compare_baseline.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <utility>

#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/recording/events.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

using contract::HostError;

bool is_nullable_string(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && (found->is_null() || found->is_string());
}

bool is_number_field(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_number();
}

bool is_string_field(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string();
}

bool is_nullable_number(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && (found->is_null() || found->is_number());
}

const std::string* string_field(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get_ptr<const std::string*>()
                                                     : nullptr;
}

bool is_bounds(const Json& object) {
  const auto found = object.find("bounds");
  if (found == object.end() || !found->is_object()) return false;
  return is_number_field(*found, "left") && is_number_field(*found, "top") &&
         is_number_field(*found, "right") && is_number_field(*found, "bottom");
}

// What the original's isRecordingExportEvent requires of each type.
bool has_type_fields(const Json& event, std::string_view type) {
  if (type == "window_change") {
    return is_string_field(event, "packageName") && is_nullable_string(event, "className") &&
           is_nullable_string(event, "title");
  }
  if (type == "click") {
    return is_string_field(event, "packageName") && is_nullable_string(event, "resourceId") &&
           is_nullable_string(event, "text") && is_nullable_string(event, "contentDesc") &&
           is_bounds(event);
  }
  if (type == "scroll") {
    return is_string_field(event, "packageName") && is_nullable_string(event, "resourceId") &&
           is_number_field(event, "scrollX") && is_number_field(event, "scrollY") &&
           is_number_field(event, "maxScrollX") && is_number_field(event, "maxScrollY");
  }
  if (type == "press_key") {
    const std::string* key = string_field(event, "key");
    return key != nullptr && *key == "back";
  }
  if (type == "text_change") {
    return is_string_field(event, "packageName") && is_nullable_string(event, "resourceId") &&
           is_string_field(event, "text");
  }
  return false;
}

bool is_export_event(const Json& event) {
  if (!is_number_field(event, "seq") || !is_number_field(event, "ts") ||
      !is_nullable_number(event, "deltaMsSincePrevious")) {
    return false;
  }
  const auto snapshot = event.find("snapshot");
  if (snapshot == event.end() || !snapshot->is_object()) return false;
  const auto present = snapshot->find("present");
  if (present == snapshot->end() || !present->is_boolean()) return false;
  if (!is_nullable_string(*snapshot, "xml")) return false;
  const std::string* type = string_field(event, "type");
  return type != nullptr && has_type_fields(event, *type);
}

// The first of the fields, trimmed (JavaScript's trim) and not blank, in lower case.
std::optional<std::string> first_present(const Json& event,
                                         std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    const std::string* value = string_field(event, key);
    if (value == nullptr) continue;
    const std::string_view trimmed = trim_white_space(*value);
    if (!trimmed.empty()) return contract::lowercase_unicode(trimmed);
  }
  return std::nullopt;
}

// The original's summarizeEvent.
std::string summary_of(const Json& event, std::string_view type, const std::string& package) {
  const std::string seq = "seq-" + number_text(event.at("seq"));
  const std::string prefix = std::string(type) + ":" + package + ":";
  if (type == "window_change") return "window_change:" + package;
  if (type == "click") {
    return prefix + first_present(event, {"text", "contentDesc", "resourceId"}).value_or(seq);
  }
  if (type == "text_change") return prefix + first_present(event, {"resourceId"}).value_or(seq);
  if (type == "scroll") {
    const std::string* id = string_field(event, "resourceId");
    return prefix + (id != nullptr ? *id : std::string("unknown"));
  }
  return "press_key:" + event.at("key").get<std::string>();
}

// Whether a click's package, id, text, description or snapshot holds `word` in any case. The
// words are ASCII, so ASCII lower case finds exactly what JavaScript's toLowerCase would.
bool click_mentions(const Json& event, std::string_view word) {
  const std::string* xml =
      event.at("snapshot").is_object() ? string_field(event.at("snapshot"), "xml") : nullptr;
  const std::array<const std::string*, 5> values = {
      string_field(event, "packageName"), string_field(event, "resourceId"),
      string_field(event, "text"), string_field(event, "contentDesc"), xml};
  return std::any_of(values.begin(), values.end(), [&](const std::string* value) {
    return value != nullptr && lowercase(*value).find(word) != std::string::npos;
  });
}

BaselineEvent baseline_event_of(const Json& event) {
  BaselineEvent reduced;
  reduced.type = event.at("type").get<std::string>();
  reduced.seq = event.at("seq");
  const auto copy = [&event](const char* key, std::string& into) {
    if (const std::string* value = string_field(event, key)) into = *value;
  };
  copy("packageName", reduced.package_name);
  copy("resourceId", reduced.resource_id);
  copy("text", reduced.text);
  copy("contentDesc", reduced.content_desc);
  copy("title", reduced.title);
  reduced.summary = summary_of(event, reduced.type, reduced.package_name);
  if (reduced.type == "text_change") {
    reduced.has_text = !trim_white_space(reduced.text).empty();
  }
  if (reduced.type == "click") {
    // "discharge to" and "discharge_row", the original's other words, both hold "discharge".
    reduced.mentions_discharge = click_mentions(event, "discharge");
    reduced.mentions_save = click_mentions(event, "save");
    reduced.mentions_confirm = click_mentions(event, "confirm");
  }
  return reduced;
}

bool is_export_session(const Json& root) {
  const auto session = root.find("session");
  return session != root.end() && session->is_object() && is_string_field(*session, "sessionId") &&
         is_number_field(*session, "schemaVersion") && is_number_field(*session, "startedAt") &&
         is_string_field(*session, "operatorPackage");
}

bool is_export_counts(const Json& root) {
  const auto counts = root.find("counts");
  if (counts == root.end() || !counts->is_object() || !is_number_field(*counts, "totalEvents")) {
    return false;
  }
  const auto by_type = counts->find("byType");
  if (by_type == counts->end() || !by_type->is_object()) return false;
  return std::all_of(by_type->begin(), by_type->end(),
                     [](const Json& count) { return count.is_number(); });
}

bool is_export_timeline(const Json& root) {
  const auto timeline = root.find("timeline");
  return timeline != root.end() && timeline->is_object() &&
         is_nullable_number(*timeline, "firstEventTs") &&
         is_nullable_number(*timeline, "lastEventTs") &&
         is_nullable_number(*timeline, "durationMs");
}

bool is_package_transition(const Json& transition) {
  return is_number_field(transition, "seq") && is_number_field(transition, "ts") &&
         is_string_field(transition, "fromPackageName") &&
         is_string_field(transition, "toPackageName");
}

// nlohmann's parser callback: each event and each package transition is checked and reduced as
// soon as it is read, then dropped from the document being built.
class BaselineReader {
 public:
  bool on_event(int depth, Json::parse_event_t event, Json& parsed) {
    using Event = Json::parse_event_t;
    if (event == Event::key && depth == 1) {
      root_key_ = parsed.get<std::string>();
    } else if (event == Event::array_start && depth == 1) {
      list_ = root_key_ == "events"               ? List::Events
              : root_key_ == "packageTransitions" ? List::Transitions
                                                  : List::None;
    } else if (event == Event::array_end && depth == 1) {
      list_ = List::None;
    } else if (event == Event::object_end && depth == 2 && list_ == List::Events) {
      if (is_export_event(parsed)) {
        baseline_.events.push_back(baseline_event_of(parsed));
      } else {
        note("events[" + std::to_string(events_read_) + "] is not an event of a recording export");
      }
      ++events_read_;
      return false;
    } else if (event == Event::object_end && depth == 2 && list_ == List::Transitions) {
      if (!is_package_transition(parsed)) {
        note("packageTransitions[" + std::to_string(transitions_read_) +
             "] is not a package transition");
      }
      ++transitions_read_;
      return false;
    } else if (event == Event::object_end && depth == 0) {
      check_root(parsed);
    }
    return true;
  }

  // Why the document is not an export, if it is not (no path: the reason names the field, as
  // the subject of its sentence).
  Expected<void, Problem> verdict(const Json& document) const {
    if (problem_) return Unexpected(Problem{"", *problem_});
    if (!document.is_object()) return Unexpected(Problem{"", "the document is not a JSON object"});
    return {};
  }
  Baseline take() { return std::move(baseline_); }

 private:
  enum class List { None, Events, Transitions };

  void note(std::string problem) {
    if (!problem_) problem_ = std::move(problem);
  }

  // Called once the root object is read: the events and transitions are gone from it (a list
  // still holding something held a value that is not an object).
  void check_root(const Json& root) {
    const auto version = root.find("exportVersion");
    if (version == root.end() || !version->is_number() || *version != 1) {
      note("exportVersion is not 1");
    } else if (!is_export_session(root)) {
      note("session needs sessionId, schemaVersion, startedAt and operatorPackage");
    } else if (!root.contains("snapshotMode") ||
               (root["snapshotMode"] != "omit" && root["snapshotMode"] != "include")) {
      note("snapshotMode is not omit or include");
    } else if (!root.contains("events") || !root["events"].is_array() || !root["events"].empty()) {
      note("events is not a list of events");
    } else if (!is_export_counts(root)) {
      note("counts needs totalEvents and byType numbers");
    } else if (!root.contains("packageTransitions") || !root["packageTransitions"].is_array() ||
               !root["packageTransitions"].empty()) {
      note("packageTransitions is not a list of package transitions");
    } else if (!is_export_timeline(root)) {
      note("timeline needs firstEventTs, lastEventTs and durationMs (numbers or null)");
    }
  }

  Baseline baseline_;
  std::optional<std::string> problem_;
  std::string root_key_;
  List list_ = List::None;
  std::size_t events_read_ = 0, transitions_read_ = 0;
};

template <typename Input>
contract::Outcome<Baseline> read_baseline(Input&& input, const Json& where) {
  BaselineReader reader;
  const Json document = Json::parse(
      std::forward<Input>(input),
      [&reader](int depth, Json::parse_event_t event, Json& parsed) {
        return reader.on_event(depth, event, parsed);
      },
      /*allow_exceptions=*/false);
  Json details = where;
  if (document.is_discarded()) {
    details["reason"] = "not valid JSON";
    return compare_failure("The compare baseline is not valid JSON", std::move(details));
  }
  if (auto verdict = reader.verdict(document); !verdict) {
    details["reason"] = verdict.error().message;
    return compare_failure(
        "The compare baseline is not a recording export: " + verdict.error().message,
        std::move(details));
  }
  return reader.take();
}

}  // namespace

Unexpected<HostError> compare_failure(std::string message, Json details) {
  return recording_error("RECORDING_COMPARE_FAILED", std::move(message), std::move(details));
}

contract::Outcome<Baseline> parse_compare_baseline(std::string_view text) {
  return read_baseline(text, Json::object());
}

contract::Outcome<Baseline> read_compare_baseline(const std::filesystem::path& path) {
  const Json where = Json{{"path", path.string()}};
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return compare_failure(
        "The compare baseline " + path.string() + " is a directory; name the export file", where);
  }
  // A FIFO or a device is refused at once, never waited on (io/bounded_file.hpp).
  const io::OpenedFile opened = io::open_regular_file(path);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      opened.fd >= 0 ? ::fdopen(opened.fd, "rb") : nullptr, &std::fclose);
  if (opened.fd >= 0 && !file) ::close(opened.fd);
  // The size of the file opened, not of the name: it cannot grow past the check unseen.
  struct stat status {};
  if (file && ::fstat(::fileno(file.get()), &status) == 0 &&
      static_cast<std::uintmax_t>(status.st_size) > kMaxCompareBaselineBytes) {
    Json details = where;
    details["reason"] = "larger than " + std::to_string(kMaxCompareBaselineBytes) + " bytes";
    return compare_failure("The compare baseline " + path.string() + " is larger than " +
                               std::to_string(kMaxCompareBaselineBytes >> 20) + " MiB",
                           std::move(details));
  }
  if (!file) {
    const int number = opened.fd < 0 ? opened.error : errno;
    Json details = where;
    details["errno"] = number;
    return compare_failure("Cannot read the compare baseline " + path.string() + ": " +
                               io::describe_open_error(number),
                           std::move(details));
  }
  return read_baseline(file.get(), where);
}

}  // namespace clawperator::recording
