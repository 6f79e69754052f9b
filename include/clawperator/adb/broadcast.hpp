// What `adb shell am broadcast` said about the command it carried (docs/wire-protocol.md
// §5.3): pure, over the completed call.
#pragma once

#include <cstddef>
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
  // NotSent because adb (or the kernel's exec) refused this request itself, for its length:
  // why, in words for details.adbRefusal. Empty otherwise.
  std::string refusal;
};

// The largest device command whose service string fits a 4096-byte transport packet (adb 29:
// "shell,v2,raw:" + command + NUL; measured 4070 with room for a TERM= field).
inline constexpr std::size_t kOldDevicePacketCommandBytes = 4070;
// The adb client's request length is 4 hex digits: a longer service string is garbled.
inline constexpr std::size_t kMaxServiceStringBytes = 65535;

// `command_bytes`: the length of the device command the call carried (0: unknown), which
// tells adb's refusals of an over-long request from the same words said for other reasons
// (docs/wire-protocol.md §5.3).
BroadcastClassification classify_broadcast(const process::Completion& completion,
                                           std::size_t command_bytes = 0);

}  // namespace clawperator::adb
