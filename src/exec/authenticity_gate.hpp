// --require-authentic-result (docs/guardrails.md): before anything is sent, the host must be
// able to tell the Operator's result lines from those of any other app on the device. Without
// the flag the same facts are only reported, in the result's resultAuthenticity.
#pragma once

#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "result_reader.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// RESULT_AUTHENTICITY_UNAVAILABLE (not dispatched) with `reason` in its details.
contract::HostError authenticity_unavailable(const ExecutionTrace& trace, const std::string& serial,
                                             const std::string& reason);

// The Operator's uid is known (trace.operator_uids, from preflight) and the attached reader
// shows each line's uid. When the reader has printed no log line yet, one `log` call on the
// device writes one for it to show.
contract::Status require_authentic_source(adb::AdbClient& client, const std::string& serial,
                                          ResultReader& reader, const ExecutionTrace& trace);

}  // namespace clawperator::exec
