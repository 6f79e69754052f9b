// Sending one command to the Operator and waiting for its result on an
// attached logcat reader (docs/wire-protocol.md §5, §7).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/transport/result_stream.hpp"
#include "direct_reader.hpp"
#include "presence_check.hpp"
#include "result_reader.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// Why a result over the direct transport is never proven the Operator's (docs/guardrails.md §7):
// the socket's other end is whatever listens on its name.
inline constexpr std::string_view kDirectTransportUnproven =
    "the direct result transport does not show which app wrote the result";

struct Dispatched {
  transport::CompleteResult result;
  std::vector<std::string> snapshot_blocks;
  long long dispatch_ms = 0;  // the am broadcast call
  long long result_ms = 0;    // from dispatch to the complete result
  Json direct;                // details of the direct session (null: logcat)
  // Who wrote the result (docs/guardrails.md): {verified, uid | reason, foreignLines}.
  Json authenticity;
};

// The payload's last action: a timeout names it (the device's position is unknown).
struct LastAction {
  std::string id;
  std::string type;
};

struct DispatchOptions {
  std::chrono::milliseconds result_timeout{0};
  bool show_progress = false;
  // Where a payload too long to go inline is written before adb push (payload_route.hpp): the
  // verified state directory when this run has one, else `payload_directory`.
  const io::StateDirectory* payload_state = nullptr;
  std::filesystem::path payload_directory;
  // Set: the result comes over this direct session, not logcat (docs/wire-protocol.md §11).
  DirectReader* direct = nullptr;
  // Set: the Operator's presence is being asked beside this dispatch. It is waited for once the
  // broadcast returns, before any result line is read: its proof of absence ends the execution,
  // and its uids say who may write the result (presence_check.hpp).
  PresenceCheck* presence = nullptr;
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
