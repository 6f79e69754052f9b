// A TCP connection to an adb server on this host's loopback, within a deadline, with Nagle's
// algorithm off (our writes are small requests that nothing should hold back). Shared by the
// logcat relay (server_relay.cpp) and the shell calls spoken to the server (server_shell.cpp).
#pragma once

#include <chrono>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::adb {

// Non-blocking; invalid when nothing accepted before `deadline`.
process::UniqueFd connect_to_loopback_server(const LoopbackTcpServer& server,
                                             std::chrono::steady_clock::time_point deadline);

}  // namespace clawperator::adb
