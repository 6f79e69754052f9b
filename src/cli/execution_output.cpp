#include "clawperator/cli/execution_output.hpp"

namespace clawperator::cli {
namespace {

Json dry_run_plan(const contract::ValidatedExecution& valid) {
  const Json& execution = valid.execution;
  Json plan = Json::object();
  plan["commandId"] = execution["commandId"];
  plan["timeoutMs"] = execution["timeoutMs"];
  plan["actionCount"] = execution["actions"].size();
  Json actions = Json::array();
  for (const Json& action : execution["actions"]) {
    Json step = Json::object();
    step["id"] = action["id"];
    step["type"] = action["type"];
    if (action.contains("params")) step["params"] = action["params"];
    actions.push_back(std::move(step));
  }
  plan["actions"] = std::move(actions);
  Json out = Json::object();
  out["dryRun"] = true;
  out["plan"] = std::move(plan);
  return out;
}

}  // namespace

ExecutionMode execution_mode(bool validate_only, bool dry_run) {
  if (dry_run) return ExecutionMode::DryRun;
  return validate_only ? ExecutionMode::ValidateOnly : ExecutionMode::Run;
}

CommandResult finish_execution(contract::ValidatedExecution valid, ExecutionMode mode,
                               const GlobalOptions& options) {
  if (auto error = contract::check_payload_size(valid)) return failure(*error);
  switch (mode) {
    case ExecutionMode::DryRun:
      return success(dry_run_plan(valid));
    case ExecutionMode::ValidateOnly: {
      Json validated = Json::object();
      validated["validated"] = true;
      validated["execution"] = valid.execution;
      return success(std::move(validated));
    }
    case ExecutionMode::Run:
      break;
  }
  return run_on_device(std::move(valid), options);
}

}  // namespace clawperator::cli
