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

}  // namespace

CommandResult finish_execution(contract::Execution execution, ExecutionMode mode,
                               const GlobalOptions& options) {
  if (!options.report) return finish(std::move(execution), mode, options);
  // --report: the steps planned, so that those never reached are in the report too.
  std::vector<report::PlannedStep> planned;
  planned.reserve(execution.actions.size());
  for (const contract::Action& action : execution.actions) {
    planned.push_back({action.id, std::string(contract::action_spec(action.type).name)});
  }
  CommandResult result = finish(std::move(execution), mode, options);
  result.planned_steps = std::move(planned);
  return result;
}

}  // namespace clawperator::cli
