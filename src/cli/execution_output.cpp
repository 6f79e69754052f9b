#include "clawperator/cli/execution_output.hpp"

#include "clawperator/contract/action_table.hpp"

namespace clawperator::cli {

ExecutionMode execution_mode(bool validate_only, bool dry_run) {
  if (dry_run) return ExecutionMode::DryRun;
  return validate_only ? ExecutionMode::ValidateOnly : ExecutionMode::Run;
}

namespace {

CommandResult finish(contract::Execution execution, ExecutionMode mode,
                     const GlobalOptions& options) {
  switch (mode) {
    case ExecutionMode::DryRun: {
      Json out = Json::object();
      out["dryRun"] = true;
      out["plan"] = contract::plan_json(execution);
      return success(std::move(out));
    }
    case ExecutionMode::ValidateOnly: {
      Json validated = Json::object();
      validated["validated"] = true;
      validated["execution"] = contract::to_device_json(execution);
      return success(std::move(validated));
    }
    case ExecutionMode::Run:
      break;
  }
  return run_on_device(std::move(execution), options);
}

// --report: the steps planned, so that those never reached are in the report too.
std::vector<report::PlannedStep> planned_steps(const contract::Execution& execution) {
  std::vector<report::PlannedStep> planned;
  planned.reserve(execution.actions.size());
  for (const contract::Action& action : execution.actions) {
    planned.push_back({action.id, std::string(contract::action_spec(action.type).name)});
  }
  return planned;
}

}  // namespace

CommandResult finish_execution(contract::Execution execution, ExecutionMode mode,
                               const GlobalOptions& options) {
  if (!options.report) return finish(std::move(execution), mode, options);
  std::vector<report::PlannedStep> planned = planned_steps(execution);
  CommandResult result = finish(std::move(execution), mode, options);
  result.planned_steps = std::move(planned);
  return result;
}

CommandResult finish_sequence(contract::Sequence sequence, ExecutionMode mode,
                              const GlobalOptions& options) {
  std::vector<CommandResult::PlannedPart> planned;
  if (options.report) {
    for (const contract::Execution& execution : sequence.executions) {
      planned.push_back({execution.command_id, planned_steps(execution)});
    }
  }
  CommandResult result;
  switch (mode) {
    case ExecutionMode::DryRun: {
      Json plans = Json::array();
      for (const contract::Execution& execution : sequence.executions) {
        plans.push_back(contract::plan_json(execution));
      }
      Json out = Json::object();
      out["dryRun"] = true;
      out["sequence"] = {{"count", sequence.executions.size()}};
      out["plans"] = std::move(plans);
      result = success(std::move(out));
      break;
    }
    case ExecutionMode::ValidateOnly: {
      Json validated = Json::object();
      validated["validated"] = true;
      validated["sequence"] = contract::to_device_json(sequence);
      result = success(std::move(validated));
      break;
    }
    case ExecutionMode::Run:
      result = run_sequence_on_device(std::move(sequence), options);
      break;
  }
  result.planned_parts = std::move(planned);
  return result;
}

}  // namespace clawperator::cli
