#include "policy_confirmation.hpp"

#include <chrono>

#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/policy/confirmation.hpp"

namespace clawperator::exec {
namespace {

// "policy.decision", as check_policy logs a denial, with what the confirmation adds (the
// approval, who answered through what); never the payload.
void log_confirmation(const StepToConfirm& step, const ExecutionTrace& trace,
                      std::string_view outcome, Json extra = Json::object()) {
  Json event{{"commandId", trace.command_id},
             {"policy", step.policy.source},
             {"ruleId", step.verdict.rule->id},
             {"stepId", step.verdict.step.step_id},
             {"actionType", step.verdict.step.action_type},
             {"decision", policy::to_string(step.verdict.decision)},
             {"outcome", outcome}};
  for (auto& [key, value] : extra.items()) event[key] = std::move(value);
  io::log_event(io::LogLevel::Info, "policy.decision", event);
}

Json answered_by(const policy::Approval& approval) {
  if (!approval.answered_by) return Json(nullptr);
  return {{"through", approval.answered_by->through}, {"user", approval.answered_by->user}};
}

// The words every refusal that waits for a person ends with: how a person approves it, and
// what the caller does then.
std::string how_to_approve(const std::string& id) {
  return "A person approves it with `clawperator approve " + id +
         "` on this host (or in serve's inspector, through the approver link its terminal "
         "showed); then the identical call with --confirm " +
         id + " (over HTTP: \"approvalId\") runs it once, before it expires (details.expiresAt)";
}

}  // namespace

contract::Status confirm_step(const ExecutionRequest& request, adb::AdbClient& client,
                              const ExecutionTrace& trace, const StepToConfirm& step,
                              Json details) {
  const policy::Verdict& verdict = step.verdict;
  const std::string digest =
      policy::payload_digest(request.execution, step.serial, request.operator_package);
  const io::StateDirectory* state = request.state.directory.get();
  if (request.approval_id) {
    const std::string& id = *request.approval_id;
    policy::Redeemed redeemed =
        state != nullptr ? policy::redeem_approval(*state, id, digest) : policy::Redeemed{};
    switch (redeemed.outcome) {
      case policy::Redemption::Granted:
        log_confirmation(step, trace, "confirmed by approval",
                         {{"approvalId", id}, {"answeredBy", answered_by(*redeemed.approval)}});
        return {};
      case policy::Redemption::Pending:
        log_confirmation(step, trace, "approval pending", {{"approvalId", id}});
        details["approvalId"] = id;
        details["expiresAt"] = io::utc_timestamp(redeemed.approval->expires);
        return contract::failed(trace.fail("CONFIRMATION_REQUIRED",
                                           "Approval " + id + " still waits for a person" +
                                               step.not_sent + ". " + how_to_approve(id),
                                           std::move(details)));
      case policy::Redemption::Declined:
        log_confirmation(step, trace, "declined",
                         {{"approvalId", id}, {"answeredBy", answered_by(*redeemed.approval)}});
        details["approvalId"] = id;
        return contract::failed(trace.fail("CONFIRMATION_DECLINED",
                                           "A person declined approval " + id + " (step " +
                                               verdict.step.step_id + ")" + step.not_sent,
                                           std::move(details)));
      case policy::Redemption::Unknown:
        break;
    }
    log_confirmation(step, trace, "unknown approval");
    return contract::failed(trace.fail(
        "CONFIRMATION_UNKNOWN",
        "The approval is unknown, used, expired or recorded for another payload" + step.not_sent,
        std::move(details)));
  }
  if (request.ask_person) {
    const bool yes = request.ask_person(step.question);
    log_confirmation(step, trace, yes ? "confirmed by a person" : "declined",
                     {{"answeredBy", {{"through", request.ask_person_through}}}});
    if (yes) {
      // The person's time is not the execution's: its budget starts again from the answer.
      if (request.budget) {
        client.set_deadline(std::chrono::steady_clock::now() + *request.budget + kResultGrace);
      }
      return {};
    }
    return contract::failed(trace.fail(
        "CONFIRMATION_DECLINED", "Step " + verdict.step.step_id + " was declined" + step.not_sent,
        std::move(details)));
  }
  std::string message = "Step " + verdict.step.step_id + " (" + verdict.step.action_type +
                        ") needs a person's confirmation (rule " + verdict.rule->id + ")" +
                        step.not_sent;
  if (!request.record_approvals) {
    log_confirmation(step, trace, "confirmation required");
    return contract::failed(
        trace.fail("CONFIRMATION_REQUIRED", std::move(message), std::move(details)));
  }
  policy::ApprovalRequest asked;
  asked.digest = digest;
  asked.rule_id = verdict.rule->id;
  asked.reason = verdict.rule->reason;
  asked.policy_file = step.policy.source;
  asked.step = details.value("step", Json::object());
  asked.device = step.serial;
  asked.question = step.question;
  auto recorded = state != nullptr
                      ? policy::record_approval(*state, std::move(asked))
                      : Expected<policy::Approval, Problem>(Unexpected(
                            Problem{"", "no private state directory to record the approval in"}));
  if (recorded) {
    log_confirmation(step, trace, "approval recorded", {{"approvalId", recorded->id}});
    details["approvalId"] = recorded->id;
    details["expiresAt"] = io::utc_timestamp(recorded->expires);
    message += ". " + how_to_approve(recorded->id);
  } else {
    log_confirmation(step, trace, "confirmation required");
    // The message alone: the problem's path is the approval's file in the state directory.
    details["approvalProblem"] = recorded.error().message;
  }
  return contract::failed(
      trace.fail("CONFIRMATION_REQUIRED", std::move(message), std::move(details)));
}

}  // namespace clawperator::exec
