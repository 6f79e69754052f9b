// Everything before the broadcast: which device, is the Operator there, and the
// host-side force-stops of close_app actions (docs/wire-protocol.md §4).
#pragma once

#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// The serial to use (adb::resolve_device), recorded in the trace.
contract::Outcome<std::string> resolve_device(adb::AdbClient& client,
                                              const std::optional<std::string>& requested,
                                              ExecutionTrace& trace);

// One `pm list packages -U` for both variants (its filter is a substring match); the
// Operator's uids go to trace.operator_uids.
contract::Status check_operator_installed(adb::AdbClient& client, const std::string& serial,
                                          ExecutionTrace& trace);

// `am force-stop` for each action whose row asks for it, recorded in trace.earlier_effects.
contract::Status force_stop_closed_apps(adb::AdbClient& client, const std::string& serial,
                                        const contract::Execution& execution,
                                        ExecutionTrace& trace);

// For the actions whose row needs a minimum Android API level (drag: 26), one
// `getprop ro.build.version.sdk`; below it the execution stops with GESTURE_UNSUPPORTED before
// anything is sent. No call at all when the payload has no such action.
contract::Status require_gesture_sdk(adb::AdbClient& client, const std::string& serial,
                                     const contract::Execution& execution,
                                     const ExecutionTrace& trace);

}  // namespace clawperator::exec
