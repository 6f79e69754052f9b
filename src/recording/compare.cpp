#include "clawperator/recording/compare.hpp"

#include <algorithm>
#include <utility>

#include "clawperator/io/bounded_file.hpp"
#include "clawperator/recording/compare_steps.hpp"
#include "clawperator/skills/skill_result.hpp"

namespace clawperator::recording {
namespace {

using contract::HostError;

// ---- The first divergence, in the original's shapes (findFirstDivergence) ----

// The skill reported a checkpoint where the recording has nothing more.
Json extra_checkpoint(std::size_t index, const ReportedCheckpoint& extra) {
  Json divergence = Json::object();
  divergence["index"] = index;
  divergence["baselineCheckpoint"] = "unexpected_extra_checkpoint";
  divergence["actualCheckpoint"] = extra.id;
  divergence["baselineStatus"] = nullptr;
  divergence["actualStatus"] = extra.status;
  if (extra.note) divergence["actualNote"] = *extra.note;
  return divergence;
}

// The skill's checkpoints ended where the recording expected `expected_id`.
Json missing_checkpoint(std::size_t index, std::string_view expected_id,
                        const std::string& expected_summary, const std::string& run_status) {
  Json divergence = Json::object();
  divergence["index"] = index;
  divergence["baselineCheckpoint"] = expected_id;
  divergence["actualCheckpoint"] =
      run_status == "failed" ? "failed_before_expected_checkpoint" : "missing_expected_checkpoint";
  divergence["baselineStatus"] = "ok";
  divergence["actualStatus"] = nullptr;
  divergence["baselineSummary"] = expected_summary;
  return divergence;
}

// The skill reported `got` where the recording expected `expected_id`, or `got` is not ok.
Json differing_checkpoint(std::size_t index, std::string_view expected_id,
                          const std::string& expected_summary, const ReportedCheckpoint& got) {
  Json divergence = Json::object();
  divergence["index"] = index;
  divergence["baselineCheckpoint"] = expected_id;
  divergence["actualCheckpoint"] = got.id;
  divergence["baselineStatus"] = "ok";
  divergence["actualStatus"] = got.status;
  divergence["baselineSummary"] = expected_summary;
  if (got.note) divergence["actualNote"] = *got.note;
  return divergence;
}

// The original's comparison: the first index where the ids differ, the skill's status is not
// ok, or one list ends before the other.
std::optional<Json> divergence_by_ids(const Baseline& baseline,
                                      const std::vector<OriginalCheckpoint>& expected,
                                      const std::vector<ReportedCheckpoint>& actual,
                                      const std::string& run_status) {
  const std::size_t length = std::max(expected.size(), actual.size());
  for (std::size_t index = 0; index < length; ++index) {
    if (index >= expected.size()) return extra_checkpoint(index, actual[index]);
    const OriginalCheckpoint& want = expected[index];
    const std::string& summary = baseline.events[want.event].summary;
    if (index >= actual.size()) return missing_checkpoint(index, want.id, summary, run_status);
    const ReportedCheckpoint& got = actual[index];
    if (got.id != want.id || got.status != "ok") {
      return differing_checkpoint(index, want.id, summary, got);
    }
  }
  return std::nullopt;
}

// The comparison by what was done: walking the skill's checkpoints in order, the first one
// that matched no step, passed over a step, or is not ok; then the first step left over.
std::optional<Json> divergence_by_steps(const std::vector<RecordedStep>& steps,
                                        const StepAlignment& alignment,
                                        const std::vector<ReportedCheckpoint>& actual,
                                        const std::string& run_status) {
  // The step the recording did next at `position`: none past the end, nor the final screen
  // when the result's statement of its end covers it.
  const auto expected_at = [&](std::size_t position) -> const RecordedStep* {
    if (position >= steps.size()) return nullptr;
    if (steps[position].kind == StepKind::FinalScreen && alignment.final_screen_by_end) {
      return nullptr;
    }
    return &steps[position];
  };
  std::size_t position = 0;
  for (std::size_t index = 0; index < actual.size(); ++index) {
    const ReportedCheckpoint& got = actual[index];
    const std::optional<std::size_t> matched = alignment.step_of_checkpoint[index];
    if (!matched) {
      const RecordedStep* want = expected_at(position);
      if (want == nullptr) return extra_checkpoint(index, got);
      return differing_checkpoint(index, want->id, want->summary, got);
    }
    // A step between the previous match and this one that no checkpoint covers.
    const RecordedStep& want = steps[std::min(position, *matched)];
    if (position < *matched || got.status != "ok") {
      return differing_checkpoint(index, want.id, want.summary, got);
    }
    position = *matched + 1;
  }
  if (const RecordedStep* want = expected_at(position)) {
    return missing_checkpoint(actual.size(), want->id, want->summary, run_status);
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

// The steps, each with what covers it: the index of its checkpoint in the skill's path,
// "terminal" (the final screen, by the result's statement of its end) or null.
Json steps_json(const std::vector<RecordedStep>& steps, const StepAlignment& alignment) {
  Json list = Json::array();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const RecordedStep& step = steps[i];
    Json item = Json::object();
    item["id"] = step.id;
    item["kind"] = to_string(step.kind);
    item["seq"] = step.seq;
    item["summary"] = step.summary;
    item["names"] = step.names;
    Json original_ids = Json::array();
    for (std::string_view id : step.original_ids) original_ids.push_back(id);
    item["checkpointIds"] = std::move(original_ids);
    if (const auto checkpoint = alignment.checkpoint_of_step[i]) {
      item["coveredBy"] = *checkpoint;
    } else {
      item["coveredBy"] = alignment.uncovered(i, steps) ? Json(nullptr) : Json("terminal");
    }
    list.push_back(std::move(item));
  }
  return list;
}

// SKILL_RESULT_MISSING: a saved run that holds no SkillResult. A run that failed before its
// script started is an error object without one (src/skills/skill_run.cpp adds skillResult
// only once the script ran): its code says why.
Unexpected<HostError> missing_skill_result(const Json& document, const std::string& what) {
  const bool absent = !document.contains("skillResult");
  const auto code = document.find("code");
  const std::string run_code =
      code != document.end() && code->is_string() ? code->get<std::string>() : std::string();
  std::string message =
      absent ? what + " has no top-level skillResult: " +
                   (run_code.empty()
                        ? std::string("it is not what `clawperator skills run --json` "
                                      "prints")
                        : "the saved run failed with " + run_code + " before its script ran")
             : what +
                   " has skillResult null: the skill's script printed no "
                   "[Clawperator-Skill-Result] line" +
                   (run_code.empty() ? std::string() : " (the run ended with " + run_code + ")");
  Json details{{"reason", absent ? "no skillResult" : "skillResult is null"}};
  if (!run_code.empty()) details["runCode"] = run_code;
  return Unexpected(
      contract::validation_error("SKILL_RESULT_MISSING", std::move(message), std::move(details)));
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
  if (result == document.end() || result->is_null()) {
    return missing_skill_result(document, what);
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

contract::Outcome<CompareReport> compare_with_skill_result(const Baseline& baseline,
                                                           const Json& skill_result,
                                                           CompareMode mode) {
  const std::optional<std::string> app = primary_package(baseline);
  const std::vector<OriginalCheckpoint> originals = original_checkpoints(baseline, app);
  const std::vector<RecordedStep> steps = recorded_steps(baseline, app, originals);
  const std::vector<ReportedCheckpoint> actual = reported_checkpoints(skill_result);
  auto alignment = align_checkpoints(steps, actual, states_its_end(skill_result));
  if (!alignment) return Unexpected(std::move(alignment.error()));
  const std::string status = skill_result.at("status").get<std::string>();
  const std::string source_kind = skill_result.at("source").at("kind").get<std::string>();
  const bool literal =
      mode == CompareMode::Literal || (mode == CompareMode::Auto && source_kind != "agent");
  // The path matches by the original's ids, as it always did, or by what was done.
  const std::optional<Json> by_ids = divergence_by_ids(baseline, originals, actual, status);
  const std::optional<Json> by_steps = divergence_by_steps(steps, *alignment, actual, status);
  const bool path_matches = !by_ids || !by_steps;
  // A skill that reports one of the original's ids is told where it left the original's path.
  const bool original_vocabulary =
      std::any_of(actual.begin(), actual.end(), [](const ReportedCheckpoint& checkpoint) {
        return is_original_checkpoint_id(checkpoint.id);
      });
  const std::optional<Json> divergence = path_matches          ? std::nullopt
                                         : original_vocabulary ? by_ids
                                                               : by_steps;
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
  report["pathMatchedBy"] = !by_ids     ? Json("checkpoint_ids")
                            : !by_steps ? Json("recorded_steps")
                                        : Json(nullptr);
  report["terminalVerificationStatus"] = verification;
  Json original_ids = Json::array();
  for (const OriginalCheckpoint& original : originals) original_ids.push_back(original.id);
  report["baseline"] = Json{{"appPackage", app ? Json(*app) : Json(nullptr)},
                            {"checkpointIds", std::move(original_ids)},
                            {"steps", steps_json(steps, *alignment)}};
  Json actual_part = Json::object();
  actual_part["skillId"] = skill_result.at("skillId");
  actual_part["sourceKind"] = source_kind;
  actual_part["status"] = status;
  if (skill_result.contains("diagnostics") &&
      skill_result.at("diagnostics").contains("runtimeState")) {
    actual_part["runtimeState"] = skill_result.at("diagnostics").at("runtimeState");
  }
  Json ids = Json::array(), matched_steps = Json::array(), unmatched = Json::array();
  for (std::size_t i = 0; i < actual.size(); ++i) {
    ids.push_back(actual[i].id);
    const std::optional<std::size_t> step = alignment->step_of_checkpoint[i];
    matched_steps.push_back(step ? Json(steps[*step].id) : Json(nullptr));
    if (!step) {
      unmatched.push_back(Json{{"index", i}, {"id", actual[i].id}, {"status", actual[i].status}});
    }
  }
  actual_part["checkpointIds"] = std::move(ids);
  actual_part["matchedSteps"] = std::move(matched_steps);
  report["actual"] = std::move(actual_part);
  report["unmatchedCheckpoints"] = std::move(unmatched);
  Json uncovered = Json::array();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (alignment->uncovered(i, steps)) {
      uncovered.push_back(Json{
          {"id", steps[i].id}, {"kind", to_string(steps[i].kind)}, {"summary", steps[i].summary}});
    }
  }
  report["uncoveredSteps"] = std::move(uncovered);
  if (divergence) report["firstDivergence"] = *divergence;
  const bool matched = outcome == "literal_match" || outcome == "semantic_match" ||
                       outcome == "outcome_matches_path_differs";
  return CompareReport{std::move(report), !matched};
}

}  // namespace clawperator::recording
