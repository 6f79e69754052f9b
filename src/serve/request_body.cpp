#include "clawperator/serve/request_body.hpp"

#include <algorithm>
#include <array>

#include "clawperator/contract/limits.hpp"
#include "clawperator/skills/remote_limits.hpp"
#include "clawperator/text.hpp"

namespace clawperator::serve {
namespace {

using contract::failed;
using contract::HostError;

using contract::field_error;

constexpr std::array<std::string_view, 5> kMatcherFields = {
    "resourceId", "textEquals", "textContains", "contentDescEquals", "contentDescContains"};

std::optional<HostError> check_matcher(const Json& matcher, const std::string& field, bool nested) {
  if (!matcher.is_object()) return field_error("INVALID_BODY", field + " must be an object", field);
  bool any = false;
  for (const auto& [key, value] : matcher.items()) {
    const std::string path = field + "." + key;
    if (key == "ancestor" && !nested) {
      if (auto error = check_matcher(value, path, true)) return error;
      continue;
    }
    if (std::find(kMatcherFields.begin(), kMatcherFields.end(), key) == kMatcherFields.end()) {
      return field_error("INVALID_BODY", "Unknown matcher field " + path, path);
    }
    if (!value.is_string() || trim(value.get_ref<const std::string&>()).empty()) {
      return field_error("INVALID_BODY", path + " must be a non-blank string", path);
    }
    any = true;
  }
  if (!any) {
    return field_error("INVALID_BODY", field + " must have at least one matcher field", field);
  }
  return std::nullopt;
}

}  // namespace

contract::Outcome<Json> parse_body(std::string_view body,
                                   std::initializer_list<std::string_view> allowed) {
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

contract::Outcome<Json> read_matcher(const Json& body) {
  const auto matcher = body.find("matcher");
  if (matcher == body.end()) {
    return failed(field_error("INVALID_BODY", "The body needs a matcher object", "matcher"));
  }
  if (auto error = check_matcher(*matcher, "matcher", false)) return failed(*error);
  return *matcher;
}

}  // namespace clawperator::serve
