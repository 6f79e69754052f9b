#include "preflight.hpp"

#include <charconv>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/action_table.hpp"
#include "clawperator/operator_app/presence.hpp"
#include "clawperator/text.hpp"

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
                                          ExecutionTrace& trace) {
  auto located = operator_app::locate_operator(client, serial, trace.operator_package);
  if (!located) return failed(trace.attach(std::move(located).error()));
  trace.operator_uids = std::move(*located);
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

contract::Status require_gesture_sdk(adb::AdbClient& client, const std::string& serial,
                                     const contract::Execution& execution,
                                     const ExecutionTrace& trace) {
  const contract::Action* needing = nullptr;
  int min_sdk = 0;
  for (const contract::Action& action : execution.actions) {
    const contract::ActionSpec& spec = contract::action_spec(action.type);
    if (spec.preflight != contract::PreflightEffect::RequireGestureSdk) continue;
    if (needing == nullptr || spec.min_sdk > min_sdk) {
      needing = &action;
      min_sdk = spec.min_sdk;
    }
  }
  if (needing == nullptr) return {};
  auto read = adb::run_device_shell_checked(
      client, serial, {"getprop ro.build.version.sdk", "getprop ro.build.version.sdk"});
  if (!read) return failed(trace.attach(std::move(read).error()));
  const std::string text(trim(read->out));
  int sdk = 0;
  const auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), sdk);
  // An unreadable level is left to the Operator, which refuses the gesture itself.
  if (problem != std::errc() || end != text.data() + text.size() || text.empty()) return {};
  if (sdk >= min_sdk) return {};
  const std::string_view type = contract::action_spec(needing->type).name;
  Json details = Json::object();
  details["actionId"] = needing->id;
  details["actionType"] = type;
  details["sdkInt"] = sdk;
  details["minSdk"] = min_sdk;
  return failed(trace.fail("GESTURE_UNSUPPORTED",
                           std::string(type) + " requires Android API " + std::to_string(min_sdk) +
                               " or newer; the device runs API " + std::to_string(sdk),
                           details));
}

}  // namespace clawperator::exec
