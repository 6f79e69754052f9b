#include "clawperator/exec/trace.hpp"

#include "clawperator/io/utc_time.hpp"

namespace clawperator::exec {

contract::HostError ExecutionTrace::fail(std::string code, std::string message, Json extra) const {
  contract::HostError error;
  error.code = std::move(code);
  error.message = std::move(message);
  error.phase = phase;
  error.dispatch_state = dispatch_state;
  error.actions = actions;
  Json& details = error.details;
  details["commandId"] = command_id;
  details["taskId"] = task_id;
  if (device_id) details["deviceId"] = *device_id;
  details["operatorPackage"] = operator_package;
  details["broadcastDispatchStatus"] = broadcast_status;
  if (!earlier_effects.empty()) details["earlierEffects"] = earlier_effects;
  if (probe_command_id) {
    details["probeCommandId"] = *probe_command_id;
    details["probeDispatchState"] = probe_dispatch_state.value_or("unknown");
  }
  details["startedAt"] = started_at;
  details["completedAt"] = io::utc_timestamp(std::chrono::system_clock::now());
  if (dispatch_started_at) details["dispatchStartedAt"] = *dispatch_started_at;
  for (auto& [key, value] : extra.items()) details[key] = std::move(value);
  return error;
}

contract::HostError without_execution_fields(contract::HostError error) {
  for (const char* key : {"commandId", "taskId", "broadcastDispatchStatus"}) {
    error.details.erase(key);
  }
  return error;
}

}  // namespace clawperator::exec
