#include "clawperator/exec/trace.hpp"

#include <cstdio>
#include <ctime>

namespace clawperator::exec {

std::string iso_timestamp(std::chrono::system_clock::time_point when) {
  const auto since_epoch = when.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds).count();
  const std::time_t time = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&time, &utc);
  char buffer[40];
  const std::size_t length = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  char result[64];
  std::snprintf(result, sizeof result, "%.*s.%03dZ", static_cast<int>(length), buffer,
                static_cast<int>(millis));
  return result;
}

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
  details["completedAt"] = iso_timestamp(std::chrono::system_clock::now());
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
