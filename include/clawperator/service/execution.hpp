// One execution, the same from every front end (docs/architecture.md §1): the one place an
// exec::ExecutionRequest is filled, so that a rule (the budget, the lock wait, who may confirm)
// holds for the CLI, MCP and HTTP alike.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/exec/sequence.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

struct ExecutionCall {
  contract::Execution execution;  // validated
  Target target;
  // The approval a CONFIRMATION_REQUIRED recorded (the CLI's --confirm, an HTTP body's
  // approvalId or confirmToken; never MCP's).
  std::optional<std::string> approval_id;
  // A person to ask about a step the policy wants confirmed (the CLI's controlling terminal, an
  // MCP client's elicitation); empty: nobody.
  std::function<bool(const std::string& question)> ask_person;
  // Through what it asks, for the log: "terminal", "elicitation".
  std::string ask_person_through;
  // exec::ExecutionRequest::read_labels: what the host read for a step (a recognised phrase).
  std::map<std::string, std::vector<std::string>> read_labels;
};

// What every execution of the session shares before its payload (an evidence capture's snapshot
// takes it as it is): the device and package the target chose, else the session's, adb, the
// state directory, the result transport, the authenticity demand, the kept readers, the skill's
// lock token, and the lock wait (the session's, else `queue_for`: a server's callers queue for
// as long as their own deadline). No policy: a capture only reads.
exec::ExecutionRequest execution_base(const Session& session, const Target& target,
                                      std::chrono::milliseconds queue_for);

// The request: the session's rules, the call's choices, and the execution's timeoutMs as its
// budget (the run ends within it plus the result grace, adb calls before dispatch and the lock
// wait included: docs/commands.md, "--timeout"). Pure.
exec::ExecutionRequest execution_request(const Session& session, ExecutionCall call);

// execution_request, run.
exec::ExecutionReport run_execution(const Session& session, ExecutionCall call,
                                    process::Runner& runner);

// A sequence (docs/payload.md §12): each payload's request filled as execution_request fills a
// single one (its own timeoutMs its budget), with the call's target, approval and person.
struct SequenceCall {
  contract::Sequence sequence;  // admitted
  Target target;
  std::optional<std::string> approval_id;
  std::function<bool(const std::string& question)> ask_person;
  std::string ask_person_through;
};
exec::SequenceRequest sequence_request(const Session& session, SequenceCall call);
exec::ExecutionReport run_sequence(const Session& session, SequenceCall call,
                                   process::Runner& runner);

}  // namespace clawperator::service
