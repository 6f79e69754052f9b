// Building command lines for the device's shell. adb joins its arguments with
// spaces and the device sh re-parses them, so every value we pass is quoted
// here, once, with POSIX single quotes.
#pragma once

#include <string>
#include <string_view>

namespace clawperator::adb {

// 'value', with each ' written as '"'"' — byte-exact for any input.
std::string quote_for_device_shell(std::string_view value);

inline constexpr std::string_view kAgentCommandAction =
    "app.clawperator.operator.ACTION_AGENT_COMMAND";

// am broadcast -a 'ACTION' -p 'PKG' --es 'payload' 'JSON' --receiver-foreground
std::string broadcast_command(std::string_view operator_package, std::string_view payload_json);

// The same command with the payload replaced: what logs may show.
std::string redacted_broadcast_command(std::string_view operator_package);

}  // namespace clawperator::adb
