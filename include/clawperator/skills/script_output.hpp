// What `skills run` reads from a script's output as it streams by (docs/skills.md, "Running a
// skill"): a bounded copy of each stream, the --expect-contains search over the whole stream,
// and the last `[Clawperator-Skill-Result]` line. Each takes the output in chunks of any size
// and keeps bounded memory whatever the script writes. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::skills {

// Per stream: the first kCaptureHeadBytes and the last kCaptureTailBytes are kept (4 MiB in
// all): the start says what the script set out to do, the end how it ended.
inline constexpr std::size_t kCaptureTailBytes = std::size_t{64} << 10;
inline constexpr std::size_t kCaptureHeadBytes = (std::size_t{4} << 20) - kCaptureTailBytes;

class BoundedCapture {
 public:
  explicit BoundedCapture(std::size_t head_bytes = kCaptureHeadBytes,
                          std::size_t tail_bytes = kCaptureTailBytes);
  void append(std::string_view bytes);
  // The bytes kept: the whole stream when it fit, else the head followed by the tail.
  std::string text() const;
  bool truncated() const { return total_ > head_cap_ + tail_cap_; }
  std::uint64_t total_bytes() const { return total_; }
  std::uint64_t omitted_bytes() const;

 private:
  std::size_t head_cap_, tail_cap_;
  std::string head_;
  // Up to twice tail_cap_ between trims, so that a trim moves tail_cap_ bytes at most once per
  // tail_cap_ bytes appended.
  std::string tail_;
  std::uint64_t total_ = 0;
};

// A case-sensitive substring search over a stream fed in chunks: a match that straddles two
// chunks is found. Keeps needle.size() - 1 bytes between chunks.
class StreamingSearch {
 public:
  explicit StreamingSearch(std::string needle);
  void feed(std::string_view chunk);
  bool found() const { return found_; }

 private:
  std::string needle_;
  std::string carry_;
  bool found_ = false;
};

inline constexpr std::string_view kSkillResultMarker = "[Clawperator-Skill-Result]";
// A result line longer than this is refused (SKILL_RESULT_PARSE_FAILED), not buffered.
inline constexpr std::size_t kMaxSkillResultLineBytes = std::size_t{1} << 20;

// The last line of stdout that starts with kSkillResultMarker, read as one JSON object (a
// trailing CR and surrounding white space ignored). Only such lines are buffered.
class SkillResultScanner {
 public:
  void feed(std::string_view chunk);
  // The end of the stream: a last line without its newline counts too.
  void finish();

  struct Line {
    Json value;  // the object, `source` added as {"kind":"script"} when absent
    // Non-empty: the line was there but is not one JSON object that is a SkillResult
    // (skills/skill_result.hpp).
    std::string error;
    std::uint64_t line_number = 0;
  };
  // nullopt: no result line. The last one wins, readable or not.
  const std::optional<Line>& last() const { return last_; }

 private:
  enum class Mode { Matching, Capturing, Skipping };
  void end_line();

  Mode mode_ = Mode::Matching;
  std::string buffer_;
  bool overflow_ = false;
  std::uint64_t line_number_ = 1;
  std::optional<Line> last_;
};

// One result line's text (after the marker) as SkillResultScanner reads it.
SkillResultScanner::Line read_skill_result(std::string_view text);

// The script's stdout without its kSkillResultMarker lines, read as one JSON document (white
// space around it allowed): skills run's `outputJson`. Null when what is left is empty, is not
// JSON, or holds more than one document.
Json script_output_json(std::string_view stdout_text);

}  // namespace clawperator::skills
