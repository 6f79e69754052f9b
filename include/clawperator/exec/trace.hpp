// What the exec path knows so far — identities, phase, dispatch state, earlier
// effects — so that any failure becomes an error object with the full evidence
// of spec/contract.md §3 and inventory 4.16.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::exec {

struct ExecutionTrace {
  std::string command_id;
  std::string task_id;
  std::string operator_package;
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
};

// For commands that run no execution (devices, packages, version, operator
// setup): the error without the correlation fields of one.
contract::HostError without_execution_fields(contract::HostError error);

}  // namespace clawperator::exec
