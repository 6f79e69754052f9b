// What `adb shell am broadcast` said about the command it carried (docs/wire-protocol.md
// §5.3): pure, over the completed call.
#pragma once

#include <string>

#include "clawperator/process/runner.hpp"

namespace clawperator::adb {

enum class BroadcastVerdict {
  Acknowledged,  // "Broadcast completed": the Operator's receiver got it
  Refused,       // the package does not exist: nothing was delivered
  NotSent,       // adb failed before reaching the device (spawn, device state)
  Uncertain,     // anything else: it may have been delivered
};

struct BroadcastClassification {
  BroadcastVerdict verdict = BroadcastVerdict::Uncertain;
  std::string detail;  // adb's own words, trimmed
};

BroadcastClassification classify_broadcast(const process::Completion& completion);

}  // namespace clawperator::adb
