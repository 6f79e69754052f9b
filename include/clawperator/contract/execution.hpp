// The typed execution: what validation returns and every later phase reads. Untyped JSON stays
// at the two edges (reading the caller's input, writing the device's payload); in between, an
// action is an ActionType with typed params, looked up in the action table (action_table.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/contract/action_type.hpp"
#include "clawperator/json.hpp"

namespace clawperator::contract {

// A JSON number as the caller wrote it: the device's payload keeps 30000 as 30000 and 1.0 as
// 1.0 (it is byte-identical to the normalised input), while the host reads value().
class Number {
 public:
  Number() = default;
  // Precondition: json.is_number().
  static Number from_json(const Json& json);
  static Number integer(long long value);
  // An integral value is written as an integer, anything else as a float.
  static Number milliseconds(double value);

  double value() const noexcept { return value_; }
  bool integral() const noexcept;
  Json to_json() const;

 private:
  enum class Kind : std::uint8_t { Integer, Unsigned, Float };
  Kind kind_ = Kind::Integer;
  std::int64_t integer_ = 0;
  std::uint64_t unsigned_ = 0;
  double value_ = 0;
};

// The six scalar fields of a NodeMatcher (docs/payload.md "Matchers").
enum class MatcherField : std::uint8_t {
  ResourceId,
  Role,
  TextEquals,
  TextContains,
  ContentDescEquals,
  ContentDescContains,
};
std::string_view to_string(MatcherField field);

// Scalar fields in the order the caller wrote them: the payload keeps that order. Validation
// refuses a blank field (the Operator would ignore it), so every field here holds text.
struct NodePredicate {
  std::vector<std::pair<MatcherField, std::string>> fields;

  const std::string* get(MatcherField field) const;
  // At least one field is non-empty.
  bool has_value() const;
  // At least one field holds more than whitespace (what a matcher and a relation need).
  bool has_nonblank_value() const;
};

struct NodeMatcher {
  NodePredicate node;
  // Relations: any strict ancestor / strict descendant matches the predicate.
  std::optional<NodePredicate> ancestor;
  std::optional<NodePredicate> descendant;
};

// A screen point in pixels (click's coordinate, a gesture's start and end).
struct Coordinate {
  Number x;
  Number y;
  // Written as {"y":…,"x":…} when the caller did, for a byte-identical payload.
  bool y_first = false;
};

// Every param any action takes, typed. Which of them an action accepts, with which limits, is
// its schema in the action table; absent members are absent from the payload.
struct ActionParams {
  std::optional<std::string> application_id;
  std::optional<std::string> session_id;
  std::optional<std::string> uri;
  std::optional<Number> duration_ms;
  std::optional<std::string> path;
  std::optional<NodeMatcher> matcher;
  std::optional<Coordinate> coordinate;
  std::optional<std::string> text;
  std::optional<bool> submit;
  std::optional<bool> clear;
  std::optional<std::string> click_type;
  std::optional<NodeMatcher> container;
  std::optional<std::string> direction;
  std::optional<Number> max_swipes;
  std::optional<Number> distance_ratio;
  std::optional<Number> settle_delay_ms;
  std::optional<Number> max_scrolls;
  std::optional<Number> max_duration_ms;
  std::optional<Number> no_position_change_threshold;
  std::optional<bool> find_first_scrollable_child;
  std::optional<bool> click_after;
  std::optional<std::string> validator;
  std::optional<std::string> validator_pattern;
  std::optional<std::string> key;
  // The Operator's retry policies: objects it interprets; the host passes them through.
  std::optional<Json> retry;
  std::optional<Json> scroll_retry;
  std::optional<Json> click_retry;
  std::optional<std::string> expected_package;
  std::optional<NodeMatcher> expected_node;
  std::optional<Number> timeout_ms;
  std::optional<NodeMatcher> label_matcher;
  std::optional<bool> all;
  // Notifications and media (docs/payload.md §8); query_ui's limit too (§10.1).
  std::optional<Number> limit;
  std::optional<Number> max_text_chars;
  std::optional<std::string> media_session_id;
  std::optional<Number> wait_timeout_ms;
  std::optional<Number> position_ms;
  std::optional<Number> position_tolerance_ms;
  std::optional<std::string> notification_key;
  std::optional<std::string> action_id;
  // The on-screen log panel (docs/payload.md §9); its `text` is the member above.
  std::optional<std::string> template_text;
  std::optional<std::string> anchor;
  std::optional<std::string> text_align;
  std::optional<Number> top_offset_dp;
  std::optional<Number> edge_offset_dp;
  std::optional<Number> width_dp;
  std::optional<Number> font_size_sp;
  std::optional<std::string> text_color;
  std::optional<std::string> background_color;
  std::optional<Number> ttl_ms;
  // Refuse an ambiguous target instead of acting on the first match (docs/payload.md §10).
  std::optional<bool> strict;
  // The newest Operator's wait for the screen to settle after an action (docs/payload.md §3).
  std::optional<bool> skip_navigation_wait;
  std::optional<Number> navigation_timeout_ms;
  // query_ui (its `limit` is the member above).
  std::optional<std::string> visibility;
  // swipe and drag.
  std::optional<Coordinate> start;
  std::optional<Coordinate> end;
  std::optional<Number> hold_duration_ms;
  std::optional<Number> move_duration_ms;
  // show_toast: "short" | "long".
  std::optional<std::string> duration;
};

struct Action {
  std::string id;
  ActionType type = ActionType::Snapshot;
  // nullopt: the caller sent no "params" (the payload has none either).
  std::optional<ActionParams> params;

  // The params, or an empty set when none were sent.
  const ActionParams& params_or_empty() const;
};

// A payload's expectedFormat, the only one there is (docs/payload.md §1): validation requires it,
// every payload for the device carries it.
inline constexpr std::string_view kExpectedFormat = "android-ui-automator";

struct Execution {
  std::string command_id;
  std::string task_id;
  std::string source;
  Number timeout_ms;
  std::vector<Action> actions;
  std::optional<std::string> mode;  // "direct" | "artifact_compiled"

  // Every action is read-only (docs/contract.md §4).
  bool read_only() const;
  // How the host readies the device for it: Interactive unless every action is a background
  // one (docs/wire-protocol.md §4.4).
  ActionReadiness readiness() const;
};

// The compact normalised payload the device receives: keys in schema order, canonical types.
Json to_device_json(const Execution& execution);
// One action as in the payload ({"id","type","params"?}).
Json to_device_json(const Action& action);
Json to_json(const NodeMatcher& matcher);

// The --dry-run plan: {commandId, timeoutMs, actionCount, actions:[{id,type,params?}]}.
Json plan_json(const Execution& execution);

}  // namespace clawperator::contract
