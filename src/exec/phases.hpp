// The exec path's two halves, for the runner of a payload in policy segments
// (segmented_run.cpp): one execution's phases (pipeline.cpp) and the policy's screen read.
#pragma once

#include <string>

#include "clawperator/exec/execution.hpp"
#include "clawperator/policy/policy.hpp"
#include "policy_gate.hpp"

namespace clawperator::exec {

// One execution, from the device's resolution to its result document; a request with a
// policy is judged as one segment (the first of policy::plan_segments) before the lock.
ExecutionReport run_phases(const ExecutionRequest& request, process::Runner& runner);

// One query_ui of every on-screen node on `serial`, under `request`'s transport and state and
// `lock_token` (the lock the caller holds, or its parent's), with a budget of its own
// (kPolicyScreenReadBudget). `purpose` names it: "<purpose>-query-<random>" is its command id,
// "clawperator-<purpose>" its source (the policy's, "policy"; NODE_NOT_FOUND's near matches,
// "near-matches").
Expected<Json, ScreenReadError> query_screen(const ExecutionRequest& request,
                                             process::Runner& runner, const std::string& serial,
                                             std::string_view purpose,
                                             const std::string& lock_token);

// A request with a policy: one execution when the policy judges everything on the screen as it
// is (one segment); else segment by segment under one device lock, each judged on the screen it
// will act on, the results merged into one document (docs/guardrails.md §3).
ExecutionReport run_under_policy(const ExecutionRequest& request, process::Runner& runner);

}  // namespace clawperator::exec
