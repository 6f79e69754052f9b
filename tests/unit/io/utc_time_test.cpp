#include "clawperator/io/utc_time.hpp"

#include <catch2/catch.hpp>

using namespace std::chrono;
using clawperator::io::utc_date;
using clawperator::io::utc_timestamp;

TEST_CASE("UTC timestamps are ISO 8601 with milliseconds", "[io][time]") {
  const system_clock::time_point when = sys_days{year{2026} / November / 30} + hours{13} +
                                        minutes{4} + seconds{5} + milliseconds{123};
  CHECK(utc_timestamp(when) == "2026-11-30T13:04:05.123Z");
  CHECK(utc_date(when) == "2026-11-30");
  CHECK(utc_timestamp(system_clock::time_point{}) == "1970-01-01T00:00:00.000Z");
  const system_clock::time_point leap_day_end = sys_days{year{2028} / February / 29} + hours{23} +
                                                minutes{59} + seconds{59} + milliseconds{999} +
                                                microseconds{999};
  CHECK(utc_timestamp(leap_day_end) == "2028-02-29T23:59:59.999Z");
  CHECK(utc_date(leap_day_end + microseconds{1}) == "2028-03-01");
}
