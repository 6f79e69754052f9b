// The CLI's global options as the service layer's Session (clawperator/service/session.hpp):
// one translation for the CLI's own commands and for `mcp serve`, which serves with them.
#pragma once

#include <memory>

#include "clawperator/cli/global_options.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::cli {

// adb, the device and package defaults, the state directory, the result transport, the
// authenticity demand, `policy` (load_action_policy's), the lock wait and the skill's lock
// token (CLAWPERATOR_DEVICE_LOCK_TOKEN), and a progress line when stderr is a terminal. A
// server adjusts what it decides for itself (its warm readers, its lock wait, MCP's approvals).
service::Session session_of(const GlobalOptions& options,
                            std::shared_ptr<const policy::Policy> policy);

}  // namespace clawperator::cli
