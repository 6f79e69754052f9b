// A sequence: payloads run in order under one device lock, stopping at the first that fails
// (docs/payload.md §12). What a replay too long for one payload's 120 s or 64000 bytes is: one
// file that `exec`, MCP `execute` and `POST /execute` run whatever its length.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_normalization.hpp"
#include "clawperator/json.hpp"

namespace clawperator::contract {

// At most this many payloads in one sequence: a 40-step recording needs two or three, and the
// caller's input is bounded anyway (limits::kMaxPayloadInputBytes).
inline constexpr std::size_t kMaxSequenceExecutions = 64;

struct Sequence {
  std::vector<Execution> executions;  // each validated; command ids distinct
};

// Whether `input` is a sequence rather than one payload: an object with `executions`.
bool is_sequence(const Json& input);

// The one admission of a sequence, on every front end: an object with `executions` (and no
// other key), 1..kMaxSequenceExecutions payloads, each admitted as admit_execution admits one
// (`timeout_override` replacing each one's timeoutMs), their command ids distinct. A payload's
// fault is named by its path from the sequence ("executions.1.actions.0.type") and
// details.executionIndex. With `random`, each payload may be in the short form
// (complete_short_form), each missing commandId drawn afresh, so they stay distinct.
Outcome<Sequence> admit_sequence(const Json& input,
                                 std::optional<std::string_view> timeout_override = {},
                                 RandomText random = nullptr);

// The sequence as the device's payloads: {"executions": [to_device_json(each)]}.
Json to_device_json(const Sequence& sequence);

}  // namespace clawperator::contract
