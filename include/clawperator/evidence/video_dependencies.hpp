// The host programs a video recorder needs, checked before anything is spawned for a session
// (HOST_DEPENDENCY_MISSING with details.dependencies) and by doctor's optional
// host.video.dependencies check (docs/evidence.md, "Video prerequisites").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::evidence {

// screenrecord: the device's own recorder, pulled over adb; scrcpy: scrcpy 3.0 or newer on the
// host records the mirrored screen.
enum class Recorder { Screenrecord, Scrcpy };
std::string_view to_string(Recorder recorder);
std::optional<Recorder> parse_recorder(std::string_view text);

struct Dependency {
  std::string name;         // ffprobe, scrcpy
  std::string executable;   // as run: $FFPROBE_PATH / $SCRCPY_PATH, else the name (PATH)
  std::string source;       // FFPROBE_PATH, SCRCPY_PATH or PATH
  std::string requirement;  // what we need of it, in words
  std::optional<std::string> version;
  // Empty: usable. Else "missing", "fails to run" or "version X is older than 3.0".
  std::string problem;
  std::string detail;  // the failed run's first line of output, or the errno text
};

// getenv semantics, injectable for tests.
using VariableLookup = std::function<const char*(const char*)>;

// ffprobe for every recorder (a recording nobody can check is not evidence); scrcpy too for
// Recorder::Scrcpy. Each is run once with its version flag (5 s deadline).
std::vector<Dependency> check_video_dependencies(Recorder recorder, process::Runner& runner,
                                                 const VariableLookup& variable);

// HOST_DEPENDENCY_MISSING naming each unusable dependency in details.dependencies
// ([{name, executable, source, problem, requirement, version, detail}]); success when all are
// usable.
contract::Status dependency_error(const std::vector<Dependency>& dependencies);

// "scrcpy 3.1 <https://github.com/Genymobile/scrcpy>" → {3, 1}; nullopt for anything else.
std::optional<std::pair<int, int>> parse_scrcpy_version(std::string_view output);
// "ffprobe version 5.1.9-0+deb12u1 Copyright …" → "5.1.9-0+deb12u1".
std::optional<std::string> parse_ffprobe_version(std::string_view output);

}  // namespace clawperator::evidence
