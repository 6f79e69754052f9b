// logd's pruning of a chatty app (the scenario's `logcat.dropRate`): which of its records are
// dropped — a draw per record that depends on the seed, the pid and the record's rank only, so
// other apps' traffic and the host's timing do not change it — and the `chatty` line that logd
// shows in place of a run of dropped records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace clawperator::vdevice::android {

class LogPruning {
 public:
  LogPruning(std::uint64_t seed, double rate) noexcept : seed_(seed), rate_(rate) {}

  // Whether the next record of `pid` is dropped.
  bool drop(int pid);

 private:
  std::uint64_t seed_;
  double rate_;
  std::map<int, std::uint64_t> counters_;
};

// LogBufferElement::populateDroppedMessage's text, "uid=%u%s%s expire %u line%s":
//   uid=10103(com.clawperator.operator) DefaultDispatch expire 3 lines
std::string chatty_message(int uid, const std::string& package, const std::string& thread,
                           std::size_t count);

}  // namespace clawperator::vdevice::android
