// The rows of the action table (action_table.hpp). A new action type is a new row here (and
// its ActionType); docs/architecture.md says what else it may need.
#include "clawperator/contract/action_table.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "action_rules.hpp"
#include "clawperator/contract/limits.hpp"
#include "clawperator/text.hpp"
#include "param_schemas.hpp"

namespace clawperator::contract {
namespace {

using C = ConstraintKind;

constexpr std::array<std::string_view, 1> kOpenUriAliases = {"open_url"};
constexpr std::array<std::string_view, 2> kClickAliases = {"tap", "press"};
constexpr std::array<std::string_view, 3> kWaitAliases = {"wait_for", "find", "find_node"};
constexpr std::array<std::string_view, 1> kReadAliases = {"read"};
constexpr std::array<std::string_view, 1> kSnapshotAliases = {"snapshot_ui"};
constexpr std::array<std::string_view, 2> kScreenshotAliases = {"screenshot", "capture_screenshot"};
constexpr std::array<std::string_view, 3> kEnterTextAliases = {"type_text", "text_entry",
                                                               "input_text"};
constexpr std::array<std::string_view, 1> kPressKeyAliases = {"key_press"};

constexpr std::array<std::string_view, 4> kDirections = {"down", "up", "left", "right"};
constexpr std::array<std::string_view, 3> kKeys = {"back", "home", "recents"};
constexpr std::array<std::string_view, 2> kVisibilities = {"on_screen", "all"};
constexpr std::array<std::string_view, 2> kToastDurations = {"short", "long"};

// `strict` is in the generic schema for the seven node-targeted actions; the others refuse it
// in these words (docs/payload.md §10.3).
constexpr ParamConstraint kNoStrict = {.kind = C::Forbidden,
                                       .key = "strict",
                                       .message =
                                           "strict is only supported by node-targeted "
                                           "actions"};
constexpr std::array<ParamConstraint, 1> kNoStrictOnly = {kNoStrict};

constexpr std::array<ParamConstraint, 2> kApplicationRequired = {{
    {C::RequiredNotBlank, "applicationId"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kSessionNotBlank = {{
    {C::NotBlankIfGiven, "sessionId"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kUriRequired = {{
    {C::RequiredNotBlank, "uri"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kSleep = {{
    {C::Range,
     "durationMs",
     {},
     0,
     limits::kMaxSleepMs,
     false,
     false,
     true,
     "sleep requires params.durationMs >= 0",
     "sleep.durationMs must not exceed 120000 ms"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 1> kMatcherRequired = {{
    {C::Required, "matcher"},
}};
constexpr std::array<ParamConstraint, 2> kReadText = {{
    {C::Required, "matcher"},
    {C::CrossFieldRule, ""},
}};
constexpr std::array<ParamConstraint, 4> kScrollAndClick = {{
    {C::Required, "matcher"},
    {C::OneOf, "direction", kDirections},
    {C::Range, "distanceRatio", {}, 0, 1},
    {C::Range, "settleDelayMs", {}, 0, limits::kMaxSettleDelayMs},
}};
constexpr std::array<ParamConstraint, 2> kEnterText = {{
    {C::Required, "matcher"},
    {C::RequiredNonEmpty,
     "text",
     {},
     0,
     0,
     false,
     false,
     false,
     "enter_text requires non-empty params.text"},
}};
constexpr std::array<ParamConstraint, 3> kScroll = {{
    {C::OneOf, "direction", kDirections, 0, 0, false, false, true},
    {C::Range, "distanceRatio", {}, 0, 1},
    {C::Range, "settleDelayMs", {}, 0, limits::kMaxSettleDelayMs},
}};
constexpr std::array<ParamConstraint, 6> kScrollUntil = {{
    {C::OneOf, "direction", kDirections},
    {C::Range, "distanceRatio", {}, 0, 1},
    {C::Range, "settleDelayMs", {}, 0, limits::kMaxSettleDelayMs},
    {C::Range, "maxScrolls", {}, limits::kMinMaxScrolls, limits::kMaxMaxScrolls, true},
    {C::Range, "maxDurationMs", {}, 0, limits::kMaxScrollDurationMs},
    {C::Range,
     "noPositionChangeThreshold",
     {},
     limits::kMinNoPositionChangeThreshold,
     limits::kMaxNoPositionChangeThreshold,
     true},
}};
constexpr std::array<ParamConstraint, 3> kPressKey = {{
    {C::RequiredNotBlank, "key"},
    {C::OneOf, "key", kKeys},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kScreenshot = {{
    {C::NotBlankIfGiven,
     "path",
     {},
     0,
     0,
     false,
     false,
     false,
     "take_screenshot params.path must be a non-empty string"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kWaitForNavigation = {{
    {C::Range,
     "timeoutMs",
     {},
     0,
     limits::kMaxWaitForNavigationMs,
     false,
     true,
     true,
     "wait_for_navigation requires params.timeoutMs > 0",
     "wait_for_navigation params.timeoutMs must not exceed 30000"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 2> kLabelRequired = {{
    {C::Required, "labelMatcher"},
    kNoStrict,
}};
constexpr std::array<ParamConstraint, 3> kQuery = {{
    {.kind = C::OneOfExact, .key = "visibility", .values = kVisibilities},
    {.kind = C::Range,
     .key = "limit",
     .min = limits::kMinQueryLimit,
     .max = limits::kMaxQueryLimit,
     .integer = true},
    kNoStrict,
}};

constexpr ParamConstraint gesture_duration(std::string_view key) {
  return {.kind = C::Range,
          .key = key,
          .min = limits::kMinGestureDurationMs,
          .max = limits::kMaxGestureDurationMs,
          .integer = true};
}
constexpr std::array<ParamConstraint, 5> kSwipe = {{
    {C::Required, "start"},
    {C::Required, "end"},
    {C::CrossFieldRule, ""},
    {C::Required, "durationMs"},
    gesture_duration("durationMs"),
}};
constexpr std::array<ParamConstraint, 7> kDrag = {{
    {C::Required, "start"},
    {C::Required, "end"},
    {C::CrossFieldRule, ""},
    {C::Required, "holdDurationMs"},
    gesture_duration("holdDurationMs"),
    {C::Required, "moveDurationMs"},
    gesture_duration("moveDurationMs"),
}};
constexpr std::array<ParamConstraint, 2> kShowToast = {{
    {C::RequiredNotBlank, "text"},
    {.kind = C::OneOfExact, .key = "duration", .values = kToastDurations},
}};

// Android API 26 added continued strokes (GestureDescription.StrokeDescription.continueStroke).
constexpr int kDragMinSdk = 26;

namespace L = limits;

constexpr ParamConstraint kControlWait{C::Range, "waitTimeoutMs",      {},
                                       0,        L::kMaxControlWaitMs, true};
constexpr std::array<ParamConstraint, 3> kNotificationList = {{
    {C::NotBlankIfGiven, "applicationId"},
    {C::Range, "limit", {}, 1, L::kMaxListLimit, true},
    {C::Range, "maxTextChars", {}, 1, L::kMaxListTextChars, true},
}};
constexpr std::array<ParamConstraint, 3> kMediaTarget = {{
    {C::CrossFieldRule, ""},
    {C::NotBlankIfGiven, "applicationId"},
    {C::NotBlankIfGiven, "mediaSessionId"},
}};
constexpr std::string_view kObserveDuration =
    "observe_media requires params.durationMs, an integer in [1, 30000] "
    "(media observe --session <id> --duration-ms 10000)";
constexpr std::array<ParamConstraint, 4> kObserveMedia = {{
    {C::CrossFieldRule, ""},
    {C::NotBlankIfGiven, "applicationId"},
    {C::NotBlankIfGiven, "mediaSessionId"},
    {C::Range,
     "durationMs",
     {},
     1,
     L::kMaxObserveDurationMs,
     true,
     false,
     true,
     kObserveDuration,
     kObserveDuration},
}};
constexpr std::array<ParamConstraint, 4> kMediaControl = {{
    {C::CrossFieldRule, ""},
    {C::NotBlankIfGiven, "applicationId"},
    {C::NotBlankIfGiven, "mediaSessionId"},
    kControlWait,
}};
constexpr std::string_view kSeekPosition =
    "media_seek requires params.positionMs, an integer in [0, 9007199254740991]";
constexpr std::array<ParamConstraint, 6> kMediaSeek = {{
    {C::CrossFieldRule, ""},
    {C::NotBlankIfGiven, "applicationId"},
    {C::NotBlankIfGiven, "mediaSessionId"},
    {C::Range,
     "positionMs",
     {},
     0,
     L::kMaxPositionMs,
     true,
     false,
     true,
     kSeekPosition,
     kSeekPosition},
    kControlWait,
    {C::Range, "positionToleranceMs", {}, 0, L::kMaxPositionToleranceMs, true},
}};
constexpr std::array<ParamConstraint, 2> kDismissNotification = {{
    {C::RequiredNotBlank, "notificationKey"},
    kControlWait,
}};
constexpr std::array<ParamConstraint, 2> kInvokeNotificationAction = {{
    {C::RequiredNotBlank, "notificationKey"},
    {C::RequiredNotBlank, "actionId"},
}};
constexpr std::array<std::string_view, 2> kSides = {"left", "right"};
constexpr std::array<ParamConstraint, 13> kSetOnScreenLog = {{
    {C::CrossFieldRule, ""},
    {C::DisplayText, "text"},
    {C::DisplayText, "template"},
    {C::Template, "template"},
    {C::OneOfExact, "anchor", kSides},
    {C::OneOfExact, "textAlign", kSides},
    {C::Range, "topOffsetDp", {}, 0, L::kMaxPanelOffsetDp, true},
    {C::Range, "edgeOffsetDp", {}, 0, L::kMaxPanelOffsetDp, true},
    {C::Range, "widthDp", {}, L::kMinPanelWidthDp, L::kMaxPanelWidthDp, true},
    {C::Range, "fontSizeSp", {}, L::kMinPanelFontSizeSp, L::kMaxPanelFontSizeSp, true},
    {C::Color, "textColor"},
    {C::Color, "backgroundColor"},
    {C::Range, "ttlMs", {}, L::kMinPanelTtlMs, L::kMaxPanelTtlMs, true},
}};
constexpr std::array<std::string_view, 1> kSetOnScreenLogAliases = {"on_screen_log_set"};
constexpr std::array<std::string_view, 1> kClearOnScreenLogAliases = {"on_screen_log_clear"};
constexpr std::string_view kOnScreenLogCodes = "ON_SCREEN_LOG_";

constexpr std::array<RemovedParam, 1> kSnapshotRemoved = {{
    {"format", "'format' was removed from snapshot_ui. Remove this parameter."},
}};

const ParamSchema* const kGeneric = &generic_param_schema();
const ParamSchema* const kNoParams = &schemas::no_params();

using T = ActionType;
using Pre = PreflightEffect;
using Post = PostProcessing;
using R = ActionReadiness;
using E = StepEffect;

// clang-format off
const std::array<ActionSpec, 35> kActions = {{
    {.type = T::OpenApp, .name = "open_app", .effect = E::Navigate, .schema = kGeneric,
     .constraints = kApplicationRequired,
     .title = "Open app", .description = "Bring an app to the front, starting it at its launcher screen.",
     .idempotent = true},
    {.type = T::OpenUri, .name = "open_uri", .aliases = kOpenUriAliases, .effect = E::Navigate, .schema = kGeneric,
     .constraints = kUriRequired,
     .title = "Open URI", .description = "Open a URI (a web page or a deep link) in the app that handles it."},
    {.type = T::CloseApp, .name = "close_app", .effect = E::Navigate, .schema = kGeneric,
     .constraints = kApplicationRequired, .preflight = Pre::ForceStopApplication,
     .title = "Close app", .description = "Force-stop an app; the host runs am force-stop before dispatch.",
     .destructive = true, .idempotent = true},
    {.type = T::StartRecording, .name = "start_recording", .effect = E::System, .schema = kGeneric,
     .constraints = kSessionNotBlank,
     .title = "Start recording", .description = "Start the Operator's recording of the session."},
    {.type = T::StopRecording, .name = "stop_recording", .effect = E::System, .schema = kGeneric,
     .constraints = kSessionNotBlank,
     .title = "Stop recording", .description = "Stop the Operator's recording of the session.",
     .idempotent = true},
    {.type = T::WaitForNode, .name = "wait_for_node", .aliases = kWaitAliases, .read_only = true,
     .schema = kGeneric, .constraints = kMatcherRequired,
     .title = "Wait for element", .description = "Wait until an element that matches is on screen."},
    {.type = T::Click, .name = "click", .aliases = kClickAliases, .effect = E::Tap, .schema = kGeneric,
     .cross_field_rule = rules::click,
     .cross_field_rule_summary = "exactly one of `matcher` and `coordinate`; no `clickType: \"focus\"` with a coordinate",
     .unsettles_screen = true,
     .title = "Click", .description = "Tap, long-press or focus the element a matcher selects, or tap a screen point.",
     .destructive = true},
    {.type = T::ScrollAndClick, .name = "scroll_and_click", .effect = E::Tap, .schema = kGeneric,
     .constraints = kScrollAndClick, .unsettles_screen = true,
     .title = "Scroll and click", .description = "Scroll until an element that matches is visible, then click it.",
     .destructive = true},
    {.type = T::Scroll, .name = "scroll", .effect = E::Gesture, .schema = kGeneric, .constraints = kScroll,
     .title = "Scroll", .description = "Scroll a scrollable container once in a direction."},
    {.type = T::ScrollUntil, .name = "scroll_until", .effect = E::Gesture, .schema = kGeneric,
     .constraints = kScrollUntil, .cross_field_rule = rules::scroll_until,
     .cross_field_rule_summary = "`clickAfter: true` needs `matcher`",
     .title = "Scroll until visible", .description = "Scroll until an element that matches is visible (and click it with clickAfter).",
     .destructive = true},
    {.type = T::ReadText, .name = "read_text", .aliases = kReadAliases, .read_only = true,
     .schema = kGeneric, .constraints = kReadText, .cross_field_rule = rules::read_text,
     .cross_field_rule_summary = "`validator: \"regex\"` needs a non-blank `validatorPattern` that compiles",
     .title = "Read text", .description = "Read the text of the element a matcher selects (or of every match)."},
    {.type = T::EnterText, .name = "enter_text", .aliases = kEnterTextAliases, .effect = E::Type, .schema = kGeneric,
     .constraints = kEnterText,
     .title = "Type text", .description = "Type text into the element a matcher selects.",
     .destructive = true},
    {.type = T::Snapshot, .name = "snapshot", .aliases = kSnapshotAliases, .read_only = true,
     .schema = kGeneric, .constraints = kNoStrictOnly, .removed_params = kSnapshotRemoved,
     .post_processing = Post::AttachSnapshot,
     .title = "Snapshot", .description = "Capture the UI hierarchy of the screen as XML."},
    {.type = T::TakeScreenshot, .name = "take_screenshot", .aliases = kScreenshotAliases,
     .read_only = true, .schema = kGeneric, .constraints = kScreenshot,
     .post_processing = Post::CaptureScreenshot,
     .title = "Screenshot", .description = "Capture the screen as a PNG file on the host."},
    {.type = T::Sleep, .name = "sleep", .read_only = true, .schema = kGeneric,
     .constraints = kSleep,
     .title = "Sleep", .description = "Pause on the device for a number of milliseconds."},
    {.type = T::PressKey, .name = "press_key", .aliases = kPressKeyAliases, .effect = E::Navigate, .schema = kGeneric,
     .constraints = kPressKey,
     .title = "Press key", .description = "Press the back, home or recents key.",
     .destructive = true},
    {.type = T::WaitForNavigation, .name = "wait_for_navigation", .read_only = true,
     .schema = kGeneric, .constraints = kWaitForNavigation,
     .cross_field_rule = rules::wait_for_navigation,
     .cross_field_rule_summary = "`expectedPackage` or `expectedNode`",
     .title = "Wait for navigation", .description = "Wait until an app or an element is in front."},
    {.type = T::ReadKeyValuePair, .name = "read_key_value_pair", .read_only = true,
     .schema = kGeneric, .constraints = kLabelRequired,
     .title = "Read value", .description = "Read the value shown beside a label."},
    {.type = T::ListNotifications, .name = "list_notifications", .read_only = true,
     .readiness = R::BackgroundObservation, .schema = &schemas::notification_list(),
     .constraints = kNotificationList, .post_processing = Post::DecodePayload,
     .title = "List notifications", .description = "List the notifications posted on the device, newest first."},
    {.type = T::DismissNotification, .name = "dismiss_notification", .effect = E::System,
     .schema = &schemas::notification_dismiss(), .constraints = kDismissNotification,
     .post_processing = Post::DecodePayload,
     .title = "Dismiss notification", .description = "Dismiss a notification by its key (and wait until it is gone with waitTimeoutMs).",
     .destructive = true, .idempotent = true},
    {.type = T::InvokeNotificationAction, .name = "invoke_notification_action", .effect = E::Tap,
     .schema = &schemas::notification_action(), .constraints = kInvokeNotificationAction,
     .post_processing = Post::DecodePayload,
     .title = "Invoke notification action", .description = "Press one of a notification's action buttons.",
     .destructive = true},
    {.type = T::ListMediaSessions, .name = "list_media_sessions", .read_only = true,
     .readiness = R::BackgroundObservation, .schema = &schemas::notification_list(),
     .constraints = kNotificationList, .post_processing = Post::DecodePayload,
     .title = "List media sessions", .description = "List the active media sessions with their playback state."},
    {.type = T::GetMediaStatus, .name = "get_media_status", .read_only = true,
     .readiness = R::BackgroundObservation, .schema = &schemas::media_target(),
     .constraints = kMediaTarget, .cross_field_rule = rules::media_target,
     .cross_field_rule_summary = "exactly one of `applicationId` and `mediaSessionId`",
     .post_processing = Post::DecodePayload,
     .title = "Media status", .description = "Read one media session's state, position and controls."},
    {.type = T::ObserveMedia, .name = "observe_media", .read_only = true,
     .readiness = R::BackgroundObservation, .schema = &schemas::media_observe(),
     .constraints = kObserveMedia, .cross_field_rule = rules::media_target,
     .cross_field_rule_summary = "exactly one of `applicationId` and `mediaSessionId`",
     .post_processing = Post::DecodePayload,
     .title = "Observe media", .description = "Sample a media session's player reports for durationMs."},
    {.type = T::MediaPlay, .name = "media_play", .effect = E::System, .readiness = R::BackgroundService,
     .schema = &schemas::media_control(), .constraints = kMediaControl,
     .cross_field_rule = rules::media_target,
     .cross_field_rule_summary = "exactly one of `applicationId` and `mediaSessionId`",
     .post_processing = Post::DecodePayload,
     .title = "Play media", .description = "Send play to a media session (and wait for it with waitTimeoutMs).",
     .idempotent = true},
    {.type = T::MediaPause, .name = "media_pause", .effect = E::System, .readiness = R::BackgroundService,
     .schema = &schemas::media_control(), .constraints = kMediaControl,
     .cross_field_rule = rules::media_target,
     .cross_field_rule_summary = "exactly one of `applicationId` and `mediaSessionId`",
     .post_processing = Post::DecodePayload,
     .title = "Pause media", .description = "Send pause to a media session (and wait for it with waitTimeoutMs).",
     .idempotent = true},
    {.type = T::MediaSeek, .name = "media_seek", .effect = E::System, .readiness = R::BackgroundService,
     .schema = &schemas::media_seek(), .constraints = kMediaSeek,
     .cross_field_rule = rules::media_target,
     .cross_field_rule_summary = "exactly one of `applicationId` and `mediaSessionId`",
     .post_processing = Post::DecodePayload,
     .title = "Seek media", .description = "Seek a media session to positionMs (and wait until it is there with waitTimeoutMs).",
     .idempotent = true},
    {.type = T::SetOnScreenLog, .name = "set_on_screen_log", .aliases = kSetOnScreenLogAliases, .effect = E::System,
     .schema = &schemas::on_screen_log_set(),
     .constraints = kSetOnScreenLog, .cross_field_rule = rules::set_on_screen_log,
     .cross_field_rule_summary = "exactly one of `text` and `template`",
     .promoted_error_prefix = kOnScreenLogCodes, .input = InputForm::Verbatim,
     .title = "Show on-screen log", .description = "Show (or replace) the Operator's log panel on the screen, for ttlMs.",
     .idempotent = true},
    {.type = T::ClearOnScreenLog, .name = "clear_on_screen_log",
     .aliases = kClearOnScreenLogAliases, .effect = E::System, .schema = &schemas::on_screen_log_clear(),
     .promoted_error_prefix = kOnScreenLogCodes, .input = InputForm::Verbatim,
     .title = "Clear on-screen log", .description = "Remove the Operator's log panel from the screen.",
     .idempotent = true},
    {.type = T::QueryUi, .name = "query_ui", .read_only = true, .schema = &schemas::query_ui(),
     .constraints = kQuery, .post_processing = Post::ParseQuery,
     .title = "Query UI", .description = "List the nodes that match (counted and bounded) without acting on any."},
    {.type = T::Swipe, .name = "swipe", .effect = E::Gesture, .schema = &schemas::swipe(), .constraints = kSwipe,
     .cross_field_rule = rules::distinct_endpoints,
     .cross_field_rule_summary = "`start` and `end` must differ",
     .title = "Swipe", .description = "Swipe in a straight line between two screen points.",
     .destructive = true},
    {.type = T::Drag, .name = "drag", .effect = E::Gesture, .schema = &schemas::drag(), .constraints = kDrag,
     .cross_field_rule = rules::distinct_endpoints,
     .cross_field_rule_summary = "`start` and `end` must differ",
     .preflight = Pre::RequireGestureSdk, .min_sdk = kDragMinSdk,
     .title = "Drag", .description = "Press and hold a point, move to another without lifting, release (Android 8.0+).",
     .destructive = true},
    {.type = T::ShowToast, .name = "show_toast", .effect = E::System, .schema = &schemas::show_toast(),
     .constraints = kShowToast, .input = InputForm::ParamsVerbatim,
     .title = "Show toast", .description = "Show a short message in a toast."},
    {.type = T::CancelToast, .name = "cancel_toast", .effect = E::System, .schema = kNoParams,
     .input = InputForm::ParamsVerbatim,
     .title = "Cancel toast", .description = "Hide the toast the Operator showed.",
     .idempotent = true},
    {.type = T::DoctorPing, .name = "doctor_ping", .read_only = true, .from_callers = false,
     .title = "Readiness probe", .description = "The host's probe of the Operator and the screen."},
}};
// clang-format on

constexpr std::array<std::string_view, 9> kNoEffectCodes = {
    "NODE_NOT_FOUND",      "NODE_AMBIGUOUS",          "NODE_NOT_CLICKABLE",
    "CONTAINER_NOT_FOUND", "CONTAINER_AMBIGUOUS",     "CONTAINER_NOT_SCROLLABLE",
    "GESTURE_UNSUPPORTED", "SECURITY_BLOCK_DETECTED", "SERVICE_UNAVAILABLE",
};

}  // namespace

std::span<const ActionSpec> action_table() {
  return kActions;
}

const ActionSpec& action_spec(ActionType type) {
  for (const ActionSpec& spec : kActions) {
    if (spec.type == type) return spec;
  }
  throw std::logic_error("an ActionType without a row in the action table");
}

const ActionSpec* find_action(std::string_view name) {
  for (const ActionSpec& spec : kActions) {
    if (spec.name == name) return &spec;
    if (std::find(spec.aliases.begin(), spec.aliases.end(), name) != spec.aliases.end()) {
      return &spec;
    }
  }
  return nullptr;
}

const ActionSpec* find_caller_action(std::string_view raw_type) {
  const ActionSpec* spec = find_action(lowercase(trim(raw_type)));
  if (spec == nullptr || !spec->from_callers) return nullptr;
  // A Verbatim row's type is recognised only as written (docs/payload.md §9).
  if (spec->input == InputForm::Verbatim && find_action(raw_type) != spec) return nullptr;
  return spec;
}

std::string normalize_action_type(std::string_view raw) {
  const ActionSpec* spec = find_caller_action(raw);
  return spec != nullptr ? std::string(spec->name) : lowercase(trim(raw));
}

std::string_view to_string(StepEffect effect) {
  return kStepEffectNames[static_cast<std::size_t>(effect)];
}

std::optional<StepEffect> find_step_effect(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kStepEffectNames); ++i) {
    if (kStepEffectNames[i] == name) return static_cast<StepEffect>(i);
  }
  return std::nullopt;
}

StepEffect effect_of(const Action& action) {
  if (action.type == ActionType::ScrollUntil && action.params_or_empty().click_after == true) {
    return StepEffect::Tap;
  }
  return action_spec(action.type).effect;
}

bool is_read_only_action(std::string_view name) {
  const ActionSpec* spec = find_action(name);
  if (spec == nullptr) spec = find_action(lowercase(trim(name)));
  return spec != nullptr && spec->read_only;
}

bool is_no_effect_error_code(std::string_view code) {
  return std::find(kNoEffectCodes.begin(), kNoEffectCodes.end(), code) != kNoEffectCodes.end();
}

}  // namespace clawperator::contract
