// Other apps' log traffic, so that a reader of the device's logcat meets what it meets on a
// real phone: unrelated lines between (and inside) the Operator's records, odd tags, non-ASCII
// text, messages that look like markers.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace clawperator::vdevice::android {

struct NoiseLine {
  int uid = -1;
  int pid = 0;
  int tid = 0;
  char level = 'I';
  std::string tag;
  std::string message;
};

class LogNoise {
 public:
  explicit LogNoise(std::uint64_t seed, bool foreign_results);

  NoiseLine next();
  // Milliseconds until the next line for an average of `per_second` lines.
  long long next_gap_ms(double per_second);

 private:
  std::mt19937_64 random_;
  bool foreign_results_;
  std::uint64_t counter_ = 0;
};

}  // namespace clawperator::vdevice::android
