// What a recording did and what a skill says it did, for `recording compare` of any skill
// (docs/recording.md, "compare", "Steps and checkpoints"): the steps derived from the baseline
// (the app opened, each tap, each text entered, the final screen), the original's four
// checkpoints (the ids its one shipped skill reports), what each of the skill's checkpoints
// names, and the two lists aligned in order. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/recording/compare_baseline.hpp"

namespace clawperator::recording {

// The package most events name (an empty name does not count); the first seen wins a tie.
std::optional<std::string> primary_package(const Baseline& baseline);

// The original's checkpoints (compareRecording.ts of the newest original, its
// DEFAULT_BASELINE_CHECKPOINT_ORDER and normalizeRecordingExportForCompare), in that order,
// each with the baseline event its rule picks; one the recording has no event for is left out.
struct OriginalCheckpoint {
  std::string_view id;
  std::size_t event = 0;  // index in Baseline::events
};
std::vector<OriginalCheckpoint> original_checkpoints(const Baseline& baseline,
                                                     const std::optional<std::string>& app);
bool is_original_checkpoint_id(std::string_view id);

enum class StepKind { AppOpened, Tap, TextEntered, FinalScreen };
std::string_view to_string(StepKind kind);  // app_opened, tap, text_entered, final_screen

struct RecordedStep {
  std::string id;  // app_opened, tap_<n>, text_entered_<n> (1-based by kind), final_screen
  StepKind kind = StepKind::Tap;
  Json seq;             // the event's, as recorded
  std::string summary;  // the event's summary (BaselineEvent::summary)
  // What a checkpoint names to match the step, trimmed and not blank, as recorded.
  std::vector<std::string> names;
  // The original checkpoints whose rule picks this step's event (usually none, at most four).
  std::vector<std::string_view> original_ids;
};

// The app's events in seq order as steps; the final screen, when there is one, last.
std::vector<RecordedStep> recorded_steps(const Baseline& baseline,
                                         const std::optional<std::string>& app,
                                         const std::vector<OriginalCheckpoint>& originals);

// The checkpoint that states the end result (the original's); it is not part of the path.
inline constexpr std::string_view kTerminalCheckpointId = "terminal_state_verified";

// One of the skill's checkpoints, terminal_state_verified left out, and what it says it did.
struct ReportedCheckpoint {
  std::string id;
  std::string status;  // ok, failed, skipped
  std::optional<std::string> note;
  // Every text a checkpoint can name a step in: its note, its evidence's text, and each string
  // and number inside its evidence's JSON value.
  std::vector<std::string> texts;
};
// `skill_result` checked (skills/skill_result.hpp).
std::vector<ReportedCheckpoint> reported_checkpoints(const Json& skill_result);
// The result states its end: a terminalVerification object or a terminal_state_verified
// checkpoint.
bool states_its_end(const Json& skill_result);

// The alignment: each checkpoint in order matched to a step after the previous match.
struct StepAlignment {
  std::vector<std::optional<std::size_t>> step_of_checkpoint;
  std::vector<std::optional<std::size_t>> checkpoint_of_step;
  // The final screen no checkpoint matched is covered by the result's statement of its end.
  bool final_screen_by_end = false;

  // No checkpoint covers the step, nor (the final screen) the statement of the end.
  bool uncovered(std::size_t step, const std::vector<RecordedStep>& steps) const;
};

// The most matching may cost: the bytes of every checkpoint's texts times the names of the
// steps (each name is looked for in each text). A person's flow and a skill's checkpoints are
// far below; a larger pair is refused rather than compared for minutes.
inline constexpr std::uint64_t kMaxMatchWork = std::uint64_t{1} << 32;

// RECORDING_COMPARE_FAILED (details.reason "too large to match") past kMaxMatchWork.
contract::Outcome<StepAlignment> align_checkpoints(const std::vector<RecordedStep>& steps,
                                                   const std::vector<ReportedCheckpoint>& reported,
                                                   bool end_stated);

// The steps `text` names: those with a name that occurs in it, ignoring case, at word
// boundaries, and not inside a longer occurrence of another name. In step order. For tests.
std::vector<std::size_t> steps_named_in(const std::vector<RecordedStep>& steps,
                                        std::string_view text);

}  // namespace clawperator::recording
