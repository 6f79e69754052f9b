// What a verdict comes to (docs/guardrails.md §4, §5), for every caller that judges a step: an
// execution's (src/exec/policy_gate.cpp) and a WebView action's (src/service/webview.cpp), so
// that a denial, a question to a person and an approval mean the same whichever judged it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/policy/policy.hpp"

namespace clawperator::policy {

// A refusal's details: {ruleId, reason, policy, step: {id, index, actionType, package, labels}}.
Json describe_verdict(const Verdict& verdict, const Policy& policy);

// What a person is asked: the step, the app and the device, then the rule.
std::string question_of(const Verdict& verdict, const std::string& serial);

// "policy.decision": the rule, the step, the outcome, and `extra` (the approval, who answered);
// never the payload.
void log_decision(const Verdict& verdict, const Policy& policy, std::string_view command_id,
                  std::string_view outcome, Json extra = Json::object());

struct ConfirmationCall {
  std::string digest;  // what an approval is bound to: payload_digest, or the WebView action's
  std::string serial;
  std::string command_id;  // for the log
  // How a refusal ends: "; nothing was sent", or that the steps before it ran.
  std::string not_sent = "; nothing was sent";
  const io::StateDirectory* state = nullptr;  // where approvals are; null: none can be
  std::optional<std::string> approval_id;     // --confirm ID, HTTP's approvalId
  std::function<bool(const std::string& question)> ask_person;  // the terminal, elicitation
  std::string ask_person_through;                               // "terminal", "elicitation"
  bool record_approvals = true;  // a refusal records a pending approval (not MCP's)
  // The refusal in the caller's terms (an execution's trace, a WebView action's phase).
  std::function<contract::HostError(std::string code, std::string message, Json details)> fail;
};

enum class Confirmed { ByApproval, ByPersonNow };

// A `confirm` verdict: Confirmed when a person said yes (now, asked through ask_person, or
// beforehand, to the approval `approval_id` names); else CONFIRMATION_REQUIRED (with a new
// pending approval when record_approvals, or the same one while it waits),
// CONFIRMATION_DECLINED or CONFIRMATION_UNKNOWN, with `details` (describe_verdict's). Every
// outcome is logged.
Expected<Confirmed, contract::HostError> confirm(const Verdict& verdict, const Policy& policy,
                                                 const ConfirmationCall& call, Json details);

}  // namespace clawperator::policy
