// `recording parse`: a recording file into its steps file (docs/recording.md, "parse"), as the
// original did it (open_app from the first window change, one click step per click, scroll and
// snapshot warnings, steps in seq order), read and written streaming, the file atomically.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// `.ndjson` replaced by `.steps.json`, else `.steps.json` appended (case-sensitive, as the
// original).
std::filesystem::path default_steps_path(const std::filesystem::path& input);

// The original's stderr line for a step: "[<seq>] " + type padded to 10 + " " + the package
// (open_app) or the click's text="…", resourceId=…, contentDesc="…" ("(no selector)").
std::string step_summary_line(const Json& step);

struct ParseOptions {
  std::filesystem::path input;
  std::optional<std::filesystem::path> output;  // default: default_steps_path(input)
  // Called with each step once it is written (the CLI prints step_summary_line to stderr).
  std::function<void(const Json& step)> on_step;
};

// Writes the steps file and returns the command's document: {ok: true, outputFile, stepCount}
// plus warnings (and warningsOmitted) when there are any. Errors: RECORDING_PARSE_FAILED
// (reading, validating or writing; details.path, details.line, details.errno as they apply),
// RECORDING_SCHEMA_VERSION_UNSUPPORTED. On an error the output path is left untouched.
contract::Outcome<Json> parse_recording(const ParseOptions& options);

}  // namespace clawperator::recording
