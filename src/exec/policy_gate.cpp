#include "policy_gate.hpp"

#include <algorithm>
#include <chrono>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "clawperator/policy/policy.hpp"

namespace clawperator::exec {
namespace {

// The package of `dumpsys window`'s focused window ("mCurrentFocus=Window{… u0 PKG/ACTIVITY}");
// nullopt when the device does not say (the rules then treat the package as unknown).
std::optional<std::string> focused_package(std::string_view dump) {
  const std::size_t focus = dump.find("mCurrentFocus=");
  if (focus == std::string_view::npos) return std::nullopt;
  std::string_view line = dump.substr(focus);
  line = line.substr(0, line.find('\n'));
  const std::size_t slash = line.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::size_t start = line.find_last_of(" {", slash);
  if (start == std::string_view::npos || start + 1 >= slash) return std::nullopt;
  return std::string(line.substr(start + 1, slash - start - 1));
}

bool needs_foreground(const policy::Policy& policy, const contract::Execution& execution) {
  if (!policy.uses_packages()) return false;
  for (const contract::Action& action : execution.actions) {
    if (!action.params_or_empty().application_id) return true;
  }
  return false;
}

Json describe(const policy::Verdict& verdict, const policy::Policy& policy) {
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

void log_decision(const policy::Verdict& verdict, const policy::Policy& policy,
                  const ExecutionTrace& trace, std::string_view outcome) {
  io::log_event(io::LogLevel::Info, "policy.decision",
                Json{{"commandId", trace.command_id},
                     {"policy", policy.source},
                     {"ruleId", verdict.rule != nullptr ? Json(verdict.rule->id) : Json(nullptr)},
                     {"stepId", verdict.step.step_id},
                     {"actionType", verdict.step.action_type},
                     {"decision", policy::to_string(verdict.decision)},
                     {"outcome", outcome}});
}

// What a person is asked: the step, the app and the rule, in one line each.
std::string question_of(const policy::Verdict& verdict, const std::string& serial) {
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

}  // namespace

contract::Status check_policy(const ExecutionRequest& request, adb::AdbClient& client,
                              const std::string& serial, const ExecutionTrace& trace,
                              const ScreenReader& read_screen) {
  if (!request.policy) return {};
  const policy::Policy& policy = *request.policy;
  std::optional<std::string> foreground;
  if (needs_foreground(policy, request.execution)) {
    const auto dump = adb::run_device_shell(client, serial, {"dumpsys window", "dumpsys window"});
    if (dump) foreground = focused_package(dump->out);
  }
  std::vector<policy::StepTarget> steps = policy::step_targets(request.execution, foreground);
  const bool aims_at_points = std::any_of(
      steps.begin(), steps.end(), [](const policy::StepTarget& step) { return step.point; });
  std::optional<ScreenReadError> unread;
  if (aims_at_points && policy.uses_labels() && read_screen) {
    const auto reading = std::chrono::steady_clock::now();
    const Expected<Json, ScreenReadError> screen = read_screen();
    // The read had a budget of its own (kPolicyScreenReadBudget): the time it took is given
    // back to this execution, whose budget still counts from its start otherwise.
    if (const auto deadline = client.deadline()) {
      client.set_deadline(*deadline + (std::chrono::steady_clock::now() - reading));
    }
    if (screen) {
      policy::label_points(steps, *screen);
    } else {
      unread = screen.error();
    }
    Json event{{"commandId", trace.command_id}, {"screenRead", screen.has_value()}};
    if (unread) event["screenReadCode"] = unread->code;
    io::log_event(io::LogLevel::Info, "policy.points", event);
  }
  const policy::Verdict verdict = policy::evaluate(policy, steps);
  if (verdict.decision == policy::Decision::Allow) return {};
  Json details = describe(verdict, policy);
  // Why the step's point has no labels, when the read failed: every label rule met it.
  if (unread) {
    details["screenRead"] = {{"ok", false}, {"code", unread->code}, {"message", unread->message}};
  }
  if (verdict.decision == policy::Decision::Deny) {
    log_decision(verdict, policy, trace, "denied");
    return contract::failed(trace.fail("POLICY_DENIED",
                                       "The policy denies step " + verdict.step.step_id + " (" +
                                           verdict.step.action_type + ") by rule " +
                                           verdict.rule->id + "; nothing was sent",
                                       std::move(details)));
  }
  const std::string digest =
      policy::payload_digest(request.execution, serial, request.operator_package);
  if (request.confirm_token) {
    const io::StateDirectory* state = request.state.directory.get();
    if (state != nullptr && policy::redeem_confirmation(*state, *request.confirm_token, digest)) {
      log_decision(verdict, policy, trace, "confirmed by token");
      return {};
    }
    log_decision(verdict, policy, trace, "unknown token");
    return contract::failed(trace.fail(
        "CONFIRMATION_UNKNOWN",
        "The confirmation token is unknown, used, expired or issued for another payload; "
        "nothing was sent",
        std::move(details)));
  }
  if (request.ask_person) {
    const bool yes = request.ask_person(question_of(verdict, serial));
    log_decision(verdict, policy, trace, yes ? "confirmed by a person" : "declined");
    if (yes) {
      // The person's time is not the execution's: its budget starts again from the answer.
      if (request.budget) {
        client.set_deadline(std::chrono::steady_clock::now() + *request.budget + kResultGrace);
      }
      return {};
    }
    return contract::failed(trace.fail(
        "CONFIRMATION_DECLINED", "Step " + verdict.step.step_id + " was declined; nothing was sent",
        std::move(details)));
  }
  log_decision(verdict, policy, trace, "confirmation required");
  std::string message = "Step " + verdict.step.step_id + " (" + verdict.step.action_type +
                        ") needs a person's confirmation (rule " + verdict.rule->id +
                        "); nothing was sent";
  if (request.hand_out_tokens) {
    const io::StateDirectory* state = request.state.directory.get();
    auto issued =
        state != nullptr
            ? policy::issue_confirmation(*state, digest, verdict.rule->id, verdict.step.step_id)
            : Expected<policy::IssuedToken, Problem>(
                  Unexpected(Problem{"", "no private state directory for tokens"}));
    if (issued) {
      details["token"] = issued->token;
      details["expiresAt"] = io::utc_timestamp(issued->expires);
      message += ". After a person approves it, repeat the same call with --confirm " +
                 issued->token + " (once, within 5 minutes)";
    } else {
      details["tokenProblem"] = issued.error().message;  // not the file: it holds the token
    }
  }
  return contract::failed(
      trace.fail("CONFIRMATION_REQUIRED", std::move(message), std::move(details)));
}

}  // namespace clawperator::exec
