#include "action_rules.hpp"

#include <regex>
#include <string>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/text.hpp"

namespace clawperator::contract::rules {
namespace {

constexpr std::size_t kMaxRegexNesting = 64;

// std::regex compiles recursively: bound nesting so that a hostile pattern gets a validation
// error rather than a stack overflow.
bool regex_nesting_within_bounds(std::string_view pattern) {
  std::size_t depth = 0;
  bool escaped = false;
  for (const char c : pattern) {
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '(' || c == '[') {
      if (++depth > kMaxRegexNesting) return false;
    } else if ((c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return true;
}

// Why `pattern` is no regular expression we run, if it is not (no path: the caller's rule names
// the field).
Expected<void, Problem> check_regex(const std::string& pattern) {
  if (!regex_nesting_within_bounds(pattern)) {
    return Unexpected(Problem{"", "pattern nests too deeply"});
  }
  try {
    const std::regex compiled(pattern, std::regex::ECMAScript);
    (void)compiled;
  } catch (const std::exception& error) {
    return Unexpected(Problem{"", error.what()});
  }
  return {};
}

}  // namespace

void click(RuleContext& context) {
  const ActionParams& params = context.params();
  const bool has_matcher = params.matcher.has_value();
  const bool has_coordinate = params.coordinate.has_value();
  if (!has_matcher && !has_coordinate) {
    context.fail("", "click requires params.matcher or params.coordinate");
  } else if (has_matcher && has_coordinate) {
    context.fail("", "click params.matcher and params.coordinate are mutually exclusive");
  } else if (has_coordinate && params.click_type == "focus") {
    context.fail("clickType", "click params.coordinate does not support clickType='focus'");
  } else if (has_coordinate && (params.strict || params.container)) {
    // A point has no candidates to be strict about and no container to be inside.
    context.fail("", "click params.coordinate cannot use strict or container");
  }
}

void distinct_endpoints(RuleContext& context) {
  const ActionParams& params = context.params();
  if (!params.start || !params.end) return;
  if (params.start->x.value() == params.end->x.value() &&
      params.start->y.value() == params.end->y.value()) {
    context.fail("end", std::string(context.type_name()) + " start and end must differ");
  }
}

void scroll_until(RuleContext& context) {
  const ActionParams& params = context.params();
  if (params.click_after == true && !params.matcher) {
    context.fail("matcher", "scroll_until requires params.matcher when params.clickAfter is true");
  }
}

void read_text(RuleContext& context) {
  const ActionParams& params = context.params();
  if (params.validator != "regex") return;
  if (!params.validator_pattern || trim(*params.validator_pattern).empty()) {
    context.fail("validatorPattern",
                 "read_text params.validatorPattern is required when params.validator is 'regex'");
    return;
  }
  if (const auto checked = check_regex(*params.validator_pattern); !checked) {
    context.fail("validatorPattern",
                 "read_text params.validatorPattern must be a valid regular expression: " +
                     checked.error().message);
  }
}

void wait_for_navigation(RuleContext& context) {
  const ActionParams& params = context.params();
  const bool has_package = params.expected_package && !trim(*params.expected_package).empty();
  if (!has_package && !params.expected_node) {
    context.fail("", "wait_for_navigation requires params.expectedPackage or params.expectedNode");
  }
}

void media_target(RuleContext& context) {
  const ActionParams& params = context.params();
  if (params.application_id.has_value() == params.media_session_id.has_value()) {
    context.fail("", std::string(context.type_name()) +
                         ": provide exactly one of applicationId or mediaSessionId; discover "
                         "sessions with media list.");
  }
}

void set_on_screen_log(RuleContext& context) {
  const ActionParams& params = context.params();
  if (params.text.has_value() == params.template_text.has_value()) {
    context.fail("", "set_on_screen_log requires exactly one of params.text or params.template");
  }
}

}  // namespace clawperator::contract::rules
