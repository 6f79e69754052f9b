// Reduces one logcat line to its level, tag and message, so that the result stream can be
// read the same way whatever `-v` format adb printed.
#pragma once

#include <string_view>

namespace clawperator::transport {

struct LogcatLine {
  char level = 0;            // 'V', 'D', 'I', 'W', 'E', 'F', 'A' or 'S'; 0 when unrecognised
  std::string_view tag;      // padding removed; empty when unrecognised
  std::string_view message;  // after "): " or ": " (one space dropped); the trimmed line
                             // when unrecognised
  // The writer's uid as `-v uid` prints it: a number ("10123") or a name of at most five
  // letters ("shell", "root"); empty when the line shows none (no `-v uid`, or logd did not
  // know it). What the host checks a result's writer by (docs/guardrails.md).
  std::string_view uid;
};

// Formats: `-v time` "MM-DD HH:MM:SS.mmm L/Tag( pid): msg", `-v threadtime`
// "MM-DD HH:MM:SS.mmm  pid  tid L Tag: msg", `-v brief` "L/Tag( pid): msg" and `-v tag`
// "L/Tag: msg" (a "YYYY-" year and longer fractions are tolerated); with the `uid` modifier
// "L/Tag(10123: pid)", "L/Tag( root: pid)" and "MM-DD … 10123  pid  tid L Tag: msg". The views
// point into `line`; nothing is allocated.
LogcatLine parse_logcat_line(std::string_view line) noexcept;

}  // namespace clawperator::transport
