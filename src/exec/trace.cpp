#include "trace.hpp"

#include "clawperator/io/utc_time.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::exec {

contract::HostError ExecutionTrace::fail(std::string code, std::string message, Json extra) const {
  return attach(contract::make_error(phase, std::move(code), std::move(message), std::move(extra)));
}

contract::HostError ExecutionTrace::attach(contract::HostError error) const {
  error.phase = phase;
  error.dispatch_state = dispatch_state;
  error.actions = actions;
  Json extra = std::move(error.details);
  error.details = Json::object();
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

contract::HostError interrupted(const ExecutionTrace& trace, std::string message, Json details) {
  return trace.attach(contract::interrupted_error(std::move(message), process::interrupted_signal(),
                                                  std::move(details)));
}

ExecutionTrace start_trace(const contract::Execution& execution,
                           const std::string& operator_package) {
  ExecutionTrace trace;
  trace.command_id = execution.command_id;
  trace.task_id = execution.task_id;
  trace.operator_package = operator_package;
  trace.actions = {true, execution.read_only()};
  trace.started_at = io::utc_timestamp(std::chrono::system_clock::now());
  return trace;
}

}  // namespace clawperator::exec
