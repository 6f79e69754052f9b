// Interactive readiness (docs/wire-protocol.md §4.4): before dispatching, make sure the
// screen is on and unlocked with a doctor_ping probe and bounded wake attempts.
// A good answer is cached per device for kReadinessCacheTtl so that a loop of
// execs does not pay for a probe every time; any failure clears it. The cache is
// a file in the verified state directory holding the package of the Operator that answered:
// its own mtime (fstat of the file opened without following links, owned by us) says when it
// was written.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "result_reader.hpp"
#include "trace.hpp"

namespace clawperator::exec {

inline constexpr std::chrono::seconds kReadinessCacheTtl{30};
inline constexpr std::chrono::milliseconds kWakeSettle{750};

class ReadinessCache {
 public:
  // `directory` null: no cache (never fresh; store and invalidate do nothing).
  ReadinessCache(const io::StateDirectory* directory, const std::string& device_key);
  bool fresh() const { return fresh_answer().has_value(); }
  // A fresh record: the package of the Operator whose answer it records (empty: it names
  // none, as a record of an older version). nullopt: none, or older than kReadinessCacheTtl.
  std::optional<std::string> fresh_answer() const;
  void store(std::string_view answered_package = {}) const;
  void invalidate() const;

 private:
  const io::StateDirectory* directory_;
  std::string name_;
};

// One doctor_ping through `reader` (already attached): the Operator's answer or
// the readiness error that explains its absence. Changes nothing on the device.
contract::Outcome<InteractiveState> probe_operator(
    adb::AdbClient& client, const std::string& serial, ResultReader& reader, ExecutionTrace& trace,
    const std::string& probe_id, std::chrono::milliseconds timeout = kProbeResultTimeout);

// A fresh unique command id for a probe.
std::string new_probe_command_id();

// Probes, wakes the screen if needed (at most three attempts), and returns the
// error that stops the execution, if any. Records the probe in the trace.
// `probe_id` names the probe command (empty: a fresh unique id).
contract::Status ensure_interactive(adb::AdbClient& client, const std::string& serial,
                                    ResultReader& reader, ExecutionTrace& trace,
                                    const std::string& probe_id = {});

// Background readiness (docs/wire-protocol.md §4.4): for an execution of background actions
// only, nothing that disturbs a locked phone, just the Direct-Boot check that the current user
// is unlocked (`am get-current-user`, `am get-started-user-state <id>`). RUNNING_LOCKED and
// RUNNING_UNLOCKING stop it with DEVICE_USER_NOT_UNLOCKED; an answer the host does not know
// means the probe is unsupported there and the Operator decides.
contract::Status ensure_user_unlocked(adb::AdbClient& client, const std::string& serial,
                                      ExecutionTrace& trace);

// The verdict on `am get-started-user-state`'s answer: true unlocked, false locked, nullopt
// unknown. Pure.
std::optional<bool> user_state_unlocked(std::string_view answer);

}  // namespace clawperator::exec
