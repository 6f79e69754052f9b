// `recording compile` (and `parse --as-execution`): a recording turned into execution payloads
// that `exec` replays (docs/recording.md, "compile"). The first window change opens the app;
// each click targets the most stable matcher its event allows (resourceId, then text, then
// contentDesc, `strict` when the snapshot before the click shows it unique; the bounds' centre
// only as a last resort); text changes type into the field last clicked; the back key is
// press_key back; a wait_for_node for the next screen's anchor goes between steps, given the
// time the recording saw there; a scroll before a tap whose target it brought on screen is a
// scroll_until toward that target, any other scroll the same scroll by position. Every payload
// passes validate_execution; what cannot be replayed reliably is a warning naming its physical
// line.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// Each wait_for_node waits twice the time the recording saw between the step before it and
// the step it waits for (the screen was there within that time on the recording phone; twice
// leaves room for a slower one), within these bounds: at least 2 s for a recording made faster
// than a person acts (a script, adb input), at most 10 s since a longer gap is the person's
// pause, not the app's.
inline constexpr int kCompiledWaitMinMs = 2000;
inline constexpr int kCompiledWaitMaxMs = 10000;
// What each other action is given in a payload's timeoutMs: a tap, a key, typing or a launch
// is answered once dispatched; what the screen does after it is the next wait's to bear.
inline constexpr int kCompiledActionBudgetMs = 3000;
// A scroll_until toward a tap's target may scroll twice as often as the recording did, plus
// this: a replayed scroll moves 70% of its container (the Operator's distanceRatio default)
// where a person's swipe or fling may move a screen or more, and a list may have grown.
inline constexpr int kCompiledExtraScrolls = 3;
// The time each of those scrolls is given (a 300 ms swipe and its settling, twice over).
inline constexpr int kCompiledScrollBudgetMs = 1000;

struct CompiledRecording {
  std::string session_id;
  // In replay order. More than one only when the actions exceed one payload's limits (50
  // actions, 64000 bytes, a timeoutMs of 120000): run them one after the other.
  std::vector<Json> payloads;
  std::size_t action_count = 0;
  Json warnings = Json::array();  // strings "line <n> (seq <s>): …", capped (warnings.hpp)
  std::size_t warnings_omitted = 0;
  // The last screen the recording saw after its last step, its snapshot's XML (none when no
  // snapshot came after it): what `recording replay --verify` compares the replay's end with.
  std::optional<std::string> final_screen;
};

struct CompileOptions {
  // A close_app of the same package before the open_app, so that the replay starts from the
  // app's launch screen rather than wherever the app was left (docs/payload.md §2's habit).
  // Off by default: a recording that began inside the app would then start elsewhere.
  bool close_app_first = false;
};

// Errors: RECORDING_PARSE_FAILED / RECORDING_SCHEMA_VERSION_UNSUPPORTED for the recording;
// RECORDING_PARSE_FAILED "Recording has no replayable steps" when nothing can be replayed.
contract::Outcome<CompiledRecording> compile_recording(const std::filesystem::path& input,
                                                       const CompileOptions& options = {});

// The command's document: {ok: true, sessionId, actionCount, payloadCount, execution (the first
// payload) | executions (all, when more than one), warnings? , warningsOmitted?}.
Json to_json(const CompiledRecording& compiled);

// The deterministic id of a session's payloads: "recording-" + the id's letters, digits, '-'
// and '_' (others become '_'), within the payload's 128-character limit; "-part<k>" is added by
// compile when there are several payloads.
std::string compiled_command_id(const std::string& session_id);

}  // namespace clawperator::recording
