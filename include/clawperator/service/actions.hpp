// The execution payload each device-interaction command sends (docs/payload.md §7), the same
// from the CLI, MCP and HTTP (the service layer, docs/architecture.md §1):
// ids, task ids, sources and timeouts as the original CLI built them, so that
// logs and Operator traces read the same. Pure except make_id_stamp().
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/action_type.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

// What makes a command id unique and unpredictable: 128 random bits. Not a time stamp: an app
// on the device that could guess the next id could write its result first
// (docs/guardrails.md).
struct IdStamp {
  std::string random;  // 32 lowercase hex digits
};

// Fresh random bits (getrandom(2)).
IdStamp make_id_stamp();
// make_id_stamp's random text alone: what the front ends give contract::admit_execution and
// admit_sequence for a short-form payload's commandId (docs/payload.md §13).
std::string fresh_id_random();

// "<prefix>-<random>", e.g. "click-9f1c2e4b7a0d4c3e8b6a5f4e3d2c1b0a".
std::string stamped_id(std::string_view prefix, const IdStamp& stamp);

// A millisecond count as JSON: an integer when it is one (30000, not 30000.0).
Json milliseconds_json(double value);

struct Coordinate {
  long long x = 0;
  long long y = 0;
};

enum class ClickType { Default, LongClick, Focus };

// True when `target` holds a URI scheme followed by "://" anywhere
// ("https://x", "intent://y"); "tel:123" and "mailto:x" do not count.
bool is_uri_target(std::string_view target);

Json build_snapshot(const IdStamp& stamp);
// `path` "" is kept: the payload validator reports it.
Json build_screenshot(const IdStamp& stamp, const std::optional<std::string>& path,
                      std::optional<double> timeout_ms);
// Exactly one of matcher and coordinate is expected; the validator checks it.
Json build_click(const IdStamp& stamp, const std::optional<Json>& matcher,
                 const std::optional<Coordinate>& coordinate, ClickType click_type);
// open_uri when is_uri_target(target), else open_app.
Json build_open(const IdStamp& stamp, const std::string& target);
Json build_type(const IdStamp& stamp, const Json& matcher, const std::string& text, bool submit,
                bool clear);
Json build_read(const IdStamp& stamp, const Json& matcher, const std::optional<Json>& container,
                bool all);
// `wait_ms` is how long the Operator waits for the node.
Json build_wait(const IdStamp& stamp, const Json& matcher, std::optional<double> wait_ms);
Json build_press_key(const IdStamp& stamp, const std::string& key);
Json build_close(const IdStamp& stamp, const std::string& application_id,
                 std::optional<double> timeout_ms);
Json build_sleep(const IdStamp& stamp, double duration_ms, std::optional<double> global_timeout_ms);
Json build_scroll(const IdStamp& stamp, const std::string& direction,
                  const std::optional<Json>& container, std::optional<double> timeout_ms);

struct ScrollUntilRequest {
  std::string direction = "down";
  Json matcher;
  std::optional<Json> container;
  bool click_after = false;  // scroll_and_click instead of scroll_until
  std::optional<double> timeout_ms;
};
Json build_scroll_until(const IdStamp& stamp, const ScrollUntilRequest& request);

Json build_wait_for_navigation(const IdStamp& stamp, const std::optional<std::string>& package,
                               const std::optional<Json>& node, double timeout_ms);
Json build_read_value(const IdStamp& stamp, const Json& label_matcher, bool all);

// The notifications, media and on-screen-log commands: one action "a1" of `type`, commandId
// "<command>-<op>-<ms>-<suffix>", taskId "cli-<command>-<op>", source clawperator-cli.
Json build_service_action(std::string_view command, std::string_view op, const IdStamp& stamp,
                          contract::ActionType type, Json params, double timeout_ms);
// The budget `media observe` gives an observation of `duration_ms`: the observation and the
// answer's way back (docs/payload.md §8).
double observe_timeout_ms(double duration_ms);
// The newest Operator's observation and gestures (docs/payload.md §10).
struct QueryRequest {
  std::optional<Json> matcher;  // none: every eligible node
  std::optional<std::string> visibility;
  std::optional<long long> limit;
};
Json build_query(const IdStamp& stamp, const QueryRequest& request);
Json build_swipe(const IdStamp& stamp, const Coordinate& start, const Coordinate& end,
                 long long duration_ms, std::optional<double> timeout_ms);
struct DragRequest {
  Coordinate start;
  Coordinate end;
  long long hold_duration_ms = 0;
  long long move_duration_ms = 0;
};
Json build_drag(const IdStamp& stamp, const DragRequest& request, std::optional<double> timeout_ms);
// show_toast (text kept verbatim), or cancel_toast when `text` is nullopt.
Json build_toast(const IdStamp& stamp, const std::optional<std::string>& text,
                 const std::optional<std::string>& duration);
// start_recording / stop_recording as the original's `recording start|stop` send them
// (docs/recording.md): commandId start_recording-<ms>-<random> (stop_recording-…), taskId
// cli-record-start / cli-record-stop, timeoutMs 10000 / 15000, params {sessionId} when given.
enum class RecordingControl { Start, Stop };
Json build_recording_control(const IdStamp& stamp, RecordingControl control,
                             const std::optional<std::string>& session_id);
// The element action of a built execution with `strict` and `container` (--strict,
// --container-*) added to its params.
Json with_selection(Json execution, bool strict, const std::optional<Json>& container);

}  // namespace clawperator::service
