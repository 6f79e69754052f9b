// `adb -s SERIAL shell COMMAND`, spoken to an adb server on this host's loopback in the adb
// client's place: the same requests it sends (`host:transport:SERIAL`, then
// `shell,v2,TERM=xterm,raw:COMMAND`, then close-stdin, as with stdin from /dev/null), and the
// same outcome it would exit with (stdout, stderr, the exit packet's status; 0 when the stream
// ends without one, as adb 29 does). An exec's broadcast costs one server round trip instead of
// starting an adb process, which was most of it (docs/performance.md, "exec against one round
// trip"). AdbClient uses it only after the logcat relay saw its own adb executable ask this
// server for shell v2 (docs/wire-protocol.md §2.7).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::adb {

// Why the command was not started: no connection, or the server refused the transport (FAIL
// and its message: the device is gone, offline, unauthorized). Nothing was asked of the
// device, so the adb client may run the command and say what is wrong in its own words. Once
// the service was asked for, every outcome is a Completion: the device may have run it.
struct ServerShellError {
  std::string reason;
};

// The longest service request spoken to the server: it travels to the device in one packet, and
// the smallest packet a device announces is 4096 bytes (payload_route.hpp). A longer command is
// refused before anything is sent, so that the adb client runs it and applies its own limits.
inline constexpr std::size_t kMaxServerShellRequest = 4096;

// Runs `command` within `timeout`; stops at once when `token` is cancelled or an interrupt
// arrives (Completion::Status::Cancelled), at the timeout with TimedOut, keeping what arrived.
Expected<process::Completion, ServerShellError> shell_via_server(const LoopbackTcpServer& server,
                                                                 const std::string& serial,
                                                                 const std::string& command,
                                                                 std::chrono::milliseconds timeout,
                                                                 const process::CancelToken& token,
                                                                 std::size_t max_output_bytes);

}  // namespace clawperator::adb
