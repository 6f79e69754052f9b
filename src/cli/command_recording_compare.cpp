// `recording compare`: a recording's export against a saved skills run (docs/recording.md,
// "compare"); the report and whether it diverged are src/recording/compare.cpp's.
#include "clawperator/recording/compare.hpp"
#include "command_recording.hpp"

namespace clawperator::cli {

CommandResult run_recording_compare(const RecordingFlags& flags) {
  const auto usage = [](std::string message, std::string_view flag) {
    return usage_failure(std::move(message), Json{{"flag", std::string(flag)}});
  };
  const char* kLine =
      "recording compare --baseline <export.json> --result <skills-run.json> [--mode "
      "auto|literal|semantic] ('record' is an alias)";
  if (!flags.baseline || flags.baseline->empty()) return usage(kLine, "--baseline");
  if (!flags.result || flags.result->empty()) return usage(kLine, "--result");
  recording::CompareMode mode = recording::CompareMode::Auto;
  if (flags.mode) {
    const auto named = recording::compare_mode_named(*flags.mode);
    if (!named) {
      return usage("--mode must be auto, literal or semantic, not '" + *flags.mode + "'", "--mode");
    }
    mode = *named;
  }
  auto baseline = recording::read_compare_baseline(*flags.baseline);
  if (!baseline) return failure(baseline.error());
  auto skill_result = recording::read_compare_skill_result(*flags.result);
  if (!skill_result) return failure(skill_result.error());
  auto report = recording::compare_with_skill_result(*baseline, *skill_result, mode);
  if (!report) return failure(report.error());
  // A divergence is a check that failed (docs/contract.md §7): the same report, `ok` false and
  // exit 1, so that `ok` and the exit code agree as they do for every result here.
  CommandResult result = success(std::move(report->document));
  if (report->diverged) {
    result.document["ok"] = false;
    result.exit_code = contract::exit_code::kFailed;
  }
  return result;
}

}  // namespace clawperator::cli
