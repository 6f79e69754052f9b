// One table of actions: one row per action type says everything the host knows about it —
// its names, whether it only reads, the params it accepts (the schema) and the rules on them,
// what the host does before dispatch and after the result, and what the front ends publish
// (title, description, hints). Validation, dispositions, the CLI builders, the exec pipeline,
// the virtual device's dispatcher and docs/payload.md's action table all read from it.
// docs/architecture.md says which files a new action type touches.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "clawperator/contract/action_type.hpp"
#include "clawperator/contract/execution.hpp"

namespace clawperator::contract {

// Where a param lives in ActionParams; its JSON kind follows from the member's type.
using ParamMember =
    std::variant<std::optional<std::string> ActionParams::*, std::optional<Number> ActionParams::*,
                 std::optional<bool> ActionParams::*,
                 std::optional<Json> ActionParams::*,  // an object, passed through
                 std::optional<NodeMatcher> ActionParams::*,
                 std::optional<Coordinate> ActionParams::*>;

enum class ParamKind : std::uint8_t { String, Number, Boolean, Object, Matcher, Coordinate };
ParamKind kind_of(const ParamMember& member);

// One key of a params object: its JSON type and the limits every action shares.
struct ParamSpec {
  std::string_view key;
  ParamMember member;
  std::size_t max_length = 0;  // strings: UTF-16 code units (as JavaScript counts); 0 = none
  std::string_view description;
};

// A rule on one param of one action, as data: validation reports it with the message below
// (the original CLI's wording, unless `message` replaces it) and the front ends publish it.
enum class ConstraintKind : std::uint8_t {
  Required,          // "<type> requires params.<key>"
  RequiredNotBlank,  // a non-blank string: "<type> requires params.<key>"
  RequiredNonEmpty,  // a non-empty string (whitespace is text): "<type> requires params.<key>"
  NotBlankIfGiven,   // "<type> params.<key> must not be blank"
  OneOf,             // trimmed, any case: "<type> params.<key> must be one of: a, b"
  Range,             // "<type> params.<key> must be an integer|a number in [min, max]"
  OneOfExact,        // as written, no trimming or case folding: "… must be one of: a, b"
  // Text a person reads on the screen (on_screen_log.hpp): a non-whitespace character, no
  // control characters but newline and tab.
  DisplayText,
  Template,   // the on-screen log's placeholder grammar (on_screen_log.hpp)
  Color,      // #RRGGBB or #AARRGGBB; the validated payload holds it as #AARRGGBB, upper case
  Forbidden,  // the key is in the schema but this action refuses it: `message`
  // Where the row's cross_field_rule runs among the constraints (without it: before them).
  CrossFieldRule,
};

struct ParamConstraint {
  ConstraintKind kind;
  std::string_view key;
  std::span<const std::string_view> values = {};  // OneOf
  double min = 0;                                 // Range
  double max = 0;
  bool integer = false;
  bool min_exclusive = false;
  bool required = false;  // OneOf, Range: a missing value breaks the rule too
  // Replaces the default message (for Range: when below the minimum or missing).
  std::string_view message = {};
  std::string_view above_message = {};  // Range: when above the maximum
};

// A strict params object: the keys it accepts, in the order the payload writes them.
struct ParamSchema {
  std::string_view name;
  std::span<const ParamSpec> params;
  // Each unknown key is its own issue at params.<key>, "<type> does not accept params.<key>"
  // (the on-screen log's wording), instead of one "Unrecognized key(s)" on the object.
  bool names_unknown_keys = false;
  // Rules every action of this schema follows, checked before the row's own (the generic
  // schema's navigationTimeoutMs range).
  std::span<const ParamConstraint> constraints = {};
  const ParamSpec* find(std::string_view key) const;
};

// The original's generic params object (docs/payload.md "Params"), shared by the original
// actions.
const ParamSchema& generic_param_schema();

// A rule across params (click's matcher-or-coordinate, read_text's regex …): it reports what
// it finds through the context.
class RuleContext {
 public:
  virtual ~RuleContext() = default;
  virtual const ActionParams& params() const = 0;
  virtual std::string_view type_name() const = 0;
  // An issue at params.<key> ("" = the params object itself).
  virtual void fail(std::string_view key, std::string message) = 0;
};
using CrossFieldRule = void (*)(RuleContext& context);

// What the host does on the device before dispatch because of this action.
enum class PreflightEffect : std::uint8_t {
  None,
  ForceStopApplication,  // close_app: `am force-stop applicationId` (docs/wire-protocol.md §4.2)
  // drag: `getprop ro.build.version.sdk`; below the row's min_sdk the execution is refused with
  // GESTURE_UNSUPPORTED before anything is sent (docs/wire-protocol.md §4.2).
  RequireGestureSdk,
};

// What the host does to this action's step after the result arrived.
enum class PostProcessing : std::uint8_t {
  None,
  AttachSnapshot,     // data.text from the envelope or the logged UI dump
  CaptureScreenshot,  // adb exec-out screencap -p, written to params.path
  // data.payload, a JSON document, checked and returned parsed (docs/payload.md §8)
  DecodePayload,
  ParseQuery,  // data.query checked and returned parsed as the output's `query`
};

// How the payload normalisation (payload_normalization.hpp) treats an action of this row.
enum class InputForm : std::uint8_t {
  Normalised,      // params keys aliased (docs/payload.md §11), the type trimmed and lower-cased
  ParamsVerbatim,  // params never aliased (show_toast must refuse `value`)
  Verbatim,        // params never aliased and the type must be written exactly as `name`
};

// What a step does to the device, as a person would say it: the column the action policy's
// `effects` name (docs/guardrails.md), so that a rule about taps covers every action that taps
// (scroll_and_click, scroll_until with clickAfter, a long click) without listing them.
// Observe is exactly the read-only rows. Gesture is neither tap nor observe: a scroll, swipe or
// drag moves what is on the screen from a point, and can dismiss or reorder what lies there.
enum class StepEffect : std::uint8_t { Observe, Tap, Type, Gesture, Navigate, System };
inline constexpr std::string_view kStepEffectNames[] = {"observe", "tap",      "type",
                                                        "gesture", "navigate", "system"};
std::string_view to_string(StepEffect effect);
std::optional<StepEffect> find_step_effect(std::string_view name);

// A param the Operator removed, with the hint that says so.
struct RemovedParam {
  std::string_view key;
  std::string_view hint;
};

struct ActionSpec {
  ActionType type;
  std::string_view name;  // canonical
  std::span<const std::string_view> aliases = {};
  bool read_only = false;
  StepEffect effect = StepEffect::Observe;  // Observe exactly when read_only
  ActionReadiness readiness = ActionReadiness::Interactive;
  // False for the host's own actions (doctor_ping): a caller's payload may not hold them.
  bool from_callers = true;
  const ParamSchema* schema = nullptr;
  std::span<const ParamConstraint> constraints = {};
  CrossFieldRule cross_field_rule = nullptr;
  std::string_view cross_field_rule_summary = {};  // for docs/payload.md
  std::span<const RemovedParam> removed_params = {};
  PreflightEffect preflight = PreflightEffect::None;
  int min_sdk = 0;  // RequireGestureSdk: the lowest Android API level that runs the action
  PostProcessing post_processing = PostProcessing::None;
  // A snapshot right after this action may show the screen before it settled.
  bool unsettles_screen = false;
  // A failed step whose code starts with this becomes the envelope's errorCode.
  std::string_view promoted_error_prefix = {};
  InputForm input = InputForm::Normalised;
  // Published by the front ends (MCP tool annotations, the inspector).
  std::string_view title = {};
  std::string_view description = {};
  bool destructive = false;  // may overwrite or discard state (meaningless when read_only)
  bool idempotent = false;   // repeating it leaves the device as one run does
};

// Every row, in documentation order.
std::span<const ActionSpec> action_table();
const ActionSpec& action_spec(ActionType type);
// A type as a caller may write it: trimmed, any case, canonical name or alias (exactly as
// written for InputForm::Verbatim rows). nullptr when unknown (or only the host's own).
const ActionSpec* find_caller_action(std::string_view raw_type);
// Canonical name or alias, for any row (the envelope's stepResults carry canonical names and
// the Operator's older "snapshot_ui").
const ActionSpec* find_action(std::string_view name);

// Trims, lower-cases and resolves aliases ("tap" -> "click"); unknown types (and Verbatim
// types not written exactly) come back trimmed and lower-cased.
std::string normalize_action_type(std::string_view raw);
// The row's effect, but for a step whose params make it another: scroll_until with
// `clickAfter: true` taps.
StepEffect effect_of(const Action& action);
// Read-only by name (canonical or alias); unknown names are not.
bool is_read_only_action(std::string_view name);
// Android step codes that prove a mutating step had no effect (docs/contract.md §4).
bool is_no_effect_error_code(std::string_view code);

// docs/payload.md's action table, generated from the rows (a test keeps the doc in step).
std::string render_action_table_markdown();
// `markdown` with the text between its action-table BEGIN and END markers replaced by
// render_action_table_markdown(); nullopt when the markers are missing.
std::optional<std::string> with_generated_action_table(const std::string& markdown);

}  // namespace clawperator::contract
