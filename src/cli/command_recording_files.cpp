// `recording parse`, `compile` and `export`: what is made of a recording on this
// host (docs/recording.md). No device; the work is src/recording/'s, this file only maps flags
// to its options and its documents to the output.
#include <cstdio>
#include <filesystem>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/json.hpp"
#include "clawperator/recording/compile.hpp"
#include "clawperator/recording/export.hpp"
#include "clawperator/recording/parse.hpp"
#include "clawperator/recording/recording_file.hpp"
#include "command_recording.hpp"

namespace clawperator::cli {
namespace {

namespace fs = std::filesystem;
using contract::HostError;

CommandResult file_flag_usage(std::string message, std::string_view flag) {
  return usage_failure(std::move(message), Json{{"flag", std::string(flag)}});
}

// A flag that names a file, typed with an empty value, is refused as the flag it is.
std::optional<CommandResult> refuse_empty_file_flag(const std::optional<std::string>& value,
                                                    std::string_view flag) {
  if (!value || !value->empty()) return std::nullopt;
  return file_flag_usage(std::string(flag) + " needs a file name", flag);
}

// The file `exec` reads: indented as a person edits it, a final newline.
std::string payload_text(const Json& payload) {
  return dump_json(payload, true) + "\n";
}

CommandResult compile_to(const fs::path& input, const std::optional<fs::path>& out,
                         bool close_app_first) {
  recording::CompileOptions options;
  options.close_app_first = close_app_first;
  auto compiled = recording::compile_recording(input, options);
  if (!compiled) return failure(compiled.error());
  Json document = recording::to_json(*compiled);
  if (out) {
    // One file `clawperator exec` runs whatever the length: the payload, or the sequence of
    // them when the recording needed several (docs/payload.md §12).
    const Json replay = compiled->payloads.size() == 1 ? compiled->payloads.front()
                                                       : Json{{"executions", compiled->payloads}};
    if (auto saved = io::write_file_atomically(*out, payload_text(replay)); !saved) {
      return failure(recording::recording_error(
          "RECORDING_PARSE_FAILED", "Cannot write " + out->string() + ": " + saved.error().message,
          Json{{"path", out->string()}}));
    }
    document["outputFile"] = out->string();
  }
  return success(std::move(document));
}

}  // namespace

CommandResult run_recording_parse(const RecordingFlags& flags, const GlobalOptions& options) {
  if (!flags.input) {
    return file_flag_usage(
        "recording parse --input <file> [--out <file>] [--as-execution] ('record' is an alias)",
        "--input");
  }
  if (auto refused = refuse_empty_file_flag(flags.input, "--input")) return std::move(*refused);
  if (auto refused = refuse_empty_file_flag(flags.out, "--out")) return std::move(*refused);
  if (flags.as_execution) {
    const fs::path out = flags.out
                             ? fs::path(*flags.out)
                             : recording::path_beside_recording(*flags.input, ".execution.json");
    return compile_to(*flags.input, out, flags.close_app_first);
  }
  recording::ParseOptions parse;
  parse.input = *flags.input;
  if (flags.out) parse.output = *flags.out;
  if (options.output == OutputFormat::Pretty) {
    // The original's line per step, for a person watching; JSON mode keeps stderr for
    // diagnostics (docs/contract.md §2).
    parse.on_step = [](const Json& step) {
      std::fprintf(stderr, "%s\n", recording::step_summary_line(step).c_str());
    };
  }
  auto document = recording::parse_recording(parse);
  if (!document) return failure(document.error());
  return success(std::move(*document));
}

CommandResult run_recording_compile(const RecordingFlags& flags) {
  if (!flags.input) {
    return file_flag_usage(
        "recording compile --input <file> [--out <file>] [--close-app-first] ('record' is an "
        "alias)",
        "--input");
  }
  if (auto refused = refuse_empty_file_flag(flags.input, "--input")) return std::move(*refused);
  if (auto refused = refuse_empty_file_flag(flags.out, "--out")) return std::move(*refused);
  std::optional<fs::path> out;
  if (flags.out) out = *flags.out;
  return compile_to(*flags.input, out, flags.close_app_first);
}

CommandResult run_recording_export(const RecordingFlags& flags) {
  if (!flags.input) {
    return file_flag_usage(
        "recording export --input <file|dir> [--out <file>] [--snapshots omit|include] "
        "('record' is an alias)",
        "--input");
  }
  if (auto refused = refuse_empty_file_flag(flags.input, "--input")) return std::move(*refused);
  if (auto refused = refuse_empty_file_flag(flags.out, "--out")) return std::move(*refused);
  recording::ExportOptions options;
  options.input = *flags.input;
  if (flags.out) options.output = *flags.out;
  if (flags.snapshots) {
    if (*flags.snapshots == "include") {
      options.snapshots = recording::SnapshotMode::Include;
    } else if (*flags.snapshots != "omit") {
      return file_flag_usage("--snapshots must be omit or include, not '" + *flags.snapshots + "'",
                             "--snapshots");
    }
  }
  auto document = recording::export_recording(options);
  if (!document) return failure(document.error());
  return success(std::move(*document));
}

}  // namespace clawperator::cli
