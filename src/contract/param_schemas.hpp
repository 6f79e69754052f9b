// The params objects of the rows that do not take the generic one (param_schemas.cpp): each
// action's own strict schema, named in docs/payload.md's action table.
#pragma once

#include "clawperator/contract/action_table.hpp"

namespace clawperator::contract::schemas {

// list_notifications, list_media_sessions: applicationId, limit, maxTextChars.
const ParamSchema& notification_list();
// get_media_status: applicationId or mediaSessionId.
const ParamSchema& media_target();
// observe_media: a target and durationMs.
const ParamSchema& media_observe();
// media_play, media_pause: a target and waitTimeoutMs.
const ParamSchema& media_control();
// media_seek: a target, positionMs, waitTimeoutMs, positionToleranceMs.
const ParamSchema& media_seek();
// dismiss_notification: notificationKey, waitTimeoutMs.
const ParamSchema& notification_dismiss();
// invoke_notification_action: notificationKey, actionId.
const ParamSchema& notification_action();
// set_on_screen_log: text or template, and the panel's layout.
const ParamSchema& on_screen_log_set();
// clear_on_screen_log: nothing at all.
const ParamSchema& on_screen_log_clear();
// query_ui: matcher, visibility, limit (strict refused).
const ParamSchema& query_ui();
// swipe: start, end, durationMs.
const ParamSchema& swipe();
// drag: start, end, holdDurationMs, moveDurationMs.
const ParamSchema& drag();
// show_toast: text, duration.
const ParamSchema& show_toast();
// cancel_toast: nothing, or exactly {} (unknown keys refused as one "Unrecognized key(s)").
const ParamSchema& no_params();

}  // namespace clawperator::contract::schemas
