#include "clawperator/recording/compare.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>

#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/recording/events.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

using contract::HostError;

constexpr const char* kCompareFailed = "RECORDING_COMPARE_FAILED";

// The original's baseline (compareRecording.ts of the newest original, its
// DEFAULT_BASELINE_CHECKPOINT_ORDER): the checkpoints its shipped skill reports, in order.
constexpr std::array<std::string_view, 4> kBaselineCheckpointOrder = {
    "app_opened", "discharge_to_row_focused", "target_text_entered", "save_completed"};
// A skill's checkpoint that states the end result; it is not part of the path.
constexpr std::string_view kTerminalCheckpointId = "terminal_state_verified";

Unexpected<HostError> compare_error(std::string message, Json details = Json::object()) {
  return recording_error(kCompareFailed, std::move(message), std::move(details));
}

// ---- The baseline: an export read event by event ----

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
  if (const std::string* package = string_field(event, "packageName")) {
    reduced.package_name = *package;
  }
  reduced.summary = summary_of(event, reduced.type, reduced.package_name);
  if (reduced.type == "text_change") {
    reduced.has_text = !trim_white_space(event.at("text").get_ref<const std::string&>()).empty();
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

  // The reason the document is not an export, or nullopt.
  std::optional<std::string> problem(const Json& document) const {
    if (problem_) return problem_;
    if (!document.is_object()) return std::string("the document is not a JSON object");
    return std::nullopt;
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
    return compare_error("The compare baseline is not valid JSON", std::move(details));
  }
  if (auto problem = reader.problem(document)) {
    details["reason"] = *problem;
    return compare_error("The compare baseline is not a recording export: " + *problem,
                         std::move(details));
  }
  return reader.take();
}

// ---- The skill result ----

// The original's SkillResult schema (contracts/skillResult.ts): required fields, enums and
// types; unknown keys are allowed, as its schema strips rather than refuses them.
class SkillResultChecker {
 public:
  void check(const Json& result) {
    require_string(result, "contractVersion", "contractVersion", false);
    require_string(result, "skillId", "skillId", true);
    check_source(result);
    optional_object(result, "goal", "goal");
    optional_object(result, "inputs", "inputs");
    require_enum(result, "status", "status", {"success", "failed", "indeterminate"});
    const auto checkpoints = result.find("checkpoints");
    if (checkpoints == result.end() || !checkpoints->is_array()) {
      issue("checkpoints", "must be a list");
    } else {
      for (std::size_t i = 0; i < checkpoints->size(); ++i) {
        check_checkpoint((*checkpoints)[i], "checkpoints[" + std::to_string(i) + "]");
      }
    }
    check_terminal_verification(result);
    check_exec_envelopes(result);
    check_diagnostics(result);
  }

  const std::vector<std::string>& issues() const { return issues_; }

 private:
  static constexpr std::size_t kMaxIssues = 10;

  void issue(const std::string& path, std::string_view what) {
    if (issues_.size() < kMaxIssues) issues_.push_back(path + " " + std::string(what));
  }

  bool require_object(const Json& value, const std::string& path) {
    if (value.is_object()) return true;
    issue(path, "must be an object");
    return false;
  }

  void require_string(const Json& object, const char* key, const std::string& path,
                      bool non_empty) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string()) {
      issue(path, "must be a string");
    } else if (non_empty && found->get_ref<const std::string&>().empty()) {
      issue(path, "must not be empty");
    }
  }

  void optional_string(const Json& object, const char* key, const std::string& path,
                       bool nullable = false) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_string() || (nullable && found->is_null())) return;
    issue(path, nullable ? "must be a string or null" : "must be a string");
  }

  void optional_object(const Json& object, const char* key, const std::string& path) {
    const auto found = object.find(key);
    if (found != object.end()) require_object(*found, path);
  }

  void require_enum(const Json& object, const char* key, const std::string& path,
                    std::initializer_list<std::string_view> allowed) {
    const auto found = object.find(key);
    if (found != object.end() && found->is_string() &&
        std::find(allowed.begin(), allowed.end(), found->get_ref<const std::string&>()) !=
            allowed.end()) {
      return;
    }
    std::string names;
    for (std::string_view name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
    issue(path, "must be one of " + names);
  }

  void check_source(const Json& result) {
    const auto source = result.find("source");
    if (source == result.end()) {
      issue("source", "must be an object");
      return;
    }
    if (!require_object(*source, "source")) return;
    require_enum(*source, "kind", "source.kind", {"script", "agent"});
    if (source->value("kind", Json()) == "agent") {
      require_string(*source, "agentCli", "source.agentCli", true);
    }
  }

  void check_evidence(const Json& evidence, const std::string& path) {
    if (!require_object(evidence, path)) return;
    const std::string kind = evidence.value("kind", Json()).is_string()
                                 ? evidence.at("kind").get<std::string>()
                                 : std::string();
    if (kind == "text") {
      require_string(evidence, "text", path + ".text", false);
    } else if (kind == "json") {
      if (!evidence.contains("value")) issue(path + ".value", "is required");
    } else if (kind == "result_envelope_ref") {
      const auto index = evidence.find("execEnvelopeIndex");
      const bool whole = index != evidence.end() && index->is_number() &&
                         (index->is_number_integer() ||
                          index->get<double>() == static_cast<double>(index->get<long long>()));
      if (!whole || index->get<double>() < 0) {
        issue(path + ".execEnvelopeIndex", "must be a whole number, 0 or more");
      }
      optional_string(evidence, "stepResultId", path + ".stepResultId");
    } else {
      issue(path + ".kind", "must be one of text, json, result_envelope_ref");
    }
  }

  void check_checkpoint(const Json& checkpoint, const std::string& path) {
    if (!require_object(checkpoint, path)) return;
    require_string(checkpoint, "id", path + ".id", true);
    require_enum(checkpoint, "status", path + ".status", {"ok", "failed", "skipped"});
    optional_string(checkpoint, "observedAt", path + ".observedAt");
    if (checkpoint.contains("evidence")) {
      check_evidence(checkpoint.at("evidence"), path + ".evidence");
    }
    optional_string(checkpoint, "note", path + ".note");
  }

  void check_terminal_verification(const Json& result) {
    const auto verification = result.find("terminalVerification");
    if (verification == result.end() || verification->is_null()) return;
    if (!require_object(*verification, "terminalVerification")) return;
    require_enum(*verification, "status", "terminalVerification.status",
                 {"verified", "failed", "not_run"});
    for (const char* key : {"expected", "observed"}) {
      const auto evidence = verification->find(key);
      if (evidence != verification->end() && !evidence->is_null()) {
        check_evidence(*evidence, std::string("terminalVerification.") + key);
      }
    }
    optional_string(*verification, "note", "terminalVerification.note", true);
  }

  void check_exec_envelopes(const Json& result) {
    const auto envelopes = result.find("execEnvelopes");
    if (envelopes == result.end()) return;
    if (!envelopes->is_array()) {
      issue("execEnvelopes", "must be a list");
      return;
    }
    for (std::size_t i = 0; i < envelopes->size(); ++i) {
      const Json& envelope = (*envelopes)[i];
      const std::string path = "execEnvelopes[" + std::to_string(i) + "]";
      if (!require_object(envelope, path)) continue;
      require_string(envelope, "commandId", path + ".commandId", false);
      require_string(envelope, "taskId", path + ".taskId", false);
      require_enum(envelope, "status", path + ".status", {"success", "failed"});
      const auto steps = envelope.find("stepResults");
      if (steps == envelope.end() || !steps->is_array()) {
        issue(path + ".stepResults", "must be a list");
      } else {
        for (std::size_t k = 0; k < steps->size(); ++k) {
          const Json& step = (*steps)[k];
          const std::string step_path = path + ".stepResults[" + std::to_string(k) + "]";
          if (!require_object(step, step_path)) continue;
          require_string(step, "id", step_path + ".id", false);
          require_string(step, "actionType", step_path + ".actionType", false);
          if (!step.contains("success") || !step.at("success").is_boolean()) {
            issue(step_path + ".success", "must be true or false");
          }
        }
      }
      optional_string(envelope, "error", path + ".error", true);
      optional_string(envelope, "errorCode", path + ".errorCode", true);
      optional_string(envelope, "hint", path + ".hint");
    }
  }

  void check_diagnostics(const Json& result) {
    const auto diagnostics = result.find("diagnostics");
    if (diagnostics == result.end() || !require_object(*diagnostics, "diagnostics")) return;
    if (diagnostics->contains("runtimeState")) {
      require_enum(*diagnostics, "runtimeState", "diagnostics.runtimeState",
                   {"healthy", "poisoned", "unavailable", "unknown"});
    }
    for (const char* key : {"warnings", "hints"}) {
      const auto list = diagnostics->find(key);
      if (list == diagnostics->end()) continue;
      if (!list->is_array() ||
          !std::all_of(list->begin(), list->end(), [](const Json& v) { return v.is_string(); })) {
        issue(std::string("diagnostics.") + key, "must be a list of strings");
      }
    }
  }

  std::vector<std::string> issues_;
};

// ---- The comparison ----

struct Checkpoint {
  std::string id;
  std::string status;  // the skill's; the baseline's are all "ok"
  std::optional<std::string> note;
  std::string summary;  // the baseline's
};

// The package most events name (an empty name does not count); the first seen wins a tie.
std::optional<std::string> primary_package(const Baseline& baseline) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  std::unordered_map<std::string, std::size_t> index;
  for (const BaselineEvent& event : baseline.events) {
    if (event.type == "press_key" || event.package_name.empty()) continue;
    const auto [at, added] = index.emplace(event.package_name, counts.size());
    if (added) counts.emplace_back(event.package_name, 0);
    ++counts[at->second].second;
  }
  std::optional<std::string> winner;
  std::size_t most = 0;
  for (const auto& [name, count] : counts) {
    if (!winner || count > most) {
      winner = name;
      most = count;
    }
  }
  return winner;
}

// The original's normalizeRecordingExportForCompare: the first window change of the app, the
// first click that mentions "discharge", the last text change with text, and the last click
// that mentions "save" (else "confirm"), each when the recording has one.
std::vector<Checkpoint> baseline_checkpoints(const Baseline& baseline,
                                             const std::optional<std::string>& app) {
  const auto in_app = [&app](const BaselineEvent& event) {
    return !app || event.type == "press_key" || event.package_name == *app;
  };
  const auto first = [&](auto predicate) -> const BaselineEvent* {
    for (const BaselineEvent& event : baseline.events) {
      if (in_app(event) && predicate(event)) return &event;
    }
    return nullptr;
  };
  const auto last = [&](auto predicate) -> const BaselineEvent* {
    for (auto event = baseline.events.rbegin(); event != baseline.events.rend(); ++event) {
      if (in_app(*event) && predicate(*event)) return &*event;
    }
    return nullptr;
  };
  const BaselineEvent* save =
      last([](const BaselineEvent& e) { return e.type == "click" && e.mentions_save; });
  if (save == nullptr) {
    save = last([](const BaselineEvent& e) { return e.type == "click" && e.mentions_confirm; });
  }
  const std::array<const BaselineEvent*, 4> found = {
      first([](const BaselineEvent& e) { return e.type == "window_change"; }),
      first([](const BaselineEvent& e) { return e.type == "click" && e.mentions_discharge; }),
      last([](const BaselineEvent& e) { return e.type == "text_change" && e.has_text; }),
      save,
  };
  std::vector<Checkpoint> checkpoints;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i] != nullptr) {
      checkpoints.push_back(
          {std::string(kBaselineCheckpointOrder[i]), "ok", std::nullopt, found[i]->summary});
    }
  }
  return checkpoints;
}

std::vector<Checkpoint> actual_checkpoints(const Json& skill_result) {
  std::vector<Checkpoint> checkpoints;
  for (const Json& checkpoint : skill_result.at("checkpoints")) {
    const std::string id = checkpoint.at("id").get<std::string>();
    if (id == kTerminalCheckpointId) continue;
    std::optional<std::string> note;
    if (checkpoint.contains("note")) note = checkpoint.at("note").get<std::string>();
    checkpoints.push_back({id, checkpoint.at("status").get<std::string>(), std::move(note), {}});
  }
  return checkpoints;
}

// The original's findFirstDivergence: the first index where the ids differ, the skill's status
// is not ok, or one list ends before the other.
std::optional<Json> first_divergence(const std::vector<Checkpoint>& baseline,
                                     const std::vector<Checkpoint>& actual,
                                     const std::string& actual_status) {
  const std::size_t length = std::max(baseline.size(), actual.size());
  for (std::size_t index = 0; index < length; ++index) {
    Json divergence = Json::object();
    divergence["index"] = index;
    if (index >= baseline.size()) {
      const Checkpoint& extra = actual[index];
      divergence["baselineCheckpoint"] = "unexpected_extra_checkpoint";
      divergence["actualCheckpoint"] = extra.id;
      divergence["baselineStatus"] = nullptr;
      divergence["actualStatus"] = extra.status;
      if (extra.note) divergence["actualNote"] = *extra.note;
      return divergence;
    }
    const Checkpoint& expected = baseline[index];
    if (index >= actual.size()) {
      divergence["baselineCheckpoint"] = expected.id;
      divergence["actualCheckpoint"] = actual_status == "failed"
                                           ? "failed_before_expected_checkpoint"
                                           : "missing_expected_checkpoint";
      divergence["baselineStatus"] = expected.status;
      divergence["actualStatus"] = nullptr;
      divergence["baselineSummary"] = expected.summary;
      return divergence;
    }
    const Checkpoint& got = actual[index];
    if (got.id != expected.id || got.status != expected.status) {
      divergence["baselineCheckpoint"] = expected.id;
      divergence["actualCheckpoint"] = got.id;
      divergence["baselineStatus"] = expected.status;
      divergence["actualStatus"] = got.status;
      divergence["baselineSummary"] = expected.summary;
      if (got.note) divergence["actualNote"] = *got.note;
      return divergence;
    }
  }
  return std::nullopt;
}

std::string outcome_of(bool literal, bool path_matches, const Json& skill_result,
                       const std::string& verification) {
  if (skill_result.at("status") == "failed") {
    const Json runtime = skill_result.contains("diagnostics")
                             ? skill_result.at("diagnostics").value("runtimeState", Json())
                             : Json();
    if (runtime == "poisoned") return "runtime_poisoned";
    if (runtime == "unavailable") return "runtime_unavailable";
    return "upstream_failure";
  }
  if (!path_matches) {
    return verification == "verified" && !literal ? "outcome_matches_path_differs"
                                                  : "baseline_drift";
  }
  if (verification == "verified") return literal ? "literal_match" : "semantic_match";
  if (verification == "failed") return "verification_failed";
  return "verification_indeterminate";
}

std::string summary_of_outcome(const std::string& outcome, const std::optional<Json>& divergence) {
  if (outcome == "literal_match") {
    return "checkpoint sequence matched the recording baseline and terminal verification was "
           "proved";
  }
  if (outcome == "semantic_match") {
    return "agent-driven run matched the baseline checkpoints and terminal verification was "
           "proved";
  }
  if (outcome == "outcome_matches_path_differs") {
    return "terminal verification matched even though the runtime path differed from the "
           "recording baseline";
  }
  if (outcome == "verification_failed") {
    return "checkpoint sequence matched the recording baseline but terminal verification did not "
           "match the requested outcome";
  }
  if (outcome == "verification_indeterminate") {
    return "the skill run did not prove its declared terminal verification";
  }
  if (outcome == "runtime_poisoned" || outcome == "runtime_unavailable") {
    return "the skill reported " +
           std::string(outcome == "runtime_poisoned" ? "a poisoned" : "an unavailable") +
           " runtime state before compare could confirm baseline equivalence";
  }
  if (outcome == "upstream_failure") {
    return "the skill failed before compare could confirm baseline equivalence";
  }
  if (divergence) {
    return "first meaningful divergence at baseline checkpoint " +
           divergence->at("baselineCheckpoint").get<std::string>();
  }
  return "the skill diverged from the recording baseline";
}

Json ids_of(const std::vector<Checkpoint>& checkpoints) {
  Json ids = Json::array();
  for (const Checkpoint& checkpoint : checkpoints) ids.push_back(checkpoint.id);
  return ids;
}

}  // namespace

std::optional<CompareMode> compare_mode_named(std::string_view name) {
  if (name == "auto") return CompareMode::Auto;
  if (name == "literal") return CompareMode::Literal;
  if (name == "semantic") return CompareMode::Semantic;
  return std::nullopt;
}

contract::Outcome<Baseline> parse_compare_baseline(std::string_view text) {
  return read_baseline(text, Json::object());
}

contract::Outcome<Baseline> read_compare_baseline(const std::filesystem::path& path) {
  const Json where = Json{{"path", path.string()}};
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return compare_error(
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
    return compare_error("The compare baseline " + path.string() + " is larger than " +
                             std::to_string(kMaxCompareBaselineBytes >> 20) + " MiB",
                         std::move(details));
  }
  if (!file) {
    const int number = opened.fd < 0 ? opened.error : errno;
    Json details = where;
    details["errno"] = number;
    return compare_error("Cannot read the compare baseline " + path.string() + ": " +
                             io::describe_open_error(number),
                         std::move(details));
  }
  return read_baseline(file.get(), where);
}

contract::Outcome<Json> skill_result_of(const Json& document, std::string_view name) {
  const std::string what(name);
  if (!document.is_object()) {
    return compare_error(what + " must be a saved `skills run --json` object",
                         Json{{"reason", "not an object"}});
  }
  const auto result = document.find("skillResult");
  if (result == document.end()) {
    return compare_error(what + " is missing the top-level skillResult field",
                         Json{{"reason", "no skillResult"}});
  }
  if (result->is_null()) {
    return compare_error(what +
                             " has no parsed skillResult (the skill printed no readable "
                             "[Clawperator-Skill-Result] line)",
                         Json{{"reason", "skillResult is null"}});
  }
  if (!result->is_object()) {
    return compare_error(what + " has a skillResult that is not an object",
                         Json{{"reason", "skillResult is not an object"}});
  }
  SkillResultChecker checker;
  checker.check(*result);
  if (!checker.issues().empty()) {
    std::string joined;
    for (const std::string& issue : checker.issues()) {
      joined += (joined.empty() ? "" : "; ") + issue;
    }
    return compare_error(what + " contains an invalid skillResult: " + joined,
                         Json{{"reason", "invalid skillResult"}, {"issues", checker.issues()}});
  }
  return *result;
}

contract::Outcome<Json> read_compare_skill_result(const std::filesystem::path& path) {
  std::string text;
  if (auto problem = io::read_regular_file(path, kMaxCompareResultBytes, text)) {
    return compare_error("Cannot read the compare result " + path.string() + ": " + *problem,
                         Json{{"path", path.string()}, {"reason", *problem}});
  }
  const Json document = parse_json(text);
  if (document.is_discarded()) {
    return compare_error("The compare result " + path.string() + " is not valid JSON",
                         Json{{"path", path.string()}, {"reason", "not valid JSON"}});
  }
  auto result = skill_result_of(document, "The compare result " + path.string());
  if (!result) {
    HostError error = result.error();
    error.details["path"] = path.string();
    return Unexpected(std::move(error));
  }
  return result;
}

CompareReport compare_with_skill_result(const Baseline& baseline, const Json& skill_result,
                                        CompareMode mode) {
  const std::optional<std::string> app = primary_package(baseline);
  const std::vector<Checkpoint> expected = baseline_checkpoints(baseline, app);
  const std::vector<Checkpoint> actual = actual_checkpoints(skill_result);
  const std::string status = skill_result.at("status").get<std::string>();
  const std::string source_kind = skill_result.at("source").at("kind").get<std::string>();
  const bool literal =
      mode == CompareMode::Literal || (mode == CompareMode::Auto && source_kind != "agent");
  const std::optional<Json> divergence = first_divergence(expected, actual, status);
  const bool path_matches = !divergence.has_value();
  // Absent or null: "missing", as the original reports it.
  const auto verification_object = skill_result.find("terminalVerification");
  const std::string verification =
      verification_object != skill_result.end() && verification_object->is_object()
          ? verification_object->at("status").get<std::string>()
          : std::string("missing");
  const std::string outcome = outcome_of(literal, path_matches, skill_result, verification);

  Json report = Json::object();
  report["compareMode"] = literal ? "literal" : "semantic";
  report["outcome"] = outcome;
  report["summary"] = summary_of_outcome(outcome, divergence);
  report["pathMatches"] = path_matches;
  report["terminalVerificationStatus"] = verification;
  report["baseline"] =
      Json{{"appPackage", app ? Json(*app) : Json(nullptr)}, {"checkpointIds", ids_of(expected)}};
  Json actual_part = Json::object();
  actual_part["skillId"] = skill_result.at("skillId");
  actual_part["sourceKind"] = source_kind;
  actual_part["status"] = status;
  if (skill_result.contains("diagnostics") &&
      skill_result.at("diagnostics").contains("runtimeState")) {
    actual_part["runtimeState"] = skill_result.at("diagnostics").at("runtimeState");
  }
  actual_part["checkpointIds"] = ids_of(actual);
  report["actual"] = std::move(actual_part);
  if (divergence) report["firstDivergence"] = *divergence;
  const bool matched = outcome == "literal_match" || outcome == "semantic_match" ||
                       outcome == "outcome_matches_path_differs";
  return {std::move(report), !matched};
}

}  // namespace clawperator::recording
