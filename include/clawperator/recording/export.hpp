// `recording export` (the newest original's, docs/recording.md "export"): every event of a
// recording in seq order with its time since the previous one and its snapshot kept or
// omitted, then counts by type, the package transitions and the timeline; written streaming
// and atomically.
#pragma once

#include <filesystem>
#include <optional>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

enum class SnapshotMode { Omit, Include };
std::string_view to_string(SnapshotMode mode);

struct ExportOptions {
  // A recording file, or a directory: its newest *.ndjson (newest_recording_in).
  std::filesystem::path input;
  std::optional<std::filesystem::path> output;  // default: default_export_path(the recording)
  SnapshotMode snapshots = SnapshotMode::Omit;
};

// `.ndjson` replaced by `.export.json`, else `.export.json` appended.
std::filesystem::path default_export_path(const std::filesystem::path& recording);

// Writes the export file and returns the command's document {ok: true, outputFile, sessionId,
// eventCount, packageTransitionCount, byType}. Errors: RECORDING_PARSE_FAILED and
// RECORDING_SCHEMA_VERSION_UNSUPPORTED for the recording, RECORDING_EXPORT_FAILED for the
// directory (nothing to export) and the output (details.path, details.errno).
contract::Outcome<Json> export_recording(const ExportOptions& options);

}  // namespace clawperator::recording
