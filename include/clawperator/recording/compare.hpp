// `recording compare` (the newest original's, docs/recording.md "compare"): a recording's export
// (the baseline, read by compare_baseline.hpp) against a saved `skills run --json` result (its
// skillResult checked by skills/skill_result.hpp). The skill's checkpoints are compared in
// order with the original's four, by id, and with the steps the recording did, by what they
// did (compare_steps.hpp); the path matches either way, and the skill's status, runtime state
// and terminal verification decide the outcome.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/recording/compare_baseline.hpp"

namespace clawperator::recording {

enum class CompareMode { Auto, Literal, Semantic };
// "auto", "literal", "semantic"; nullopt for anything else.
std::optional<CompareMode> compare_mode_named(std::string_view name);

// A saved `skills run --json` document holds a top-level, non-null `skillResult` that is the
// original's SkillResult (source included). The most that is read: skills run's own output is
// two 4 MiB captures and a 1 MiB result line.
inline constexpr std::size_t kMaxCompareResultBytes = std::size_t{64} << 20;
contract::Outcome<Json> read_compare_skill_result(const std::filesystem::path& path);
// The skillResult of a parsed document, checked; errors name the field ("checkpoints[0].id")
// and the document as `name` ("The compare result run.json"). An object without one (no
// skillResult, or null: the script printed no result line) is SKILL_RESULT_MISSING; any other
// fault RECORDING_COMPARE_FAILED.
contract::Outcome<Json> skill_result_of(const Json& document,
                                        std::string_view name = "The compare result");

struct CompareReport {
  Json document;  // {compareMode, outcome, summary, pathMatches, pathMatchedBy, …}
  // The outcome is not literal_match, semantic_match or outcome_matches_path_differs: the
  // command exits 1, as a failed check does.
  bool diverged = false;
};

// `skill_result` as skill_result_of returned it. RECORDING_COMPARE_FAILED only when the two
// are too large to match (compare_steps.hpp, kMaxMatchWork).
contract::Outcome<CompareReport> compare_with_skill_result(const Baseline& baseline,
                                                           const Json& skill_result,
                                                           CompareMode mode);

}  // namespace clawperator::recording
