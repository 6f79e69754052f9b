// The params objects of the rows that do not take the generic one (param_schemas.cpp): each
// action's own strict schema, named in docs/payload.md's action table.
#pragma once

#include "clawperator/contract/action_table.hpp"

namespace clawperator::contract {

const ParamSchema& query_param_schema();  // matcher, visibility, limit (strict refused)
const ParamSchema& swipe_param_schema();  // start, end, durationMs
const ParamSchema& drag_param_schema();   // start, end, holdDurationMs, moveDurationMs
const ParamSchema& toast_param_schema();  // text, duration
const ParamSchema& no_param_schema();     // cancel_toast: nothing, or exactly {}

}  // namespace clawperator::contract
