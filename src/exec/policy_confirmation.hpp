// What a `confirm` verdict comes to (docs/guardrails.md §5): the payload runs only on a
// person's yes: asked here (the CLI's controlling terminal, an MCP client's elicitation), or
// given beforehand to the approval a CONFIRMATION_REQUIRED recorded (`clawperator approve`,
// serve's inspector), never by the caller it stopped.
#pragma once

#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/policy/policy.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// The step a confirm rule stopped, as check_policy judged it.
struct StepToConfirm {
  const policy::Verdict& verdict;  // a Confirm verdict: its rule is set
  const policy::Policy& policy;
  const std::string& serial;
  std::string question;  // what a person is shown
  // How a refusal ends: "; nothing was sent", or that the steps before it ran (a payload judged
  // in segments, segmented_run.cpp).
  std::string not_sent = "; nothing was sent";
};

// Success when a person confirmed it (here, or through the approval `request.approval_id`
// names); else CONFIRMATION_REQUIRED (with a new pending approval when the front end records
// them, or the same one while it waits), CONFIRMATION_DECLINED or CONFIRMATION_UNKNOWN, with
// `details` (the rule, the step). Every outcome is logged ("policy.decision").
contract::Status confirm_step(const ExecutionRequest& request, adb::AdbClient& client,
                              const ExecutionTrace& trace, const StepToConfirm& step, Json details);

}  // namespace clawperator::exec
