#include "clawperator/io/utc_time.hpp"

#include <cstdio>

namespace clawperator::io {
namespace {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::milliseconds;
using std::chrono::system_clock;

struct Parts {
  std::chrono::year_month_day date;
  std::chrono::hh_mm_ss<milliseconds> time;
};

Parts split(system_clock::time_point when) {
  const auto millis = floor<milliseconds>(when);
  const auto day = floor<days>(millis);
  return {std::chrono::year_month_day(day), std::chrono::hh_mm_ss<milliseconds>(millis - day)};
}

}  // namespace

std::string utc_timestamp(system_clock::time_point when) {
  const Parts parts = split(when);
  char text[40];
  const int length = std::snprintf(
      text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(parts.date.year()),
      static_cast<unsigned>(parts.date.month()), static_cast<unsigned>(parts.date.day()),
      static_cast<int>(parts.time.hours().count()), static_cast<int>(parts.time.minutes().count()),
      static_cast<int>(parts.time.seconds().count()),
      static_cast<int>(parts.time.subseconds().count()));
  return std::string(text, static_cast<std::size_t>(length));
}

std::string utc_date(system_clock::time_point when) {
  return utc_timestamp(when).substr(0, 10);
}

}  // namespace clawperator::io
