// The params objects actions accept. The order of each list is the order the payload writes
// the keys in and the order validation reports them (docs/payload.md "Params").
#include "param_schemas.hpp"

#include <algorithm>
#include <array>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/limits.hpp"

namespace clawperator::contract {
namespace {

using P = ActionParams;

constexpr std::array<ParamSpec, 35> kGenericParams = {{
    {"applicationId", &P::application_id, 0, "Android package name"},
    {"sessionId", &P::session_id, 0, "Recording session id"},
    {"uri", &P::uri, limits::kMaxUriLength, "URI to open"},
    {"durationMs", &P::duration_ms, 0, "Duration in milliseconds"},
    {"path", &P::path, 0, "Host path of the screenshot file"},
    {"matcher", &P::matcher, 0, "The element to act on"},
    {"coordinate", &P::coordinate, 0, "Screen point {x, y} in pixels"},
    {"text", &P::text, limits::kMaxTextLength, "Text to type"},
    {"submit", &P::submit, 0, "Press the IME action after typing"},
    {"clear", &P::clear, 0, "Clear the field before typing"},
    {"clickType", &P::click_type, 0, "default, long_click or focus"},
    {"container", &P::container, 0, "The container to search in"},
    {"direction", &P::direction, 0, "down, up, left or right"},
    {"maxSwipes", &P::max_swipes, 0, "Swipes before giving up"},
    {"distanceRatio", &P::distance_ratio, 0, "Share of the container to scroll, 0..1"},
    {"settleDelayMs", &P::settle_delay_ms, 0, "Pause after each scroll"},
    {"maxScrolls", &P::max_scrolls, 0, "Scrolls before giving up"},
    {"maxDurationMs", &P::max_duration_ms, 0, "Time before giving up"},
    {"noPositionChangeThreshold", &P::no_position_change_threshold, 0,
     "Scrolls without movement before giving up"},
    {"findFirstScrollableChild", &P::find_first_scrollable_child, 0,
     "Scroll the container's first scrollable descendant"},
    {"clickAfter", &P::click_after, 0, "Click the element once found"},
    {"validator", &P::validator, 0, "regex: check the text read"},
    {"validatorPattern", &P::validator_pattern, 0, "ECMAScript pattern for validator regex"},
    {"key", &P::key, 0, "back, home or recents"},
    {"retry", &P::retry, 0, "The Operator's retry policy"},
    {"scrollRetry", &P::scroll_retry, 0, "The Operator's retry policy for scrolls"},
    {"clickRetry", &P::click_retry, 0, "The Operator's retry policy for clicks"},
    {"expectedPackage", &P::expected_package, limits::kMaxExpectedPackageLength,
     "Package expected in front"},
    {"expectedNode", &P::expected_node, 0, "Element expected on screen"},
    {"timeoutMs", &P::timeout_ms, 0, "How long to wait"},
    {"labelMatcher", &P::label_matcher, 0, "The label whose value to read"},
    {"all", &P::all, 0, "Read every match"},
    {"strict", &P::strict, 0, "Refuse an ambiguous target instead of acting on the first match"},
    {"skipNavigationWait", &P::skip_navigation_wait, 0,
     "Do not wait for the screen to settle after the action"},
    {"navigationTimeoutMs", &P::navigation_timeout_ms, 0,
     "Longest wait for the screen to settle after the action, 1000..120000"},
}};

// The newest original's generic rule: an integer within the execution timeout's bounds.
constexpr std::array<ParamConstraint, 1> kGenericConstraints = {{
    {.kind = ConstraintKind::Range,
     .key = "navigationTimeoutMs",
     .min = limits::kMinExecutionTimeoutMs,
     .max = limits::kMaxExecutionTimeoutMs,
     .integer = true},
}};

constexpr std::array<ParamSpec, 4> kQueryParams = {{
    {"matcher", &P::matcher, 0, "The nodes to list (omitted: every eligible node)"},
    {"visibility", &P::visibility, 0, "on_screen (default) or all"},
    {"limit", &P::limit, 0, "Most nodes returned, 1..1000 (default 100)"},
    // Refused with its own message (strict is for node-targeted actions).
    {"strict", &P::strict, 0, "Not accepted by query_ui"},
}};

constexpr std::array<ParamSpec, 3> kSwipeParams = {{
    {"start", &P::start, 0, "Where the finger lands {x, y}, in pixels"},
    {"end", &P::end, 0, "Where it lifts {x, y}, in pixels"},
    {"durationMs", &P::duration_ms, 0, "How long the swipe takes, 1..10000"},
}};

constexpr std::array<ParamSpec, 4> kDragParams = {{
    {"start", &P::start, 0, "Where the finger lands {x, y}, in pixels"},
    {"end", &P::end, 0, "Where it lifts {x, y}, in pixels"},
    {"holdDurationMs", &P::hold_duration_ms, 0, "How long it holds before moving, 1..10000"},
    {"moveDurationMs", &P::move_duration_ms, 0, "How long the move takes, 1..10000"},
}};

constexpr std::array<ParamSpec, 2> kToastParams = {{
    {"text", &P::text, limits::kMaxToastTextLength, "The text shown (kept verbatim)"},
    {"duration", &P::duration, 0, "short (default) or long"},
}};

constexpr ParamSchema kGenericSchema{"generic", kGenericParams, false, kGenericConstraints};
constexpr ParamSchema kQuerySchema{"query_ui", kQueryParams};
constexpr ParamSchema kSwipeSchema{"swipe", kSwipeParams};
constexpr ParamSchema kDragSchema{"drag", kDragParams};
constexpr ParamSchema kToastSchema{"show_toast", kToastParams};
constexpr ParamSchema kNoParamsSchema{"none", {}};

namespace L = limits;

constexpr ParamSpec kApplication{"applicationId", &P::application_id, L::kMaxApplicationIdLength,
                                 "Android package name"};
constexpr ParamSpec kMediaSession{"mediaSessionId", &P::media_session_id,
                                  L::kMaxMediaSessionIdLength,
                                  "Media session id (from list_media_sessions)"};
constexpr ParamSpec kWaitTimeout{"waitTimeoutMs", &P::wait_timeout_ms, 0,
                                 "How long to wait for the change to show (0: do not wait)"};
constexpr ParamSpec kNotificationKey{"notificationKey", &P::notification_key,
                                     L::kMaxNotificationKeyLength,
                                     "Notification key (from list_notifications)"};

constexpr std::array<ParamSpec, 3> kNotificationListParams = {{
    kApplication,
    {"limit", &P::limit, 0, "Most entries to return (default 25)"},
    {"maxTextChars", &P::max_text_chars, 0, "Longest text per field (default 256)"},
}};
constexpr std::array<ParamSpec, 2> kMediaTargetParams = {{kApplication, kMediaSession}};
constexpr std::array<ParamSpec, 3> kMediaObserveParams = {{
    kApplication,
    kMediaSession,
    {"durationMs", &P::duration_ms, 0, "How long to observe"},
}};
constexpr std::array<ParamSpec, 3> kMediaControlParams = {
    {kApplication, kMediaSession, kWaitTimeout}};
constexpr std::array<ParamSpec, 5> kMediaSeekParams = {{
    kApplication,
    kMediaSession,
    {"positionMs", &P::position_ms, 0, "Position to seek to"},
    kWaitTimeout,
    {"positionToleranceMs", &P::position_tolerance_ms, 0,
     "How close counts as reached (default 1000)"},
}};
constexpr std::array<ParamSpec, 2> kDismissParams = {{kNotificationKey, kWaitTimeout}};
constexpr std::array<ParamSpec, 2> kNotificationActionParams = {{
    kNotificationKey,
    {"actionId", &P::action_id, L::kMaxNotificationActionIdLength,
     "Action id (from list_notifications)"},
}};
constexpr std::array<ParamSpec, 11> kOnScreenLogSetParams = {{
    {"text", &P::text, L::kMaxPanelTextLength, "Text to show, as written"},
    {"template", &P::template_text, L::kMaxPanelTextLength, "Text with {{placeholders}}"},
    {"anchor", &P::anchor, 0, "left or right edge"},
    {"textAlign", &P::text_align, 0, "left or right"},
    {"topOffsetDp", &P::top_offset_dp, 0, "Distance from the top (dp)"},
    {"edgeOffsetDp", &P::edge_offset_dp, 0, "Distance from the anchored edge (dp)"},
    {"widthDp", &P::width_dp, 0, "Panel width (dp)"},
    {"fontSizeSp", &P::font_size_sp, 0, "Text size (sp)"},
    {"textColor", &P::text_color, 0, "#RRGGBB or #AARRGGBB"},
    {"backgroundColor", &P::background_color, 0, "#RRGGBB or #AARRGGBB"},
    {"ttlMs", &P::ttl_ms, 0, "How long the panel stays"},
}};

constexpr ParamSchema kNotificationListSchema{"notification list", kNotificationListParams};
constexpr ParamSchema kMediaTargetSchema{"media target", kMediaTargetParams};
constexpr ParamSchema kMediaObserveSchema{"media observe", kMediaObserveParams};
constexpr ParamSchema kMediaControlSchema{"media control", kMediaControlParams};
constexpr ParamSchema kMediaSeekSchema{"media seek", kMediaSeekParams};
constexpr ParamSchema kDismissSchema{"notification dismiss", kDismissParams};
constexpr ParamSchema kNotificationActionSchema{"notification action", kNotificationActionParams};
constexpr ParamSchema kOnScreenLogSetSchema{"on-screen log", kOnScreenLogSetParams, true};
constexpr ParamSchema kOnScreenLogClearSchema{"none", {}, true};

}  // namespace

ParamKind kind_of(const ParamMember& member) {
  switch (member.index()) {
    case 0:
      return ParamKind::String;
    case 1:
      return ParamKind::Number;
    case 2:
      return ParamKind::Boolean;
    case 3:
      return ParamKind::Object;
    case 4:
      return ParamKind::Matcher;
    default:
      break;
  }
  return ParamKind::Coordinate;
}

const ParamSpec* ParamSchema::find(std::string_view key) const {
  const auto it = std::find_if(params.begin(), params.end(),
                               [&](const ParamSpec& spec) { return spec.key == key; });
  return it == params.end() ? nullptr : &*it;
}

const ParamSchema& generic_param_schema() {
  return kGenericSchema;
}

namespace schemas {

const ParamSchema& notification_list() {
  return kNotificationListSchema;
}
const ParamSchema& media_target() {
  return kMediaTargetSchema;
}
const ParamSchema& media_observe() {
  return kMediaObserveSchema;
}
const ParamSchema& media_control() {
  return kMediaControlSchema;
}
const ParamSchema& media_seek() {
  return kMediaSeekSchema;
}
const ParamSchema& notification_dismiss() {
  return kDismissSchema;
}
const ParamSchema& notification_action() {
  return kNotificationActionSchema;
}
const ParamSchema& on_screen_log_set() {
  return kOnScreenLogSetSchema;
}
const ParamSchema& on_screen_log_clear() {
  return kOnScreenLogClearSchema;
}
const ParamSchema& query_ui() {
  return kQuerySchema;
}
const ParamSchema& swipe() {
  return kSwipeSchema;
}
const ParamSchema& drag() {
  return kDragSchema;
}
const ParamSchema& show_toast() {
  return kToastSchema;
}
const ParamSchema& no_params() {
  return kNoParamsSchema;
}

}  // namespace schemas

}  // namespace clawperator::contract
