// Validation of the execution payload against the action table (docs/payload.md), stricter
// than the original in one way: every problem is reported, not only the first.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_normalization.hpp"
#include "clawperator/json.hpp"

namespace clawperator::contract {

struct ValidationIssue {
  std::string path;                        // "actions.0.params.uri"; "" for the payload itself
  std::string message;                     // the original CLI's wording
  std::optional<std::string> action_id;    // raw id of the action the path is in
  std::optional<std::string> action_type;  // raw type as supplied, not canonical
  std::vector<std::string> invalid_keys;
  std::string hint;  // only for parameters the Operator removed
  // The nearest valid name for an unknown action type or key (suggest.hpp's rules for a
  // command: "tapp" -> "tap", "textEqual" -> "textEquals"); none when nothing is close.
  std::optional<std::string> suggestion;
};

struct ValidationOutcome {
  // The payload, typed: canonical action types, the params each row accepts, nothing unknown.
  std::optional<Execution> valid;
  std::vector<ValidationIssue> issues;  // empty exactly when valid
};

// With `random`, the short form's missing members are filled in after the aliases are renamed
// and before anything is checked (complete_short_form); without it a payload must be whole.
ValidationOutcome validate_execution(const Json& payload, RandomText random = nullptr);

// A NodeMatcher on its own (serve's /query), read by the payload's rules for a `matcher`
// param: its aliases renamed, the six fields and the two relations, every problem at `path`.
Expected<NodeMatcher, std::vector<ValidationIssue>> read_node_matcher(const Json& value,
                                                                      std::string_view path);

// EXECUTION_VALIDATION_FAILED carrying the first issue in message/details.path
// and all of them in details.issues. `issues` must not be empty. The first issue's suggestion,
// when it has one, is the error's top-level `suggestion` and ends its message ("Did you mean
// 'tap'?"), as an unknown command's is (src/cli/read_command_line.cpp).
HostError validation_failure(const std::vector<ValidationIssue>& issues);

// The global --timeout override (docs/contract.md §1.3): replaces timeoutMs when given.
contract::Status apply_timeout_override(Execution& execution, std::string_view raw_timeout);

// The one admission of a payload, on every front end: validated (validation_failure's
// EXECUTION_VALIDATION_FAILED or EXECUTION_ACTION_UNSUPPORTED), its timeoutMs replaced by
// `timeout_override` when one is given (the CLI's --timeout: apply_timeout_override), and
// within the size limit (check_payload_size), in that order. With `random` (the front ends'
// service::fresh_id_random) the short form is accepted (validate_execution).
Outcome<Execution> admit_execution(const Json& payload,
                                   std::optional<std::string_view> timeout_override = {},
                                   RandomText random = nullptr);

// PAYLOAD_TOO_LARGE when the compact normalised JSON exceeds the limit.
contract::Status check_payload_size(const Execution& execution);

// Parses a millisecond count the way the original's Number() did, minus its
// surprises: the whole text must be a finite decimal number.
std::optional<double> parse_milliseconds(std::string_view text);

}  // namespace clawperator::contract
