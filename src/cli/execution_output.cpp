#include "clawperator/cli/execution_output.hpp"

namespace clawperator::cli {

ExecutionMode execution_mode(bool validate_only, bool dry_run) {
  if (dry_run) return ExecutionMode::DryRun;
  return validate_only ? ExecutionMode::ValidateOnly : ExecutionMode::Run;
}

CommandResult finish_execution(contract::Execution execution, ExecutionMode mode,
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

}  // namespace clawperator::cli
