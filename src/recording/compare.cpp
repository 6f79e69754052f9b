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
#include "clawperator/skills/skill_result.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

using contract::HostError;

// The original's baseline (compareRecording.ts of the newest original, its
// DEFAULT_BASELINE_CHECKPOINT_ORDER): the checkpoints its shipped skill reports, in order.
constexpr std::array<std::string_view, 4> kBaselineCheckpointOrder = {
    "app_opened", "discharge_to_row_focused", "target_text_entered", "save_completed"};
// A skill's checkpoint that states the end result; it is not part of the path.
constexpr std::string_view kTerminalCheckpointId = "terminal_state_verified";

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

contract::Outcome<Json> skill_result_of(const Json& document, std::string_view name) {
  const std::string what(name);
  if (!document.is_object()) {
    return compare_failure(what + " must be a saved `skills run --json` object",
                           Json{{"reason", "not an object"}});
  }
  const auto result = document.find("skillResult");
  if (result == document.end()) {
    return compare_failure(what + " is missing the top-level skillResult field",
                           Json{{"reason", "no skillResult"}});
  }
  if (result->is_null()) {
    return compare_failure(what +
                               " has no parsed skillResult (the skill printed no readable "
                               "[Clawperator-Skill-Result] line)",
                           Json{{"reason", "skillResult is null"}});
  }
  if (!result->is_object()) {
    return compare_failure(what + " has a skillResult that is not an object",
                           Json{{"reason", "skillResult is not an object"}});
  }
  const std::vector<std::string> issues = skills::skill_result_issues(*result);
  if (!issues.empty()) {
    std::string joined;
    for (const std::string& issue : issues) joined += (joined.empty() ? "" : "; ") + issue;
    return compare_failure(what + " contains an invalid skillResult: " + joined,
                           Json{{"reason", "invalid skillResult"}, {"issues", issues}});
  }
  return *result;
}

contract::Outcome<Json> read_compare_skill_result(const std::filesystem::path& path) {
  std::string text;
  if (auto read = io::read_regular_file(path, kMaxCompareResultBytes, text); !read) {
    return compare_failure(
        "Cannot read the compare result " + path.string() + ": " + read.error().message,
        Json{{"path", path.string()}, {"reason", read.error().message}});
  }
  const Json document = parse_json(text);
  if (document.is_discarded()) {
    return compare_failure("The compare result " + path.string() + " is not valid JSON",
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
