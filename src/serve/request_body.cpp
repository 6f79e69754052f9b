#include "clawperator/serve/request_body.hpp"

#include <algorithm>
#include <array>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/skills/remote_limits.hpp"
#include "clawperator/text.hpp"

namespace clawperator::serve {
namespace {

using contract::failed;
using contract::HostError;

using contract::field_error;

}  // namespace

contract::Outcome<Json> parse_body(std::string_view body,
                                   std::initializer_list<std::string_view> allowed) {
  return parse_body(body, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

contract::Outcome<Json> parse_body(std::string_view body,
                                   std::span<const std::string_view> allowed) {
  if (trim(body).empty()) return Json::object();
  if (json_nesting_depth(body, contract::limits::kMaxJsonDepth) > contract::limits::kMaxJsonDepth) {
    return failed(field_error("JSON_TOO_DEEP",
                              "The request body nests deeper than " +
                                  std::to_string(contract::limits::kMaxJsonDepth) + " levels",
                              ""));
  }
  Json parsed = parse_json(body);
  if (parsed.is_discarded()) {
    return failed(field_error("INVALID_JSON", "The request body is not valid JSON", ""));
  }
  if (!parsed.is_object()) {
    return failed(field_error("INVALID_BODY", "The request body must be a JSON object", ""));
  }
  for (const auto& [key, value] : parsed.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return failed(field_error("INVALID_BODY", "Unknown field " + key, key));
    }
  }
  return parsed;
}

contract::Outcome<Target> read_target(const Json& body) {
  Target target;
  if (const auto device = body.find("deviceId"); device != body.end()) {
    if (!device->is_string() || trim(device->get_ref<const std::string&>()).empty()) {
      return failed(
          field_error("INVALID_DEVICE_ID", "deviceId must be a non-blank string", "deviceId"));
    }
    target.device = std::string(trim(device->get_ref<const std::string&>()));
  }
  if (const auto package = body.find("operatorPackage"); package != body.end()) {
    if (!package->is_string() || trim(package->get_ref<const std::string&>()).empty()) {
      return failed(field_error("INVALID_BODY", "operatorPackage must be a non-blank string",
                                "operatorPackage"));
    }
    target.operator_package = std::string(trim(package->get_ref<const std::string&>()));
  }
  return target;
}

contract::Outcome<Json> read_execution(const Json& body) {
  const auto execution = body.find("execution");
  if (execution == body.end() || execution->is_null()) {
    return failed(
        field_error("MISSING_EXECUTION", "The body needs an execution object", "execution"));
  }
  if (!execution->is_object()) {
    return failed(field_error("INVALID_BODY", "execution must be an object", "execution"));
  }
  return *execution;
}

contract::Outcome<contract::NodeMatcher> read_matcher(const Json& body) {
  const auto matcher = body.find("matcher");
  if (matcher == body.end()) {
    return failed(field_error("INVALID_BODY", "The body needs a matcher object", "matcher"));
  }
  // The payload's own rules for a matcher (contract/payload_validation.hpp): /query selects
  // what an action's `matcher` would.
  auto read = contract::read_node_matcher(*matcher, "matcher");
  if (!read) {
    const contract::ValidationIssue& first = read.error().front();
    // An unknown key is named itself (matcher.label), not the object holding it.
    const std::string field =
        first.invalid_keys.empty() ? first.path : first.path + "." + first.invalid_keys.front();
    return failed(field_error("INVALID_BODY", first.path + ": " + first.message, field));
  }
  return std::move(*read);
}

}  // namespace clawperator::serve
