// Reading a policy file (docs/guardrails.md, "The policy file").
#include <filesystem>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/policy/policy.hpp"
#include "clawperator/text.hpp"

namespace clawperator::policy {
namespace {

contract::HostError invalid(const std::string& source, const std::string& path,
                            const std::string& problem) {
  return contract::validation_error(
      "POLICY_INVALID", "The policy " + source + " is not usable: " + path + " " + problem,
      {{"policy", source}, {"path", path}});
}

// A list of non-blank strings under `key`, at most kMaxEntries.
contract::Status read_list(const Json& rule, const char* key, const std::string& where,
                           const std::string& source, std::vector<std::string>& out) {
  const auto found = rule.find(key);
  if (found == rule.end()) return {};
  const std::string path = where + "." + key;
  if (!found->is_array() || found->empty() || found->size() > kMaxEntries) {
    return contract::failed(invalid(
        source, path, "must be a list of 1 to " + std::to_string(kMaxEntries) + " strings"));
  }
  for (std::size_t i = 0; i < found->size(); ++i) {
    const Json& entry = (*found)[i];
    if (!entry.is_string() || is_blank(entry.get_ref<const std::string&>())) {
      return contract::failed(
          invalid(source, path + "[" + std::to_string(i) + "]", "must be a non-blank string"));
    }
    out.push_back(std::string(trim_white_space(entry.get_ref<const std::string&>())));
  }
  return {};
}

}  // namespace

std::string_view to_string(Decision decision) {
  switch (decision) {
    case Decision::Allow:
      return "allow";
    case Decision::Confirm:
      return "confirm";
    case Decision::Deny:
      return "deny";
  }
  return "allow";
}

bool Policy::uses_packages() const {
  for (const Rule& rule : rules) {
    if (!rule.packages.empty()) return true;
  }
  return false;
}

bool Policy::uses_labels() const {
  for (const Rule& rule : rules) {
    if (!rule.labels.empty()) return true;
  }
  return false;
}

contract::Outcome<Policy> parse_policy(std::string_view text, const std::string& source) {
  const Json document = parse_json(text);
  if (!document.is_object()) return contract::failed(invalid(source, "$", "is not a JSON object"));
  for (const auto& [key, value] : document.items()) {
    (void)value;
    if (key != "schemaVersion" && key != "rules") {
      return contract::failed(invalid(source, key, "is not a member of a policy"));
    }
  }
  if (document.value("schemaVersion", Json()) != Json(1)) {
    return contract::failed(invalid(source, "schemaVersion", "must be 1"));
  }
  const auto rules = document.find("rules");
  if (rules == document.end() || !rules->is_array() || rules->size() > kMaxRules) {
    return contract::failed(invalid(
        source, "rules", "must be a list of at most " + std::to_string(kMaxRules) + " rules"));
  }
  Policy policy;
  policy.source = source;
  for (std::size_t i = 0; i < rules->size(); ++i) {
    const Json& entry = (*rules)[i];
    const std::string where = "rules[" + std::to_string(i) + "]";
    if (!entry.is_object()) return contract::failed(invalid(source, where, "must be an object"));
    for (const auto& [key, value] : entry.items()) {
      (void)value;
      if (key != "id" && key != "decision" && key != "actions" && key != "effects" &&
          key != "packages" && key != "labels" && key != "reason") {
        return contract::failed(invalid(source, where + "." + key, "is not a member of a rule"));
      }
    }
    Rule rule;
    const Json id = entry.value("id", Json());
    if (!id.is_string() || is_blank(id.get_ref<const std::string&>()) ||
        id.get_ref<const std::string&>().size() > 128) {
      return contract::failed(invalid(source, where + ".id", "must be a non-blank string"));
    }
    rule.id = id.get<std::string>();
    for (const Rule& earlier : policy.rules) {
      if (earlier.id == rule.id) {
        return contract::failed(invalid(source, where + ".id", "repeats " + quote_json(rule.id)));
      }
    }
    const Json decision = entry.value("decision", Json());
    if (decision == "deny") {
      rule.decision = Decision::Deny;
    } else if (decision == "confirm") {
      rule.decision = Decision::Confirm;
    } else {
      return contract::failed(invalid(source, where + ".decision", "must be deny or confirm"));
    }
    std::vector<std::string> effects;
    for (const auto& [key, list] :
         {std::pair{"actions", &rule.actions}, std::pair{"effects", &effects},
          std::pair{"packages", &rule.packages}, std::pair{"labels", &rule.labels}}) {
      CLAWPERATOR_TRY(read_list(entry, key, where, source, *list));
    }
    for (const std::string& name : effects) {
      const std::optional<contract::StepEffect> effect = contract::find_step_effect(name);
      if (!effect) {
        std::string names;
        for (std::string_view known : contract::kStepEffectNames) {
          names += (names.empty() ? "" : ", ") + std::string(known);
        }
        return contract::failed(invalid(source, where + ".effects",
                                        quote_json(name) + " is not an effect (" + names + ")"));
      }
      rule.effects.push_back(*effect);
    }
    for (std::string& action : rule.actions) {
      const contract::ActionSpec* spec = contract::find_action(action);
      if (spec == nullptr) {
        return contract::failed(
            invalid(source, where + ".actions", quote_json(action) + " is not an action type"));
      }
      action = std::string(spec->name);
    }
    if (rule.actions.empty() && rule.effects.empty() && rule.packages.empty() &&
        rule.labels.empty()) {
      return contract::failed(invalid(
          source, where,
          "must name actions, effects, packages or labels (a rule for everything is a typo)"));
    }
    if (const auto reason = entry.find("reason"); reason != entry.end()) {
      if (!reason->is_string()) {
        return contract::failed(invalid(source, where + ".reason", "must be a string"));
      }
      rule.reason = reason->get<std::string>();
    }
    policy.rules.push_back(std::move(rule));
  }
  return policy;
}

contract::Outcome<std::optional<Policy>> load_policy(const std::optional<std::string>& flag,
                                                     const io::StateEnvironment& environment) {
  std::filesystem::path path;
  if (flag) {
    path = *flag;
  } else if (const char* variable = environment.variable("CLAWPERATOR_POLICY");
             variable != nullptr && *variable != '\0') {
    path = variable;
  } else {
    // The default place counts only when the file is there.
    if (const char* config = environment.variable("XDG_CONFIG_HOME");
        config != nullptr && *config != '\0') {
      path = std::filesystem::path(config) / "clawperator" / "policy.json";
    } else if (const char* home = environment.variable("HOME"); home != nullptr && *home != '\0') {
      path = std::filesystem::path(home) / ".config" / "clawperator" / "policy.json";
    } else if (auto passwd = environment.passwd_home ? environment.passwd_home() : std::nullopt) {
      path = std::filesystem::path(*passwd) / ".config" / "clawperator" / "policy.json";
    } else {
      return std::optional<Policy>();
    }
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return std::optional<Policy>();
  }
  std::string text;
  if (auto read = io::read_regular_file(path, kMaxPolicyBytes, text); !read) {
    return contract::failed(
        invalid(path.string(), "(file)", "cannot be read: " + read.error().message));
  }
  CLAWPERATOR_TRY_ASSIGN(auto policy, parse_policy(text, path.string()));
  std::error_code no_cwd;
  policy.file = std::filesystem::absolute(path, no_cwd);
  if (no_cwd) policy.file = path;
  return std::optional<Policy>(std::move(policy));
}

}  // namespace clawperator::policy
