// What ffprobe says of a finished recording: codec, size, duration and frame count, recorded in
// the manifest's video.probe so a reviewer sees what the file holds without playing it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::evidence {

struct VideoFacts {
  std::string codec;
  int width = 0;
  int height = 0;
  double duration_seconds = 0;
  long long frames = 0;
};

// ffprobe's arguments for `file` (JSON output, the first video stream, frames counted).
std::vector<std::string> ffprobe_arguments(const std::string& file);

// The facts from ffprobe's JSON, or what is missing from it in `problem`.
std::optional<VideoFacts> parse_ffprobe_output(std::string_view json, std::string& problem);

Json to_json(const VideoFacts& facts);

}  // namespace clawperator::evidence
