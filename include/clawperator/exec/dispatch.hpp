// Sending one command to the Operator and waiting for its result on an
// attached logcat reader (spec/wire.md "Dispatch", "The result stream").
#pragma once

#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/result_reader.hpp"
#include "clawperator/exec/trace.hpp"
#include "clawperator/transport/result_stream.hpp"

namespace clawperator::exec {

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

struct Dispatched {
  transport::CompleteResult result;
  std::vector<std::string> snapshot_blocks;
  long long dispatch_ms = 0;  // the am broadcast call
  long long result_ms = 0;    // from dispatch to the complete result
};

struct DispatchOptions {
  std::chrono::milliseconds result_timeout{0};
  bool show_progress = false;
};

// Broadcasts `payload_json` and waits for the correlated result. Updates the
// trace's phase and dispatch state as evidence arrives; every failure is an
// error object built from the trace.
std::variant<Dispatched, contract::HostError> dispatch_and_wait(
    adb::AdbClient& client, const std::string& serial, ResultReader& reader,
    const std::string& payload_json, ExecutionTrace& trace, const Json& last_action,
    const DispatchOptions& options);

}  // namespace clawperator::exec
