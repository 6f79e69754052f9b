// The arguments of MCP's visual_text_* tools and HTTP's POST /visual-text/ACTION bodies, read
// into the request the CLI's flags make (src/cli/visual_text_flags.cpp), from one table.
#include <array>
#include <cmath>

#include "clawperator/service/visual_text.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::service {
namespace {

constexpr std::array<std::string_view, 4> kVisualTextActionWords = {"query", "click", "wait",
                                                                    "read"};

constexpr std::array<VisualTextField, 8> kVisualTextFields = {{
    {"text", "query|click|wait|read", "string",
     "The text drawn on the screen, read as whole words of one line (case and spacing "
     "ignored); or give contains"},
    {"contains", "query|click|wait|read", "string",
     "A part of one line of text drawn on the screen; or give text"},
    {"index", "query|click|wait|read", "integer",
     "Which of several places the text was read, from 0 in the order details.candidates lists "
     "them; without it several are NODE_AMBIGUOUS"},
    {"ocrLang", "query|click|wait|read", "string",
     "Tesseract language(s) to read with: eng (default), deu, deu+eng, …"},
    {"region", "query|click|wait|read", "string",
     "Read only this part of the screen, as [left,top][right,bottom] in pixels"},
    {"minConfidence", "query|click|wait|read", "number",
     "Ignore readings less sure than this, 0..100 (default 50)"},
    {"long", "click", "boolean", "A long press instead of a tap"},
    {"timeoutMs", "query|click|wait|read", "integer",
     "Milliseconds, 1..600000: how long to wait (wait; default 10000), else the call's budget"},
}};

Unexpected<contract::HostError> invalid_argument(const Problem& problem) {
  return contract::failed(contract::field_error("INVALID_BODY", problem.message, problem.path));
}

}  // namespace

std::string_view to_string(VisualTextAction action) {
  return kVisualTextActionWords[static_cast<std::size_t>(action)];
}

std::optional<VisualTextAction> parse_visual_text_action(std::string_view word) {
  for (std::size_t i = 0; i < kVisualTextActionWords.size(); ++i) {
    if (kVisualTextActionWords[i] == word) return static_cast<VisualTextAction>(i);
  }
  return std::nullopt;
}

std::span<const VisualTextField> visual_text_fields() {
  return kVisualTextFields;
}

bool takes_field(const VisualTextField& field, VisualTextAction action) {
  return listed_in(field.actions, to_string(action));
}

contract::Outcome<VisualTextRequest> read_visual_text_arguments(VisualTextAction action,
                                                                const Json& arguments) {
  if (!arguments.is_object())
    return invalid_argument(Problem{"", "the arguments must be a JSON object"});
  const std::string word(to_string(action));
  for (const VisualTextField& field : kVisualTextFields) {
    const auto found = arguments.find(std::string(field.name));
    if (found == arguments.end()) continue;
    const std::string name(field.name);
    if (!takes_field(field, action)) {
      return invalid_argument(Problem{name, name + " is not an argument of visual_text " + word});
    }
    const bool fits = field.type == "string"    ? found->is_string()
                      : field.type == "boolean" ? found->is_boolean()
                      : field.type == "integer" ? found->is_number_integer()
                                                : found->is_number();
    if (!fits)
      return invalid_argument(Problem{name, name + " must be of type " + std::string(field.type)});
  }
  VisualTextRequest request;
  request.action = action;
  const bool has_text = arguments.contains("text");
  const bool has_contains = arguments.contains("contains");
  if (has_text == has_contains) {
    return invalid_argument(Problem{has_text ? "contains" : "text",
                                    "give exactly one of text and contains: the words to find"});
  }
  request.phrase = arguments[has_text ? "text" : "contains"].get<std::string>();
  request.mode = has_text ? ocr::PhraseMode::Equals : ocr::PhraseMode::Contains;
  if (const auto index = arguments.find("index"); index != arguments.end()) {
    if (index->get<long long>() < 0)
      return invalid_argument(Problem{"index", "index must be 0 or more"});
    request.index = index->get<std::size_t>();
  }
  request.language = arguments.value("ocrLang", request.language);
  if (const auto region = arguments.find("region"); region != arguments.end()) {
    request.region = parse_region(region->get<std::string>());
    if (!request.region) {
      return invalid_argument(
          Problem{"region", "region must be [left,top][right,bottom] in pixels"});
    }
  }
  request.min_confidence = arguments.value("minConfidence", request.min_confidence);
  request.long_click = arguments.value("long", false);
  if (const auto timeout = arguments.find("timeoutMs"); timeout != arguments.end()) {
    request.timeout = std::chrono::milliseconds(timeout->get<long long>());
  } else if (action != VisualTextAction::Wait) {
    request.timeout = std::chrono::milliseconds(30000);
  }
  if (auto problem = check_visual_text_request(request)) {
    // check_visual_text_request names the phrase "visualText"; here it is text or contains.
    const std::string field =
        problem->path == "visualText" ? (has_text ? "text" : "contains") : problem->path;
    return invalid_argument(Problem{field, field + " " + problem->message});
  }
  return request;
}

}  // namespace clawperator::service
