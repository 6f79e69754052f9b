// UTC times as text. Written out by hand rather than with strftime: glibc's strftime calls
// tzset(), which reads /etc/localtime at every start although UTC needs no time zone.
#pragma once

#include <chrono>
#include <string>

namespace clawperator::io {

// ISO 8601 with milliseconds: 2026-11-30T13:04:05.123Z
std::string utc_timestamp(std::chrono::system_clock::time_point when);

// 2026-11-30
std::string utc_date(std::chrono::system_clock::time_point when);

}  // namespace clawperator::io
