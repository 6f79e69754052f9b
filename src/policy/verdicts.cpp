#include "clawperator/policy/verdicts.hpp"

#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "clawperator/text.hpp"

namespace clawperator::policy {
namespace {

Json answered_by(const Approval& approval) {
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

Json describe_verdict(const Verdict& verdict, const Policy& policy) {
  Json step = {{"id", verdict.step.step_id},
               {"index", verdict.step.index},
               {"actionType", verdict.step.action_type},
               {"package", verdict.step.package ? Json(*verdict.step.package) : Json(nullptr)},
               {"labels", verdict.step.labels}};
  return {{"ruleId", verdict.rule->id},
          {"reason", verdict.rule->reason},
          {"policy", policy.source},
          {"step", std::move(step)}};
}

std::string question_of(const Verdict& verdict, const std::string& serial) {
  std::string labels;
  for (const std::string& label : verdict.step.labels) {
    labels += (labels.empty() ? "" : ", ") + quote_json(label);
  }
  return "Step " + std::to_string(verdict.step.index + 1) + " (" + verdict.step.step_id +
         "): " + verdict.step.action_type + (labels.empty() ? std::string() : " on " + labels) +
         (verdict.step.package ? " in " + *verdict.step.package : std::string()) + " on device " +
         serial + "\nRule " + verdict.rule->id +
         (verdict.rule->reason.empty() ? std::string() : ": " + verdict.rule->reason);
}

void log_decision(const Verdict& verdict, const Policy& policy, std::string_view command_id,
                  std::string_view outcome, Json extra) {
  Json event{{"commandId", command_id},
             {"policy", policy.source},
             {"ruleId", verdict.rule != nullptr ? Json(verdict.rule->id) : Json(nullptr)},
             {"stepId", verdict.step.step_id},
             {"actionType", verdict.step.action_type},
             {"decision", to_string(verdict.decision)},
             {"outcome", outcome}};
  for (auto& [key, value] : extra.items()) event[key] = std::move(value);
  io::log_event(io::LogLevel::Info, "policy.decision", event);
}

Expected<Confirmed, contract::HostError> confirm(const Verdict& verdict, const Policy& policy,
                                                 const ConfirmationCall& call, Json details) {
  const auto refuse = [&](std::string code, std::string message) {
    return Unexpected(call.fail(std::move(code), std::move(message), std::move(details)));
  };
  const auto log = [&](std::string_view outcome, Json extra = Json::object()) {
    log_decision(verdict, policy, call.command_id, outcome, std::move(extra));
  };
  if (call.approval_id) {
    const std::string& id = *call.approval_id;
    Redeemed redeemed =
        call.state != nullptr ? redeem_approval(*call.state, id, call.digest) : Redeemed{};
    switch (redeemed.outcome) {
      case Redemption::Granted:
        log("confirmed by approval",
            {{"approvalId", id}, {"answeredBy", answered_by(*redeemed.approval)}});
        return Confirmed::ByApproval;
      case Redemption::Pending:
        log("approval pending", {{"approvalId", id}});
        details["approvalId"] = id;
        details["expiresAt"] = io::utc_timestamp(redeemed.approval->expires);
        return refuse("CONFIRMATION_REQUIRED", "Approval " + id + " still waits for a person" +
                                                   call.not_sent + ". " + how_to_approve(id));
      case Redemption::Declined:
        log("declined", {{"approvalId", id}, {"answeredBy", answered_by(*redeemed.approval)}});
        details["approvalId"] = id;
        return refuse("CONFIRMATION_DECLINED", "A person declined approval " + id + " (step " +
                                                   verdict.step.step_id + ")" + call.not_sent);
      case Redemption::Unknown:
        break;
    }
    log("unknown approval");
    return refuse(
        "CONFIRMATION_UNKNOWN",
        "The approval is unknown, used, expired or recorded for another payload" + call.not_sent);
  }
  if (call.ask_person) {
    const bool yes = call.ask_person(question_of(verdict, call.serial));
    log(yes ? "confirmed by a person" : "declined",
        {{"answeredBy", {{"through", call.ask_person_through}}}});
    if (yes) return Confirmed::ByPersonNow;
    return refuse("CONFIRMATION_DECLINED",
                  "Step " + verdict.step.step_id + " was declined" + call.not_sent);
  }
  std::string message = "Step " + verdict.step.step_id + " (" + verdict.step.action_type +
                        ") needs a person's confirmation (rule " + verdict.rule->id + ")" +
                        call.not_sent;
  if (!call.record_approvals) {
    log("confirmation required");
    return refuse("CONFIRMATION_REQUIRED", std::move(message));
  }
  ApprovalRequest asked;
  asked.digest = call.digest;
  asked.rule_id = verdict.rule->id;
  asked.reason = verdict.rule->reason;
  asked.policy_file = policy.source;
  asked.step = details.value("step", Json::object());
  asked.device = call.serial;
  asked.question = question_of(verdict, call.serial);
  auto recorded = call.state != nullptr
                      ? record_approval(*call.state, std::move(asked))
                      : Expected<Approval, Problem>(Unexpected(
                            Problem{"", "no private state directory to record the approval in"}));
  if (recorded) {
    log("approval recorded", {{"approvalId", recorded->id}});
    details["approvalId"] = recorded->id;
    details["expiresAt"] = io::utc_timestamp(recorded->expires);
    message += ". " + how_to_approve(recorded->id);
  } else {
    log("confirmation required");
    // The message alone: the problem's path is the approval's file in the state directory.
    details["approvalProblem"] = recorded.error().message;
  }
  return refuse("CONFIRMATION_REQUIRED", std::move(message));
}

}  // namespace clawperator::policy
