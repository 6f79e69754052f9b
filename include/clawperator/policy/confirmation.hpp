// Approvals (docs/guardrails.md §5, "Confirming"): a payload a `confirm` rule stopped, where no
// person could be asked, is recorded as a pending approval bound to what it would do on which
// device. Its id is no credential: only a person approves it (`clawperator approve` on this
// host's terminal, or serve's inspector through the approver link only the server's terminal
// showed); then the same call given the id within five minutes goes through once.
//
// Files of the private state directory: `approval-<id>.json`, the request, written once; and
// `approval-<id>.answer.json`, the person's answer, created once (O_EXCL: one answer only). An
// approved request is consumed by unlinking its request file, so of two racing calls exactly one
// runs it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::policy {

inline constexpr std::chrono::seconds kConfirmationLifetime{300};

// SHA-256 of the actions as the device would receive them (not the command or task id, which
// every run makes anew), the device and the Operator: a changed step, device or Operator is
// another payload.
std::string payload_digest(const contract::Execution& execution, std::string_view serial,
                           std::string_view operator_package);

// What a person is asked to approve.
struct ApprovalRequest {
  std::string digest;  // payload_digest
  std::string rule_id;
  std::string reason;
  std::string policy_file;  // where the rule is written (never shown to an HTTP caller)
  Json step;                // {id, index, actionType, package, labels}
  std::string device;       // the serial
  std::string question;     // the text a person is shown: the step, the app, the device, the rule
};

enum class ApprovalState { Pending, Approved, Declined };
std::string_view to_string(ApprovalState state);

// Who answered, and through what.
struct Approver {
  std::string through;  // "terminal" (clawperator approve), "inspector" (serve's approver link)
  std::string user;     // the account that answered (the terminal's user, the server's)
};

struct Approval {
  std::string id;  // 32 lowercase hex digits (128 random bits)
  ApprovalRequest request;
  std::chrono::system_clock::time_point created;
  std::chrono::system_clock::time_point expires;
  ApprovalState state = ApprovalState::Pending;
  std::optional<Approver> answered_by;  // with Approved and Declined
};

// A new pending approval for `request`; or what went wrong.
Expected<Approval, Problem> record_approval(const io::StateDirectory& state,
                                            ApprovalRequest request);

// What `--confirm ID` (serve's approvalId) comes to for the payload of `digest`:
// - Granted: a person approved it and this call consumed it (it is gone: it runs once);
// - Pending: nobody answered yet; nothing is spent (same id, `approval` says until when);
// - Declined: a person said no; spent;
// - Unknown: no such approval, used, expired, or recorded for another payload (which spends
//   it, so that an id cannot be tried against one payload after another).
enum class Redemption { Granted, Pending, Declined, Unknown };
struct Redeemed {
  Redemption outcome = Redemption::Unknown;
  std::optional<Approval> approval;  // with Granted, Pending and Declined
};
Redeemed redeem_approval(const io::StateDirectory& state, std::string_view id,
                         std::string_view digest);

// The approval `id` while it has not expired, answered or not; nullopt otherwise.
std::optional<Approval> find_approval(const io::StateDirectory& state, std::string_view id);

// Every approval nobody answered yet that has not expired, oldest first (at most 256).
std::vector<Approval> pending_approvals(const io::StateDirectory& state);

// Records a person's answer to a pending approval, and logs it ("policy.decision": the rule,
// the step, the outcome, who answered through what):
// - Recorded;
// - Gone: used, expired or spent meanwhile;
// - AlreadyAnswered: another answer came first;
// - Failed: the answer could not be written.
enum class AnswerOutcome { Recorded, Gone, AlreadyAnswered, Failed };
AnswerOutcome answer_approval(const io::StateDirectory& state, const Approval& approval,
                              bool approve, const Approver& approver);

// What a person or a caller is shown of an approval: approvalId, state, ruleId, reason, step,
// deviceId, question, createdAt, expiresAt (UTC), and answeredBy {through, user} once answered.
// Neither the digest nor the policy file.
Json describe_approval(const Approval& approval);

bool is_approval_id(std::string_view id);

}  // namespace clawperator::policy
