// `recording compare` (the newest original's, docs/recording.md "compare"): a recording's export
// (the baseline) against a saved `skills run --json` result. The baseline is reduced to the
// original's checkpoints, compared in order with the skill's own, and the skill's status,
// runtime state and terminal verification decide the outcome.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

enum class CompareMode { Auto, Literal, Semantic };
// "auto", "literal", "semantic"; nullopt for anything else.
std::optional<CompareMode> compare_mode_named(std::string_view name);

// One export event reduced to what compare reads of it (its snapshot is not kept).
struct BaselineEvent {
  std::string type;          // window_change, click, scroll, press_key, text_change
  std::string package_name;  // empty for press_key (it has none) and when the event's is ""
  std::string summary;       // "click:<package>:<text>" … as the report shows it
  bool has_text = false;     // a text_change whose text is not blank
  // A click whose package, id, text, description or snapshot mentions (any case) the word.
  bool mentions_discharge = false, mentions_save = false, mentions_confirm = false;
};

struct Baseline {
  std::vector<BaselineEvent> events;
};

// Reads an export file (recording export's) event by event, so that one with every snapshot
// included costs the memory of its largest event; a file over kMaxCompareBaselineBytes is
// refused unread. RECORDING_COMPARE_FAILED when the file cannot be read or is not an export of
// exportVersion 1 (details.path, details.reason).
inline constexpr std::uintmax_t kMaxCompareBaselineBytes = std::uintmax_t{512} << 20;
contract::Outcome<Baseline> read_compare_baseline(const std::filesystem::path& path);
// The same from text already in memory (the fuzz target's and the unit tests').
contract::Outcome<Baseline> parse_compare_baseline(std::string_view text);

// A saved `skills run --json` document holds a top-level, non-null `skillResult` that is the
// original's SkillResult (source included). The most that is read: skills run's own output is
// two 4 MiB captures and a 1 MiB result line.
inline constexpr std::size_t kMaxCompareResultBytes = std::size_t{64} << 20;
contract::Outcome<Json> read_compare_skill_result(const std::filesystem::path& path);
// The skillResult of a parsed document, checked; errors name the field ("checkpoints[0].id")
// and the document as `name` ("The compare result run.json").
contract::Outcome<Json> skill_result_of(const Json& document,
                                        std::string_view name = "The compare result");

struct CompareReport {
  Json document;  // {compareMode, outcome, summary, pathMatches, …, firstDivergence?}
  // The outcome is not literal_match, semantic_match or outcome_matches_path_differs: the
  // command exits 1, as a failed check does.
  bool diverged = false;
};

// `skill_result` as skill_result_of returned it.
CompareReport compare_with_skill_result(const Baseline& baseline, const Json& skill_result,
                                        CompareMode mode);

}  // namespace clawperator::recording
