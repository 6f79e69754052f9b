// What the exec path knows so far — identities, phase, dispatch state, earlier
// effects — so that any failure becomes an error object with the full evidence
// of docs/contract.md §4.1.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::exec {

struct ExecutionTrace {
  std::string command_id;
  std::string task_id;
  std::string operator_package;
  // The Operator's uids from `pm list packages -U` (preflight or the presence check beside the
  // dispatch): who may write the result (docs/guardrails.md). Empty: not learned.
  std::vector<std::string> operator_uids;
  std::optional<std::string> device_id;
  contract::Phase phase = contract::Phase::Readiness;
  contract::DispatchState dispatch_state = contract::DispatchState::NotDispatched;
  contract::ActionProfile actions;
  Json earlier_effects = Json::array();
  std::string started_at;
  std::optional<std::string> dispatch_started_at;
  std::string broadcast_status = "not_sent";
  // A readiness probe that ran for this execution (never relabelled as ours).
  std::optional<std::string> probe_command_id;
  std::optional<std::string> probe_dispatch_state;

  // An error object carrying everything above plus `extra` details.
  contract::HostError fail(std::string code, std::string message,
                           Json extra = Json::object()) const;
  // `error` (from adb/ or a contract builder) as a failure of this execution: its phase,
  // dispatch state and correlation details, then the error's own details.
  contract::HostError attach(contract::HostError error) const;
};

// The trace of `execution` as it starts (its ids, its read-only profile, the time).
ExecutionTrace start_trace(const contract::Execution& execution,
                           const std::string& operator_package);

// Whole milliseconds from `start` to now: the elapsed times of the trace, the timings and the
// reader timelines.
inline long long millis_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

// The run was interrupted (Ctrl-C, SIGTERM): RESULT_TRANSPORT_CANCELLED for this execution,
// exit 130 or 143 by the signal received.
contract::HostError interrupted(const ExecutionTrace& trace, std::string message,
                                Json details = Json::object());

}  // namespace clawperator::exec
