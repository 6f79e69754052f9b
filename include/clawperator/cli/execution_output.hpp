// The last step of every command that sends an execution (exec and the device
// actions): the same --dry-run and --validate-only documents, or the run.
#pragma once

#include "clawperator/cli/command.hpp"
#include "clawperator/contract/payload_validation.hpp"

namespace clawperator::cli {

enum class ExecutionMode { Run, ValidateOnly, DryRun };

// --dry-run wins over --validate-only, as in the original.
ExecutionMode execution_mode(bool validate_only, bool dry_run);

// Checks the payload size, then prints {dryRun, plan} or {validated, execution}
// without contacting a device, or runs it with run_on_device.
CommandResult finish_execution(contract::Execution execution, ExecutionMode mode,
                               const GlobalOptions& options);
// The same for a sequence: {dryRun, sequence: {count}, plans} or {validated, sequence}, or
// run_sequence_on_device.
CommandResult finish_sequence(contract::Sequence sequence, ExecutionMode mode,
                              const GlobalOptions& options);

}  // namespace clawperator::cli
