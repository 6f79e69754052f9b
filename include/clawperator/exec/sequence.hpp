// A sequence of payloads on one device (docs/payload.md §12): resolved and locked once, each
// payload run as `exec` runs one (readiness, the policy, its own budget), in order, stopping at
// the first that fails, with one output document.
#pragma once

#include <vector>

#include "clawperator/exec/execution.hpp"

namespace clawperator::exec {

struct SequenceRequest {
  // One request per payload, as the service layer fills a single execution's; the first's
  // device, adb, state directory and lock wait choose and lock the device for all.
  std::vector<ExecutionRequest> parts;
};

// Success: {ok: true, executions: [each payload's document], sequence: {count},
// deviceId, disposition, timing: {totalMs}}. The first failure: that payload's error object
// with details.sequence {index, count} and the documents of the payloads before it
// as `executions`; when those changed the device, its disposition says so (delivered, unsafe).
ExecutionReport run_sequence(const SequenceRequest& request, process::Runner& runner);

}  // namespace clawperator::exec
