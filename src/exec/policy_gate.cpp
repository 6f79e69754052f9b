#include "policy_gate.hpp"

#include <algorithm>
#include <chrono>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "clawperator/policy/policy.hpp"
#include "clawperator/policy/verdicts.hpp"

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

// How a refusal ends: what it kept from the device.
std::string not_sent(const PolicyRun& run) {
  return run.steps_before ? "; it was not sent (the steps before it ran)" : "; nothing was sent";
}

}  // namespace

contract::Status check_policy(const ExecutionRequest& request, adb::AdbClient& client,
                              const std::string& serial, const ExecutionTrace& trace,
                              const ScreenReader& read_screen, std::span<const std::size_t> judged,
                              PolicyRun& run) {
  if (!request.policy || judged.empty()) return {};
  const policy::Policy& policy = *request.policy;
  const contract::Execution& execution = request.execution;
  std::vector<policy::StepTarget> steps;
  for (const std::size_t index : judged) {
    policy::StepTarget step = policy::step_target(execution, index, std::nullopt);
    if (const auto read = request.read_labels.find(step.step_id); read != request.read_labels.end())
      step.labels.insert(step.labels.end(), read->second.begin(), read->second.end());
    steps.push_back(std::move(step));
  }
  if (std::any_of(steps.begin(), steps.end(), [&](const policy::StepTarget& step) {
        return policy::wants_foreground(policy, step);
      })) {
    const auto dump = adb::run_device_shell(client, serial, {"dumpsys window", "dumpsys window"});
    const std::optional<std::string> foreground =
        dump ? focused_package(dump->out) : std::optional<std::string>();
    for (policy::StepTarget& step : steps) {
      if (!step.package) step.package = foreground;
    }
  }
  std::optional<ScreenReadError> unread;
  if (read_screen && std::any_of(steps.begin(), steps.end(), [&](const policy::StepTarget& step) {
        return policy::wants_screen(policy, step);
      })) {
    const auto reading = std::chrono::steady_clock::now();
    const Expected<Json, ScreenReadError> screen = read_screen();
    ++run.screen_reads;
    // The read had a budget of its own (kPolicyScreenReadBudget): the time it took is given
    // back to this execution, whose budget still counts from its start otherwise.
    if (const auto deadline = client.deadline()) {
      client.set_deadline(*deadline + (std::chrono::steady_clock::now() - reading));
    }
    if (screen) {
      const hierarchy::Tree tree = hierarchy::tree_of_query(*screen);
      for (policy::StepTarget& step : steps) {
        if (policy::wants_screen(policy, step)) {
          policy::label_from_screen(step, execution.actions[step.index], tree);
        }
      }
    } else {
      // Nothing on the screen is known: every step that wanted it meets every label rule.
      unread = screen.error();
      for (policy::StepTarget& step : steps) {
        if (policy::wants_screen(policy, step)) step.unread = true;
      }
    }
    Json event{{"commandId", trace.command_id}, {"screenRead", screen.has_value()}};
    if (unread) event["screenReadCode"] = unread->code;
    io::log_event(io::LogLevel::Info, "policy.screen", event);
  }
  const policy::Verdict verdict = policy::evaluate(policy, steps);
  if (verdict.decision == policy::Decision::Allow) return {};
  Json details = policy::describe_verdict(verdict, policy);
  // Why the step's point has no labels, when the read failed: every label rule met it.
  if (unread) {
    details["screenRead"] = {{"ok", false}, {"code", unread->code}, {"message", unread->message}};
  }
  if (verdict.decision == policy::Decision::Deny) {
    policy::log_decision(verdict, policy, trace.command_id, "denied");
    return contract::failed(trace.fail("POLICY_DENIED",
                                       "The policy denies step " + verdict.step.step_id + " (" +
                                           verdict.step.action_type + ") by rule " +
                                           verdict.rule->id + not_sent(run),
                                       std::move(details)));
  }
  // An approval is bound to the whole payload: granted once, it confirms every step of this run.
  if (run.confirmed_by_approval) {
    policy::log_decision(verdict, policy, trace.command_id, "confirmed by approval");
    return {};
  }
  policy::ConfirmationCall call;
  call.digest = policy::payload_digest(execution, serial, request.operator_package);
  call.serial = serial;
  call.command_id = trace.command_id;
  call.not_sent = not_sent(run);
  call.state = request.state.directory.get();
  call.approval_id = request.approval_id;
  call.ask_person = request.ask_person;
  call.ask_person_through = request.ask_person_through;
  call.record_approvals = request.record_approvals;
  call.fail = [&trace](std::string code, std::string message, Json extra) {
    return trace.fail(std::move(code), std::move(message), std::move(extra));
  };
  CLAWPERATOR_TRY_ASSIGN(const policy::Confirmed confirmed,
                         policy::confirm(verdict, policy, call, std::move(details)));
  // The person's time is not the execution's: its budget starts again from the answer.
  if (confirmed == policy::Confirmed::ByPersonNow && request.budget) {
    client.set_deadline(std::chrono::steady_clock::now() + *request.budget + kResultGrace);
  }
  if (request.approval_id) run.confirmed_by_approval = true;
  return {};
}

}  // namespace clawperator::exec
