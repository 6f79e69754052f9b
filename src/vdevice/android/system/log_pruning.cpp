#include "vdevice/android/system/log_pruning.hpp"

namespace clawperator::vdevice::android {
namespace {

// SplitMix64's finaliser: consecutive inputs give unrelated outputs.
std::uint64_t mix(std::uint64_t value) noexcept {
  value += 0x9E3779B97F4A7C15ULL;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

}  // namespace

bool LogPruning::drop(int pid) {
  if (rate_ <= 0) return false;
  const std::uint64_t rank = counters_[pid]++;
  const std::uint64_t draw = mix(mix(seed_ ^ (static_cast<std::uint64_t>(pid) << 32)) ^ rank);
  // The top 53 bits as a double in [0, 1).
  return static_cast<double>(draw >> 11) * 0x1.0p-53 < rate_;
}

std::string chatty_message(int uid, const std::string& package, const std::string& thread,
                           std::size_t count) {
  std::string text = "uid=" + std::to_string(uid);
  if (!package.empty()) text += "(" + package + ")";
  if (!thread.empty()) text += " " + thread;
  return text + " expire " + std::to_string(count) + (count == 1 ? " line" : " lines");
}

}  // namespace clawperator::vdevice::android
