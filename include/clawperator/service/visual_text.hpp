// Text on the screen where the tree has none (issue 51, docs/visual-text.md): `click`, `wait`,
// `read` and `query` with `--visual-text` (MCP's and HTTP's `visualText`), decided once for
// every front end. The host captures the screen (adb/screencap.hpp), reads it with Tesseract
// (ocr/engine.hpp), finds the phrase with the strict rules of a selector (several places without
// an index: NODE_AMBIGUOUS; none: NODE_NOT_FOUND with the nearest phrases read; only unsure
// readings: VISUAL_TEXT_LOW_CONFIDENCE), and a click taps the centre of its box through an
// ordinary execution, which the policy judges by the node under the point and the phrase read.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/json.hpp"
#include "clawperator/ocr/recognised_text.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

enum class VisualTextAction { Query, Click, Wait, Read };

// Tesseract's word confidences run 0..100; what it reads of crisp screen text at phone sizes
// scores above 80, a word it guessed at below 40 (bench/, docs/performance.md).
inline constexpr double kDefaultMinConfidence = 50;
inline constexpr std::chrono::milliseconds kDefaultVisualWait{10000};
inline constexpr std::size_t kMaxVisualTextBytes = 1024;

struct VisualTextRequest {
  VisualTextAction action = VisualTextAction::Query;
  std::string phrase;
  ocr::PhraseMode mode = ocr::PhraseMode::Equals;  // Contains: --visual-text-contains
  // Which of several places (counted from 0, in the order details.candidates lists them);
  // none: more than one is NODE_AMBIGUOUS.
  std::optional<std::size_t> index;
  std::string language = "eng";    // --ocr-lang (Tesseract's names, "deu+eng")
  std::optional<ocr::Box> region;  // --region: only this part of the screen is read
  double min_confidence = kDefaultMinConfidence;
  bool long_click = false;  // click --long
  // wait: how long the phrase is waited for (the screen read again until then); click: the
  // tap's execution's timeoutMs; query and read: the capture's and the reading's budget.
  std::chrono::milliseconds timeout = kDefaultVisualWait;
  // Who may confirm a tap a `confirm` rule stops: as an execution's (service::ExecutionCall).
  std::optional<std::string> approval_id;
  std::function<bool(const std::string& question)> ask_person;
  std::string ask_person_through;
};

// Why the request cannot run, by its field ("visualText", "index", "ocrLang", "region",
// "minConfidence"), for the front end to name by its own word. nullopt: it may run.
std::optional<Problem> check_visual_text_request(const VisualTextRequest& request);

// "[left,top][right,bottom]": a region in the form the snapshot's bounds take; nullopt when it is
// not one with left < right and top < bottom.
std::optional<ocr::Box> parse_region(std::string_view text);

// "query", "click", "wait", "read": the CLI's commands, MCP's visual_text_* tools and HTTP's
// POST /visual-text/ACTION.
std::string_view to_string(VisualTextAction action);
std::optional<VisualTextAction> parse_visual_text_action(std::string_view word);

// One argument of MCP's visual_text_* tools and HTTP's POST /visual-text/ACTION bodies: the one
// table both build from (tool schemas, the bodies' allowed keys).
struct VisualTextField {
  std::string_view name;
  std::string_view actions;  // the actions that take it, as "query|click"
  std::string_view type;     // "string", "boolean", "integer" or "number" (JSON Schema)
  std::string_view description;
};
std::span<const VisualTextField> visual_text_fields();
bool takes_field(const VisualTextField& field, VisualTextAction action);

// MCP's and HTTP's arguments: exactly one of text and contains, index, ocrLang, region,
// minConfidence, long (click), timeoutMs; a wrong, missing or foreign one is INVALID_BODY naming
// its field.
contract::Outcome<VisualTextRequest> read_visual_text_arguments(VisualTextAction action,
                                                                const Json& arguments);

// snapshot --with-text (docs/visual-text.md §5): the lines read on the screen, each given to the
// smallest returned node of `compact` (the `compact` object of a compact snapshot) that holds its
// centre, when that node has no text and no description of its own; kept as the node's
// `recognisedText` [{text, bounds, confidence}] (a node with words of its own keeps them alone,
// and a line in no returned node is left out). `recognisedLines` counts the lines given. Pure.
void attach_recognised_text(Json& compact, const std::vector<ocr::Line>& lines,
                            double min_confidence);

// The compact snapshot `document` (a success of snapshot --compact, its `compact` filled) with
// the text on the screen attached as above: one screencap of its device and one reading.
// OCR_UNAVAILABLE, SCREEN_CAPTURE_FAILED as for --visual-text.
exec::ExecutionReport with_recognised_text(const Session& session, Json document,
                                           const std::string& language, double min_confidence,
                                           process::Runner& runner);

// The document, or the error object, and its exit code, as an execution reports them: a click's
// is its tap's execution's, with `visualText` (what was read and where) beside it.
exec::ExecutionReport run_visual_text(const Session& session, const Target& target,
                                      const VisualTextRequest& request, process::Runner& runner);

}  // namespace clawperator::service
