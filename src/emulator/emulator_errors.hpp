// What src/emulator's files share: the shape of their errors and of a wait. Private.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/emulator/lifecycle.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::emulator {

// An EMULATOR_* or ANDROID_* error: nothing was sent to a device's Operator (readiness).
contract::HostError emulator_error(std::string code, std::string message,
                                   Json details = Json::object());

// The failure of an SDK tool's call, or nothing when it exited 0: a tool that is not there is
// ANDROID_SDK_TOOL_MISSING, an interrupt RESULT_TRANSPORT_CANCELLED, anything else `code`
// with `what` and the end of its stderr.
contract::Status tool_failure(const process::Completion& completion, std::string_view tool,
                              std::string_view what, std::string code,
                              Json details = Json::object());

// Sleeps `duration`, or less when Ctrl-C (or SIGTERM) arrives: then RESULT_TRANSPORT_CANCELLED.
contract::Status pause(EmulatorHost& host, std::chrono::milliseconds duration);

}  // namespace clawperator::emulator
