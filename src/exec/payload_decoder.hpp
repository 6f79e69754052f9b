// The notification and media steps' data.payload (docs/payload.md §8): a JSON document the
// Operator writes as a string. Decoded, checked (schemaVersion 1, the fields each action
// returns; additive fields tolerated) and returned parsed. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/transport/envelope.hpp"

namespace clawperator::exec {

struct PayloadError {
  std::string step_id;
  std::string action_type;
  Problem problem;  // its path inside the payload ("" = the document)
};

// One entry per step: the parsed payload of a DecodePayload step that carries one, else
// nullopt. A successful step of such an action must carry a valid payload; a failed one may
// carry one with its evidence (`dispatched`), checked the same way but for its own fields.
Expected<std::vector<std::optional<Json>>, PayloadError> decode_payloads(
    const transport::Envelope& envelope);

// The evidence a decoded payload gives the disposition: was the control sent.
std::optional<bool> dispatched_of(const std::optional<Json>& payload);

}  // namespace clawperator::exec
