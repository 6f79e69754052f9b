#include "clawperator/evidence/video_probe.hpp"

#include <charconv>
#include <cmath>

namespace clawperator::evidence {
namespace {

// ffprobe prints numbers as JSON numbers or, for durations and counts, as strings.
std::optional<double> number_of(const Json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  double parsed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(parsed)) {
    return std::nullopt;
  }
  return parsed;
}

}  // namespace

std::vector<std::string> ffprobe_arguments(const std::string& file) {
  return {"-v",
          "error",
          "-select_streams",
          "v:0",
          "-count_frames",
          "-show_entries",
          "stream=codec_name,width,height,duration,nb_read_frames:format=duration",
          "-of",
          "json",
          file};
}

std::optional<VideoFacts> parse_ffprobe_output(std::string_view text, std::string& problem) {
  const Json json = parse_json(text);
  if (!json.is_object()) {
    problem = "ffprobe printed no JSON";
    return std::nullopt;
  }
  const Json streams = json.value("streams", Json());
  if (!streams.is_array() || streams.empty() || !streams[0].is_object()) {
    problem = "ffprobe found no video stream";
    return std::nullopt;
  }
  const Json& stream = streams[0];
  VideoFacts facts;
  facts.codec = stream.value("codec_name", "");
  const auto width = number_of(stream.value("width", Json()));
  const auto height = number_of(stream.value("height", Json()));
  const auto frames = number_of(stream.value("nb_read_frames", Json()));
  auto duration = number_of(stream.value("duration", Json()));
  if (!duration && json.value("format", Json()).is_object()) {
    duration = number_of(json["format"].value("duration", Json()));
  }
  if (facts.codec.empty() || !width || !height || !frames || !duration) {
    problem = "ffprobe did not report the codec, size, frame count and duration";
    return std::nullopt;
  }
  facts.width = static_cast<int>(*width);
  facts.height = static_cast<int>(*height);
  facts.frames = static_cast<long long>(*frames);
  facts.duration_seconds = *duration;
  return facts;
}

Json to_json(const VideoFacts& facts) {
  return {{"codec", facts.codec},
          {"width", facts.width},
          {"height", facts.height},
          {"durationSeconds", std::round(facts.duration_seconds * 1000) / 1000},
          {"frames", facts.frames}};
}

}  // namespace clawperator::evidence
