// How the payload reaches the Operator (docs/wire-protocol.md §5.4): inline in the broadcast
// command when that fits every device's transport packet, else pushed to a device file that
// the broadcast command reads. Either way the Operator gets the exact bytes, or nothing.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/state_directory.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// The largest broadcast command sent inline. A device announcing a 4096-byte packet takes
// about 4070 bytes of command (adb 29 aborts its server on more, taking every device with
// it); 3 KiB leaves room for the service prefix, a TERM= field and adb versions that add
// more, and still carries every payload of a few actions inline (one adb call fewer).
inline constexpr std::size_t kInlineCommandLimit = 3072;

struct BroadcastRoute {
  std::string command;   // the device shell command of the broadcast
  std::string log_form;  // the same without the payload
  bool pushed = false;   // the payload went to a device file first
  std::size_t payload_bytes = 0;
};

// The command that delivers `payload_json` (with `result_session` when not empty). When it
// is too long to go inline, the payload is written to a new 0600 file, created by openat in the
// verified state directory `state` (else in `local_directory`, for a run without one), pushed
// to /data/local/tmp/clawperator-payload-<random>.json, and the local file is removed whatever
// happens; such files a killed run left in `state` (older than kStalePayloadAge) go first. A
// failed push is a dispatch failure with nothing dispatched (the device file, if any, is
// removed): BROADCAST_FAILED, or adb's classified refusal.
inline constexpr std::chrono::seconds kStalePayloadAge{600};
contract::Outcome<BroadcastRoute> route_payload(adb::AdbClient& client, const std::string& serial,
                                                const std::string& payload_json,
                                                const std::string& result_session,
                                                const io::StateDirectory* state,
                                                const std::filesystem::path& local_directory,
                                                const ExecutionTrace& trace);

}  // namespace clawperator::exec
