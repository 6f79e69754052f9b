#include "clawperator/contract/caller_paths.hpp"

#include <string>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/payload_normalization.hpp"

namespace clawperator::contract {

std::optional<ValidationIssue> find_caller_host_path(const Json& actions) {
  if (!actions.is_array()) return std::nullopt;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Json& action = actions[i];
    if (!action.is_object()) continue;
    const auto type = action.find("type");
    if (type == action.end() || !type->is_string()) continue;
    const ActionSpec* spec = find_caller_action(type->get_ref<const std::string&>());
    if (spec == nullptr || spec->post_processing != PostProcessing::CaptureScreenshot) continue;
    const auto params = action.find("params");
    if (params == action.end() || !params->is_object()) continue;
    for (const auto& [key, value] : params->items()) {
      if (canonical_param_key(key) != "path") continue;
      ValidationIssue issue;
      issue.path = "actions." + std::to_string(i) + ".params." + key;
      issue.message =
          "take_screenshot may not name a file on the server's host: the server keeps the "
          "screenshot itself";
      if (const auto id = action.find("id"); id != action.end() && id->is_string()) {
        issue.action_id = id->get<std::string>();
      }
      issue.action_type = type->get<std::string>();
      issue.invalid_keys = {key};
      return issue;
    }
  }
  return std::nullopt;
}

}  // namespace clawperator::contract
