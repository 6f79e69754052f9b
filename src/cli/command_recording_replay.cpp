// `recording replay --input RECORDING [--verify] [--close-app-first]` (docs/recording.md,
// "replay"): the recording compiled on the fly and run as `exec` runs its file (one payload, or
// the sequence of them); with --verify, the screen it ended on is compared with the last one
// the recording saw (recording/replay_check.hpp), and exit 0 means they match.
#include "clawperator/contract/sequence.hpp"
#include "clawperator/recording/compile.hpp"
#include "clawperator/recording/replay_check.hpp"
#include "clawperator/service/actions.hpp"
#include "command_recording.hpp"

namespace clawperator::cli {
namespace {

// The compiled replay on the device: the payload, or the sequence of them.
CommandResult run_replay(const recording::CompiledRecording& compiled,
                         const GlobalOptions& options) {
  if (compiled.payloads.size() == 1) {
    auto admitted = contract::admit_execution(compiled.payloads.front(), options.timeout);
    if (!admitted) return failure(admitted.error());
    return run_on_device(std::move(*admitted), options);
  }
  auto admitted =
      contract::admit_sequence(Json{{"executions", compiled.payloads}}, options.timeout);
  if (!admitted) return failure(admitted.error());
  return run_sequence_on_device(std::move(*admitted), options);
}

// The screen in front now, read by one snapshot: its XML, or the snapshot's failure.
Expected<std::string, CommandResult> screen_now(const GlobalOptions& options) {
  auto snapshot = contract::admit_execution(service::build_snapshot(service::make_id_stamp()));
  if (!snapshot) return Unexpected(failure(snapshot.error()));
  CommandResult seen = run_on_device(std::move(*snapshot), options);
  if (seen.exit_code != 0) return Unexpected(std::move(seen));
  const Json& steps = seen.document["envelope"]["stepResults"];
  const Json text = steps.empty() ? Json() : steps[0]["data"].value("text", Json());
  if (!text.is_string()) {
    return Unexpected(failure(contract::make_error(
        contract::Phase::PostProcessing, "SNAPSHOT_EXTRACTION_FAILED",
        "The screen the replay ended on could not be read: the snapshot holds no hierarchy")));
  }
  return text.get<std::string>();
}

}  // namespace

CommandResult run_recording_replay(const RecordingFlags& flags, const GlobalOptions& options) {
  recording::CompileOptions compile_options;
  compile_options.close_app_first = flags.close_app_first;
  auto compiled = recording::compile_recording(*flags.input, compile_options);
  if (!compiled) return failure(compiled.error());
  Json replay = {{"sessionId", compiled->session_id},
                 {"payloadCount", compiled->payloads.size()},
                 {"warnings", compiled->warnings}};
  if (flags.verify && !compiled->final_screen) {
    contract::HostError error = contract::validation_error(
        "REPLAY_UNVERIFIABLE",
        "The recording shows no screen after its last step: there is nothing to verify the "
        "replay's end against",
        Json{{"sessionId", compiled->session_id}});
    return failure(error);
  }
  CommandResult run = run_replay(*compiled, options);
  if (!flags.verify) {
    run.document["replay"] = std::move(replay);
    return run;
  }
  replay["verified"] = false;
  if (run.exit_code != 0) {
    // A step of the replay failed: where it left the recording's path (a wait for a screen the
    // recording saw, or a tap on what it tapped).
    if (const auto failed = run.document.find("failedStep"); failed != run.document.end()) {
      replay["divergence"] = {{"step", *failed}};
    }
    run.document["replay"] = std::move(replay);
    return run;
  }
  auto screen = screen_now(options);
  if (!screen) {
    CommandResult unread = std::move(screen).error();
    unread.document["replay"] = std::move(replay);
    return unread;
  }
  auto compared = recording::compare_snapshots(*compiled->final_screen, *screen);
  if (!compared) {
    CommandResult unread = failure(contract::make_error(
        contract::Phase::PostProcessing, "SNAPSHOT_EXTRACTION_FAILED",
        "The screen the replay ended on could not be read: " + compared.error()));
    unread.document["replay"] = std::move(replay);
    return unread;
  }
  const recording::ScreenDifference& difference = *compared;
  if (difference.empty()) {
    replay["verified"] = true;
    replay["finalScreen"] = recording::labels_summary(*compiled->final_screen);
    run.document["replay"] = std::move(replay);
    return run;
  }
  Json details = recording::to_json(difference);
  details["sessionId"] = compiled->session_id;
  contract::HostError error = contract::make_error(
      contract::Phase::PostProcessing, "REPLAY_DIVERGED",
      "The replay ran to its end, but the screen it ended on is not the one the recording ended "
      "on",
      std::move(details));
  CommandResult diverged = failure(error);
  diverged.document["replay"] = std::move(replay);
  diverged.document["run"] = std::move(run.document);
  return diverged;
}

}  // namespace clawperator::cli
