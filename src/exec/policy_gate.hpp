// The action policy's check before anything is sent (docs/guardrails.md): a denied step stops
// the execution, a step that needs confirmation goes through only with a person's yes: asked
// here (the controlling terminal, MCP elicitation), or given to the approval recorded for this
// very payload (policy/verdicts.hpp, shared with a WebView action's judgement).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/expected.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// The policy's own screen read (one query_ui, docs/guardrails.md §3) is an execution of its own
// with this budget, whatever the checked execution's: like any execution it ends within its
// budget plus kResultGrace (8 s in all). It is the policy's work, so it never spends the
// checked execution's budget (check_policy moves that deadline on by the read's time): before,
// a read that took the execution's budget left the step itself a few milliseconds
// ("pm list packages did not finish within 3 ms", tests/integration/policy_test.cpp).
inline constexpr std::chrono::milliseconds kPolicyScreenReadBudget{3000};

// Why the screen read gave no screen: the read's own error code (RESULT_ENVELOPE_TIMEOUT,
// EXECUTION_CONFLICT_IN_FLIGHT, UI_TREE_UNAVAILABLE, ...) and message.
struct ScreenReadError {
  std::string code;
  std::string message;
};

// Allowed (or confirmed): success. Else POLICY_DENIED, CONFIRMATION_REQUIRED (with a pending
// approval when the front end records them), CONFIRMATION_UNKNOWN or CONFIRMATION_DECLINED; all
// before dispatch. Every decision is logged ("policy.decision").
// `read_screen`: one query_ui of every on-screen node (its parsed `query`), asked only when a
// rule with labels could match a judged step that has a target; a failure when the screen could
// not be read (such a step then meets every label rule, and a refusal says why in
// details.screenRead).
using ScreenReader = std::function<Expected<Json, ScreenReadError>()>;

// What one run's judgements share across its segments (policy::plan_segments).
struct PolicyRun {
  // The approval --confirm named was granted and spent on this run: it confirms every step of
  // the payload it was recorded for.
  bool confirmed_by_approval = false;
  // Steps of an earlier segment ran: a refusal now says so.
  bool steps_before = false;
  int screen_reads = 0;
};

// Judges the steps `judged` (indices into request.execution, one segment's) on the screen as it
// is now: the foreground app when a rule could need it (one dumpsys window), and one read of the
// screen when a label rule could match one of them.
contract::Status check_policy(const ExecutionRequest& request, adb::AdbClient& client,
                              const std::string& serial, const ExecutionTrace& trace,
                              const ScreenReader& read_screen, std::span<const std::size_t> judged,
                              PolicyRun& run);

}  // namespace clawperator::exec
