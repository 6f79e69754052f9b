#include "preflight.hpp"

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/action_table.hpp"
#include "clawperator/operator_app/presence.hpp"

namespace clawperator::exec {

using contract::failed;
using contract::HostError;

contract::Outcome<std::string> resolve_device(adb::AdbClient& client,
                                              const std::optional<std::string>& requested,
                                              ExecutionTrace& trace) {
  contract::Outcome<std::string> serial = adb::resolve_device(client, requested);
  if (!serial) return failed(trace.attach(std::move(serial).error()));
  trace.device_id = *serial;
  return serial;
}

contract::Status check_operator_installed(adb::AdbClient& client, const std::string& serial,
                                          const ExecutionTrace& trace) {
  contract::Status installed =
      operator_app::require_operator(client, serial, trace.operator_package);
  if (!installed) return failed(trace.attach(std::move(installed).error()));
  return {};
}

contract::Status force_stop_closed_apps(adb::AdbClient& client, const std::string& serial,
                                        const contract::Execution& execution,
                                        ExecutionTrace& trace) {
  for (const contract::Action& action : execution.actions) {
    if (contract::action_spec(action.type).preflight !=
        contract::PreflightEffect::ForceStopApplication) {
      continue;
    }
    const std::string package = action.params_or_empty().application_id.value_or("");
    auto stopped =
        adb::run_device_shell_checked(client, serial,
                                      {"am force-stop " + adb::quote_for_device_shell(package),
                                       "close_app pre-flight force-stop for " + package});
    if (!stopped) {
      HostError error = std::move(stopped).error();
      error.details["applicationId"] = package;
      return failed(trace.attach(std::move(error)));
    }
    Json effect = Json::object();
    effect["actionId"] = action.id;
    effect["effect"] = "force_stop";
    trace.earlier_effects.push_back(std::move(effect));
  }
  return {};
}

}  // namespace clawperator::exec
