// The action policy's check before anything is sent (docs/guardrails.md): a denied step stops
// the execution, a step that needs confirmation goes through only with a person's yes (the
// terminal, MCP elicitation) or a one-time token issued for this very payload.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// Allowed (or confirmed): success. Else POLICY_DENIED, CONFIRMATION_REQUIRED (with the token
// when the front end hands tokens out), CONFIRMATION_UNKNOWN or CONFIRMATION_DECLINED; all
// before dispatch. Every decision is logged ("policy.decision").
// `read_screen`: one query_ui of every on-screen node (its parsed `query`), asked only when a
// rule matches labels and a step aims at a point; nullopt when the screen could not be read
// (such a step then meets every label rule).
using ScreenReader = std::function<std::optional<Json>()>;
contract::Status check_policy(const ExecutionRequest& request, adb::AdbClient& client,
                              const std::string& serial, const ExecutionTrace& trace,
                              const ScreenReader& read_screen);

}  // namespace clawperator::exec
