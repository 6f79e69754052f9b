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

// am broadcast -a 'ACTION' -p 'PKG' --es 'payload' 'JSON' [--es 'result_session' 'ID']
// --receiver-foreground (the session extra when `result_session` is not empty: the direct
// result transport, docs/wire-protocol.md §11).
std::string broadcast_command(std::string_view operator_package, std::string_view payload_json,
                              std::string_view result_session = {});

inline constexpr std::string_view kPrepareResultConnectionAction =
    "app.clawperator.operator.ACTION_PREPARE_RESULT_CONNECTION";

// am broadcast -a 'ACTION_PREPARE_RESULT_CONNECTION' -p 'PKG' --es 'payload' 'JSON'
// --receiver-foreground: opens a direct result session (docs/wire-protocol.md §11).
std::string prepare_result_connection_command(std::string_view operator_package,
                                              std::string_view request_json);

// The same command with the payload replaced: what logs may show.
std::string redacted_broadcast_command(std::string_view operator_package,
                                       std::string_view result_session = {});

// The broadcast of a payload already pushed to `device_path`: the device's sh reads the file
// into the extra ("$(cat 'PATH')", byte-exact for compact JSON, which never ends in a newline),
// then removes it and exits with am's status (docs/wire-protocol.md §5.4).
std::string file_broadcast_command(std::string_view operator_package, std::string_view device_path,
                                   std::string_view result_session = {});

}  // namespace clawperator::adb
