#include "clawperator/service/execution.hpp"

#include <cmath>

namespace clawperator::service {

exec::ExecutionRequest execution_base(const Session& session, const Target& target,
                                      std::chrono::milliseconds queue_for) {
  exec::ExecutionRequest request;
  DeviceChoice chosen = choose_device(session, target);
  request.device = std::move(chosen.device);
  request.operator_package = std::move(chosen.operator_package);
  request.adb = session.adb;
  request.lock_wait_ms = session.lock_wait_ms.value_or(static_cast<long>(queue_for.count()));
  request.lock_token = session.lock_token;
  request.state = session.state;
  request.show_progress = session.show_progress;
  request.result_transport = session.result_transport;
  request.require_authentic_result = session.require_authentic_result;
  request.warm_followers = session.warm_followers;
  return request;
}

exec::ExecutionRequest execution_request(const Session& session, ExecutionCall call) {
  const double timeout_ms = call.execution.timeout_ms.value();
  exec::ExecutionRequest request = execution_base(
      session, call.target, std::chrono::milliseconds(static_cast<long long>(timeout_ms)));
  request.execution = std::move(call.execution);
  request.policy = session.policy;
  request.record_approvals = session.record_approvals;
  request.approval_id = std::move(call.approval_id);
  request.ask_person = std::move(call.ask_person);
  request.ask_person_through = std::move(call.ask_person_through);
  request.read_labels = std::move(call.read_labels);
  // One meaning of the execution's timeoutMs on every front end: the command's budget.
  request.budget = std::chrono::milliseconds(static_cast<long long>(std::ceil(timeout_ms)));
  return request;
}

exec::ExecutionReport run_execution(const Session& session, ExecutionCall call,
                                    process::Runner& runner) {
  return exec::run_execution(execution_request(session, std::move(call)), runner);
}

exec::SequenceRequest sequence_request(const Session& session, SequenceCall call) {
  exec::SequenceRequest request;
  for (contract::Execution& execution : call.sequence.executions) {
    ExecutionCall part;
    part.execution = std::move(execution);
    part.target = call.target;
    part.approval_id = call.approval_id;
    part.ask_person = call.ask_person;
    part.ask_person_through = call.ask_person_through;
    request.parts.push_back(execution_request(session, std::move(part)));
  }
  return request;
}

exec::ExecutionReport run_sequence(const Session& session, SequenceCall call,
                                   process::Runner& runner) {
  return exec::run_sequence(sequence_request(session, std::move(call)), runner);
}

}  // namespace clawperator::service
