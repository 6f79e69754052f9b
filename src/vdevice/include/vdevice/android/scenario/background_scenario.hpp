// What a scenario says about the services the Operator reads without the screen: posted
// notifications, media sessions and the on-screen log panel (docs/vdevice-scenarios.md,
// "backgroundServices"). Listener access itself is the secure setting
// enabled_notification_listeners, as on a phone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::vdevice::android {

struct NotificationActionSpec {
  std::string action_id;
  std::string title;
  bool requires_input = false;           // a RemoteInput: the Operator cannot fill it
  bool requires_authentication = false;  // needs the device unlocked by a person
  bool cancelled = false;                // its PendingIntent was cancelled by the app
};

struct NotificationProgress {
  int value = 0;
  int max = 100;
  bool indeterminate = false;
};

struct NotificationSpec {
  std::string key;
  std::string application_id;
  std::optional<std::string> title;
  std::optional<std::string> text;
  std::optional<std::string> group_key;
  bool group_summary = false;
  bool ongoing = false;
  bool clearable = true;
  int post_after_ms = 0;  // after boot: notifications also arrive over time
  std::vector<NotificationActionSpec> actions;
  std::optional<NotificationProgress> progress;
};

struct MediaSessionSpec {
  std::string media_session_id;
  std::string application_id;
  std::string state = "paused";  // playing, paused, stopped, buffering
  std::optional<std::string> title;
  std::optional<std::string> artist;
  std::optional<std::int64_t> duration_ms;
  std::int64_t position_ms = 0;
  double playback_speed = 1.0;
  std::vector<std::string> supported_controls = {"play", "pause", "seek"};
  int control_delay_ms = 250;          // how long the player takes to apply a control
  bool ignores_controls = false;       // takes controls but never changes (timeouts)
  std::optional<int> ends_after_ms;    // after boot the app releases the session
  bool seek_position_invalid = false;  // the player refuses every seek position (a live stream)
};

// Where a notification or media mutation fails on the device for a reason it does not classify
// (NOTIFICATION_MEDIA_OPERATION_FAILED): before anything reached the app, or after.
enum class OperationFailure { None, BeforeDispatch, AfterDispatch };

struct BackgroundScenario {
  std::vector<NotificationSpec> notifications;
  std::vector<MediaSessionSpec> media_sessions;
  // An ON_SCREEN_LOG_… code every set_on_screen_log fails with; empty: the panel draws.
  std::string on_screen_log_failure;
  // The platform's side, broken (docs/vdevice-scenarios.md "backgroundServices"): the listener
  // is granted but not bound; the notification service cannot be reached; reading the active
  // notifications or sessions throws; every mutation fails.
  bool listener_disconnected = false;
  bool notification_service_unavailable = false;
  bool query_fails = false;
  OperationFailure operation_failure = OperationFailure::None;
};

// The "backgroundServices" object of a scenario file; the error's path is the field's
// ("backgroundServices.notifications[0].key").
Expected<void, Problem> read_background_scenario(const Json& object, BackgroundScenario& out);

}  // namespace clawperator::vdevice::android
