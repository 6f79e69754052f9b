// The one summary bench/run.sh reads from its timing clients (bench/mcp_calls.cpp,
// bench/serve_calls.cpp): "median mean stddev min" in milliseconds on one line, as hyperfine's
// numbers are for the CLI rows.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

namespace clawperator::bench {

inline void print_call_timings(std::vector<double> times_ms) {
  if (times_ms.empty()) return;
  std::sort(times_ms.begin(), times_ms.end());
  const std::size_t n = times_ms.size();
  const double median = n % 2 ? times_ms[n / 2] : (times_ms[n / 2 - 1] + times_ms[n / 2]) / 2;
  const double mean =
      std::accumulate(times_ms.begin(), times_ms.end(), 0.0) / static_cast<double>(n);
  double variance = 0;
  for (const double t : times_ms) variance += (t - mean) * (t - mean);
  const double stddev = std::sqrt(variance / static_cast<double>(n));
  std::printf("%.3f %.3f %.3f %.3f\n", median, mean, stddev, times_ms.front());
}

}  // namespace clawperator::bench
