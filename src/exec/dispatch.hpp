// Sending one command to the Operator and waiting for its result on an
// attached logcat reader (docs/wire-protocol.md §5, §7).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/transport/result_stream.hpp"
#include "result_reader.hpp"
#include "trace.hpp"

namespace clawperator::exec {

struct Dispatched {
  transport::CompleteResult result;
  std::vector<std::string> snapshot_blocks;
  long long dispatch_ms = 0;  // the am broadcast call
  long long result_ms = 0;    // from dispatch to the complete result
};

// The payload's last action: a timeout names it (the device's position is unknown).
struct LastAction {
  std::string id;
  std::string type;
};

struct DispatchOptions {
  std::chrono::milliseconds result_timeout{0};
  bool show_progress = false;
};

// Broadcasts `payload_json` and waits for the correlated result. Updates the
// trace's phase and dispatch state as evidence arrives; every failure is an
// error object built from the trace.
contract::Outcome<Dispatched> dispatch_and_wait(adb::AdbClient& client, const std::string& serial,
                                                ResultReader& reader,
                                                const std::string& payload_json,
                                                ExecutionTrace& trace,
                                                const LastAction& last_action,
                                                const DispatchOptions& options);

}  // namespace clawperator::exec
