// The params objects of the action types that do not take the generic one (param_schemas.cpp):
// each lists exactly the keys its actions accept, so that anything else is refused.
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

}  // namespace clawperator::contract::schemas
