// `clawperator recording <subcommand>` (alias `record`, docs/recording.md): the flags of every
// subcommand, parsed by one CLI11 subcommand, and the handler of each group (one file each).
#pragma once

#include <optional>
#include <string>

#include "clawperator/cli/command.hpp"

namespace clawperator::cli {

struct RecordingFlags {
  std::string action;  // start, stop, pull, parse, compile, replay, export, compare
  std::optional<std::string> session_id;  // start, stop, pull
  std::optional<std::string> out;         // pull: a directory; parse, compile, export: a file
  bool force = false;                     // pull
  std::optional<std::string> input;       // parse, compile, replay, export
  bool as_execution = false;              // parse
  bool close_app_first = false;           // parse --as-execution, compile, replay
  std::optional<std::string> snapshots;   // export
  std::optional<std::string> baseline, result, mode;  // compare
  bool verify = false;                                // replay
};

// start, stop and pull: the device (src/cli/command_recording_device.cpp).
CommandResult run_recording_control(const RecordingFlags& flags, const GlobalOptions& options);
CommandResult run_recording_pull(const RecordingFlags& flags, const GlobalOptions& options);
// parse, compile and export: local files (command_recording_files.cpp).
CommandResult run_recording_parse(const RecordingFlags& flags, const GlobalOptions& options);
CommandResult run_recording_compile(const RecordingFlags& flags);
CommandResult run_recording_export(const RecordingFlags& flags);
// replay: compiled and run on the device, --verify (command_recording_replay.cpp).
CommandResult run_recording_replay(const RecordingFlags& flags, const GlobalOptions& options);
// compare (command_recording_compare.cpp).
CommandResult run_recording_compare(const RecordingFlags& flags);

}  // namespace clawperator::cli
