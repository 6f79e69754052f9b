// An execution run in parts under one device lock: a payload in policy segments
// (segmented_run.cpp) and a sequence of payloads (sequence_run.cpp). The device is resolved and
// locked once; each part runs under the lock's token (docs/wire-protocol.md §4.3), so nothing
// else reaches the device between two parts.
#pragma once

#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/exec/execution.hpp"
#include "device_lock.hpp"
#include "trace.hpp"

namespace clawperator::exec {

struct HeldDevice {
  std::string serial;
  std::string token;  // the lock's, for the parts (the caller's own when it inherited one)
};

// `request`'s device resolved and locked into `lock` (held until it is destroyed), recorded
// with `command_id`. Refused: the state directory's, the resolution's or the lock's error.
contract::Outcome<HeldDevice> hold_device(const ExecutionRequest& request, adb::AdbClient& client,
                                          DeviceLock& lock, process::Runner& runner,
                                          ExecutionTrace& trace, const std::string& command_id);

// A part's failure after earlier parts changed the device is not "nothing delivered": what ran
// did, and a retry would repeat it (docs/contract.md §5). `mutated`: a step that is not
// read-only succeeded before the failing part.
ExecutionReport after_earlier_effects(ExecutionReport report, bool mutated);

}  // namespace clawperator::exec
