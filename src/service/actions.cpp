#include "clawperator/service/actions.hpp"

#include <algorithm>
#include <cmath>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/io/random_id.hpp"

namespace clawperator::service {
namespace {

constexpr double kDefaultTimeoutMs = 30000;
// Waits get this much more than the wait itself, so that the envelope
// outlives the Operator's own timeout and reports it.
constexpr double kWaitMarginMs = 5000;
constexpr std::string_view kActionSource = "clawperator-action";
constexpr std::string_view kCliSource = "clawperator-cli";
constexpr std::string_view kObserveSource = "clawperator-observe";

using contract::ActionType;

// The type's canonical name comes from its row of the action table
// (src/contract/action_table.cpp), so a builder cannot drift from what validation accepts.
Json action(std::string_view id, ActionType type, std::optional<Json> params = {}) {
  Json out = Json::object();
  out["id"] = id;
  out["type"] = contract::action_spec(type).name;
  if (params) out["params"] = std::move(*params);
  return out;
}

Json execution(const std::string& command_id, const std::string& task_id, std::string_view source,
               double timeout_ms, Json step) {
  Json out = Json::object();
  out["commandId"] = command_id;
  out["taskId"] = task_id;
  out["source"] = source;
  out["expectedFormat"] = "android-ui-automator";
  out["timeoutMs"] = milliseconds_json(timeout_ms);
  out["actions"] = Json::array({std::move(step)});
  return out;
}

// The element actions (click, type, read, ...): a stamped id that is also the
// task id, and the direct mode.
Json direct_action(std::string_view prefix, const IdStamp& stamp, double timeout_ms, Json step) {
  const std::string id = stamped_id(prefix, stamp);
  Json out = execution(id, id, kActionSource, timeout_ms, std::move(step));
  out["mode"] = "direct";
  return out;
}

// The original's "open_app_<ms>" form, its time stamp replaced by the random bits.
std::string underscored_id(std::string_view prefix, const IdStamp& stamp) {
  return std::string(prefix) + stamp.random;
}

bool is_scheme_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '-' || c == '.';
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

IdStamp make_id_stamp() {
  return IdStamp{io::random_hex(16)};
}

std::string fresh_id_random() {
  return make_id_stamp().random;
}

std::string stamped_id(std::string_view prefix, const IdStamp& stamp) {
  return std::string(prefix) + "-" + stamp.random;
}

Json milliseconds_json(double value) {
  if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e15) {
    return static_cast<long long>(value);
  }
  return value;
}

bool is_uri_target(std::string_view target) {
  // An Android package name never holds a ':', so a leading `scheme:` (tel:123, mailto:a@b.c,
  // geo:0,0) names a URI. The original opened those as packages, which cannot work.
  if (const std::size_t colon = target.find(':');
      colon != std::string_view::npos && colon > 0 && is_letter(target[0]) &&
      std::all_of(target.begin(), target.begin() + static_cast<std::ptrdiff_t>(colon),
                  is_scheme_char)) {
    return true;
  }
  // The original's test is an unanchored /[a-z][a-z0-9+\-.]*:\/\//i: some letter
  // in the run of scheme characters right before a "://".
  for (std::size_t at = target.find("://"); at != std::string_view::npos;
       at = target.find("://", at + 1)) {
    for (std::size_t i = at; i > 0 && is_scheme_char(target[i - 1]); --i) {
      if (is_letter(target[i - 1])) return true;
    }
  }
  return false;
}

Json build_snapshot(const IdStamp& stamp) {
  const std::string id = stamped_id("snapshot", stamp);
  Json out =
      execution(id, id, kObserveSource, kDefaultTimeoutMs, action("snap", ActionType::Snapshot));
  out["mode"] = "direct";
  return out;
}

Json build_screenshot(const IdStamp& stamp, const std::optional<std::string>& path,
                      std::optional<double> timeout_ms) {
  Json params = Json::object();
  if (path) params["path"] = *path;
  const std::string id = stamped_id("screenshot", stamp);
  return execution(id, id, kObserveSource, timeout_ms.value_or(kDefaultTimeoutMs),
                   action("snap", ActionType::TakeScreenshot, std::move(params)));
}

Json build_click(const IdStamp& stamp, const std::optional<Json>& matcher,
                 const std::optional<Coordinate>& coordinate, ClickType click_type) {
  Json params = Json::object();
  if (matcher) params["matcher"] = *matcher;
  if (coordinate) params["coordinate"] = Json{{"x", coordinate->x}, {"y", coordinate->y}};
  // The default click is the Operator's default: the original omits it.
  if (click_type == ClickType::LongClick) params["clickType"] = "long_click";
  if (click_type == ClickType::Focus) params["clickType"] = "focus";
  return direct_action("click", stamp, kDefaultTimeoutMs,
                       action("click", ActionType::Click, std::move(params)));
}

Json build_open(const IdStamp& stamp, const std::string& target) {
  constexpr double kOpenTimeoutMs = 15000;
  if (is_uri_target(target)) {
    return execution(underscored_id("open_uri_", stamp), "cli-action-open-uri", kCliSource,
                     kOpenTimeoutMs, action("a1", ActionType::OpenUri, Json{{"uri", target}}));
  }
  return execution(underscored_id("open_app_", stamp), "cli-action-open-app", kCliSource,
                   kOpenTimeoutMs,
                   action("a1", ActionType::OpenApp, Json{{"applicationId", target}}));
}

Json build_type(const IdStamp& stamp, const Json& matcher, const std::string& text, bool submit,
                bool clear) {
  Json params = Json{{"matcher", matcher}, {"text", text}, {"submit", submit}, {"clear", clear}};
  return direct_action("type", stamp, kDefaultTimeoutMs,
                       action("type", ActionType::EnterText, std::move(params)));
}

Json build_read(const IdStamp& stamp, const Json& matcher, const std::optional<Json>& container,
                bool all) {
  Json params = Json{{"matcher", matcher}};
  if (all) params["all"] = true;
  if (container) params["container"] = *container;
  return direct_action("read", stamp, kDefaultTimeoutMs,
                       action("read", ActionType::ReadText, std::move(params)));
}

Json build_wait(const IdStamp& stamp, const Json& matcher, std::optional<double> wait_ms) {
  Json params = Json{{"matcher", matcher}};
  if (wait_ms) params["timeoutMs"] = milliseconds_json(*wait_ms);
  const double timeout =
      wait_ms ? std::max(*wait_ms + kWaitMarginMs, kDefaultTimeoutMs) : kDefaultTimeoutMs;
  return direct_action("wait", stamp, timeout,
                       action("wait", ActionType::WaitForNode, std::move(params)));
}

Json build_press_key(const IdStamp& stamp, const std::string& key) {
  return execution(underscored_id("press_key_", stamp), "cli-action-press-key", kCliSource, 10000,
                   action("a1", ActionType::PressKey, Json{{"key", key}}));
}

Json build_close(const IdStamp& stamp, const std::string& application_id,
                 std::optional<double> timeout_ms) {
  const std::string id = stamped_id("close", stamp);
  return execution(id, id, kCliSource, timeout_ms.value_or(kDefaultTimeoutMs),
                   action("close", ActionType::CloseApp, Json{{"applicationId", application_id}}));
}

Json build_sleep(const IdStamp& stamp, double duration_ms,
                 std::optional<double> global_timeout_ms) {
  const double timeout =
      std::max({duration_ms + kWaitMarginMs, global_timeout_ms.value_or(0), kDefaultTimeoutMs});
  const std::string id = stamped_id("sleep", stamp);
  return execution(
      id, id, kCliSource, timeout,
      action("sleep", ActionType::Sleep, Json{{"durationMs", milliseconds_json(duration_ms)}}));
}

Json build_scroll(const IdStamp& stamp, const std::string& direction,
                  const std::optional<Json>& container, std::optional<double> timeout_ms) {
  Json params = Json{{"direction", direction}};
  if (container) params["container"] = *container;
  return execution(stamped_id("scroll", stamp), "cli-action-scroll", kCliSource,
                   timeout_ms.value_or(kDefaultTimeoutMs),
                   action("a1", ActionType::Scroll, std::move(params)));
}

Json build_scroll_until(const IdStamp& stamp, const ScrollUntilRequest& request) {
  Json params = Json{{"direction", request.direction}, {"matcher", request.matcher}};
  if (request.container) params["container"] = *request.container;
  if (request.click_after) params["clickAfter"] = true;
  const std::string id = stamped_id("scroll-until", stamp);
  return execution(
      id, id, kCliSource, request.timeout_ms.value_or(kDefaultTimeoutMs),
      action("a1", request.click_after ? ActionType::ScrollAndClick : ActionType::ScrollUntil,
             std::move(params)));
}

Json build_wait_for_navigation(const IdStamp& stamp, const std::optional<std::string>& package,
                               const std::optional<Json>& node, double timeout_ms) {
  Json params = Json::object();
  if (package) params["expectedPackage"] = *package;
  if (node) params["expectedNode"] = *node;
  params["timeoutMs"] = milliseconds_json(timeout_ms);
  return direct_action("wait-for-nav", stamp,
                       std::max(timeout_ms + kWaitMarginMs, kDefaultTimeoutMs),
                       action("wait-for-nav", ActionType::WaitForNavigation, std::move(params)));
}

Json build_read_value(const IdStamp& stamp, const Json& label_matcher, bool all) {
  Json params = Json{{"labelMatcher", label_matcher}};
  if (all) params["all"] = true;
  return direct_action("read-value", stamp, kDefaultTimeoutMs,
                       action("read-value", ActionType::ReadKeyValuePair, std::move(params)));
}

Json build_service_action(std::string_view command, std::string_view op, const IdStamp& stamp,
                          ActionType type, Json params, double timeout_ms) {
  const std::string prefix = std::string(command) + "-" + std::string(op);
  return execution(stamped_id(prefix, stamp), "cli-" + prefix, kCliSource, timeout_ms,
                   action("a1", type, params.empty() ? std::nullopt : std::optional<Json>(params)));
}

double observe_timeout_ms(double duration_ms) {
  constexpr double kObserveMarginMs = 10000;
  return duration_ms + kObserveMarginMs;
}

Json build_query(const IdStamp& stamp, const QueryRequest& request) {
  std::optional<Json> params;
  if (request.matcher || request.visibility || request.limit) params = Json::object();
  if (request.matcher) (*params)["matcher"] = *request.matcher;
  if (request.visibility) (*params)["visibility"] = *request.visibility;
  if (request.limit) (*params)["limit"] = *request.limit;
  return direct_action("query", stamp, kDefaultTimeoutMs,
                       action("query", contract::ActionType::QueryUi, std::move(params)));
}

namespace {

Json point_json(const Coordinate& point) {
  return Json{{"x", point.x}, {"y", point.y}};
}

}  // namespace

Json build_swipe(const IdStamp& stamp, const Coordinate& start, const Coordinate& end,
                 long long duration_ms, std::optional<double> timeout_ms) {
  Json params =
      Json{{"start", point_json(start)}, {"end", point_json(end)}, {"durationMs", duration_ms}};
  return direct_action("swipe", stamp, timeout_ms.value_or(kDefaultTimeoutMs),
                       action("swipe", contract::ActionType::Swipe, std::move(params)));
}

Json build_drag(const IdStamp& stamp, const DragRequest& request,
                std::optional<double> timeout_ms) {
  Json params = Json{{"start", point_json(request.start)},
                     {"end", point_json(request.end)},
                     {"holdDurationMs", request.hold_duration_ms},
                     {"moveDurationMs", request.move_duration_ms}};
  return direct_action("drag", stamp, timeout_ms.value_or(kDefaultTimeoutMs),
                       action("drag", contract::ActionType::Drag, std::move(params)));
}

Json build_toast(const IdStamp& stamp, const std::optional<std::string>& text,
                 const std::optional<std::string>& duration) {
  const std::string operation = text ? "show" : "cancel";
  std::optional<Json> params;
  if (text) {
    params = Json{{"text", *text}};
    if (duration) (*params)["duration"] = *duration;
  }
  return execution(
      stamped_id("toast-" + operation, stamp), "cli-toast-" + operation, kCliSource,
      kDefaultTimeoutMs,
      action("a1", text ? contract::ActionType::ShowToast : contract::ActionType::CancelToast,
             std::move(params)));
}

Json build_recording_control(const IdStamp& stamp, RecordingControl control,
                             const std::optional<std::string>& session_id) {
  const bool start = control == RecordingControl::Start;
  Json params = Json::object();
  if (session_id) params["sessionId"] = *session_id;
  // The stamp's random tail keeps two calls in one millisecond apart; the original's
  // start_recording / stop_recording prefix stays what a log search finds.
  return execution(stamped_id(start ? "start_recording" : "stop_recording", stamp),
                   start ? "cli-record-start" : "cli-record-stop", kCliSource,
                   start ? 10000 : 15000,
                   action("a1", start ? ActionType::StartRecording : ActionType::StopRecording,
                          std::move(params)));
}

Json with_selection(Json execution, bool strict, const std::optional<Json>& container) {
  Json& step = execution["actions"][0];
  if (strict) step["params"]["strict"] = true;
  if (container) step["params"]["container"] = *container;
  return execution;
}

}  // namespace clawperator::service
