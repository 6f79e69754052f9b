// The JSON bodies of the POST routes (docs/serve.md §2): parsed and checked field by field
// before anything reaches a device. Pure.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::serve {

// The largest JSON body a route accepts; more is PAYLOAD_TOO_LARGE (413).
inline constexpr std::size_t kMaxBodyBytes = 100 * 1024;

// One JSON object; an empty body is {}. INVALID_JSON for text that is not JSON,
// INVALID_BODY for JSON that is not an object or holds a key not in `allowed`.
contract::Outcome<Json> parse_body(std::string_view body,
                                   std::initializer_list<std::string_view> allowed);
// The same with the allowed names built at run time (from a table: service::webview_fields).
contract::Outcome<Json> parse_body(std::string_view body,
                                   std::span<const std::string_view> allowed);

// Where the request runs: `deviceId` (INVALID_DEVICE_ID when blank or not a string) and
// `operatorPackage` (INVALID_BODY when not a non-blank string). Absent: the server's default.
struct Target {
  std::optional<std::string> device;
  std::optional<std::string> operator_package;
};
contract::Outcome<Target> read_target(const Json& body);

// POST /execute's `execution`: MISSING_EXECUTION when absent, INVALID_BODY when not an object.
contract::Outcome<Json> read_execution(const Json& body);

// POST /query's `matcher`: a NodeMatcher as an action's `matcher` param takes it (the six
// fields of contract/matcher_fields.hpp, their aliases, `ancestor` and `descendant`).
// INVALID_BODY naming the first problem (details.field) otherwise.
contract::Outcome<contract::NodeMatcher> read_matcher(const Json& body);

}  // namespace clawperator::serve
