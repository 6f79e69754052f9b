#include "clawperator/skills/skill_result.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace clawperator::skills {
namespace {

class SkillResultChecker {
 public:
  void check(const Json& result) {
    check_contract_version(result);
    require_string(result, "skillId", "skillId", true);
    check_source(result);
    optional_object(result, "goal", "goal");
    optional_object(result, "inputs", "inputs");
    const auto answer = result.find("result");
    if (answer != result.end() && !answer->is_null()) check_evidence(*answer, "result");
    require_enum(result, "status", "status", {"success", "failed", "indeterminate"});
    const auto checkpoints = result.find("checkpoints");
    if (checkpoints == result.end() || !checkpoints->is_array()) {
      issue("checkpoints", "must be a list");
    } else {
      for (std::size_t i = 0; i < checkpoints->size(); ++i) {
        check_checkpoint((*checkpoints)[i], "checkpoints[" + std::to_string(i) + "]");
      }
    }
    check_terminal_verification(result);
    check_exec_envelopes(result);
    check_diagnostics(result);
  }

  const std::vector<std::string>& issues() const { return issues_; }

 private:
  static constexpr std::size_t kMaxIssues = 10;
  static constexpr std::string_view kSupportedMajorVersion = "1";

  void issue(const std::string& path, std::string_view what) {
    if (issues_.size() < kMaxIssues) issues_.push_back(path + " " + std::string(what));
  }

  bool require_object(const Json& value, const std::string& path) {
    if (value.is_object()) return true;
    issue(path, "must be an object");
    return false;
  }

  void require_string(const Json& object, const char* key, const std::string& path,
                      bool non_empty) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string()) {
      issue(path, "must be a string");
    } else if (non_empty && found->get_ref<const std::string&>().empty()) {
      issue(path, "must not be empty");
    }
  }

  void optional_string(const Json& object, const char* key, const std::string& path,
                       bool nullable = false) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_string() || (nullable && found->is_null())) return;
    issue(path, nullable ? "must be a string or null" : "must be a string");
  }

  void optional_object(const Json& object, const char* key, const std::string& path) {
    const auto found = object.find(key);
    if (found != object.end()) require_object(*found, path);
  }

  void require_enum(const Json& object, const char* key, const std::string& path,
                    std::initializer_list<std::string_view> allowed) {
    const auto found = object.find(key);
    if (found != object.end() && found->is_string() &&
        std::find(allowed.begin(), allowed.end(), found->get_ref<const std::string&>()) !=
            allowed.end()) {
      return;
    }
    std::string names;
    for (std::string_view name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
    issue(path, "must be one of " + names);
  }

  // The original refuses a major version other than its own and accepts a newer minor
  // (validateSupportedSkillResultContractVersion in contracts/skillResult.ts).
  void check_contract_version(const Json& result) {
    const auto found = result.find("contractVersion");
    if (found == result.end() || !found->is_string()) {
      issue("contractVersion", "must be a string");
      return;
    }
    // Three dot-separated runs of digits; the major read as a number, as the original does.
    std::string_view rest = found->get_ref<const std::string&>();
    std::vector<std::string_view> numbers;
    while (true) {
      const std::size_t dot = rest.find('.');
      numbers.push_back(rest.substr(0, dot));
      if (dot == std::string_view::npos) break;
      rest.remove_prefix(dot + 1);
    }
    const bool shaped =
        numbers.size() == 3 && std::all_of(numbers.begin(), numbers.end(), [](std::string_view n) {
          return !n.empty() &&
                 std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; });
        });
    if (!shaped) {
      issue("contractVersion", "must be a version MAJOR.MINOR.PATCH");
      return;
    }
    const std::string_view major =
        numbers[0].substr(std::min(numbers[0].find_first_not_of('0'), numbers[0].size() - 1));
    if (major != kSupportedMajorVersion) {
      issue("contractVersion", "must have major version " + std::string(kSupportedMajorVersion));
    }
  }

  void check_source(const Json& result) {
    const auto source = result.find("source");
    if (source == result.end()) {
      issue("source", "must be an object");
      return;
    }
    if (!require_object(*source, "source")) return;
    require_enum(*source, "kind", "source.kind", {"script", "agent"});
    if (source->value("kind", Json()) == "agent") {
      require_string(*source, "agentCli", "source.agentCli", true);
    }
  }

  void check_evidence(const Json& evidence, const std::string& path) {
    if (!require_object(evidence, path)) return;
    const std::string kind = evidence.value("kind", Json()).is_string()
                                 ? evidence.at("kind").get<std::string>()
                                 : std::string();
    if (kind == "text") {
      require_string(evidence, "text", path + ".text", false);
    } else if (kind == "json") {
      if (!evidence.contains("value")) issue(path + ".value", "is required");
    } else if (kind == "result_envelope_ref") {
      const auto index = evidence.find("execEnvelopeIndex");
      const bool whole = index != evidence.end() && index->is_number() &&
                         (index->is_number_integer() ||
                          index->get<double>() == static_cast<double>(index->get<long long>()));
      if (!whole || index->get<double>() < 0) {
        issue(path + ".execEnvelopeIndex", "must be a whole number, 0 or more");
      }
      optional_string(evidence, "stepResultId", path + ".stepResultId");
    } else {
      issue(path + ".kind", "must be one of text, json, result_envelope_ref");
    }
  }

  void check_checkpoint(const Json& checkpoint, const std::string& path) {
    if (!require_object(checkpoint, path)) return;
    require_string(checkpoint, "id", path + ".id", true);
    require_enum(checkpoint, "status", path + ".status", {"ok", "failed", "skipped"});
    optional_string(checkpoint, "observedAt", path + ".observedAt");
    if (checkpoint.contains("evidence")) {
      check_evidence(checkpoint.at("evidence"), path + ".evidence");
    }
    optional_string(checkpoint, "note", path + ".note");
  }

  void check_terminal_verification(const Json& result) {
    const auto verification = result.find("terminalVerification");
    if (verification == result.end() || verification->is_null()) return;
    if (!require_object(*verification, "terminalVerification")) return;
    require_enum(*verification, "status", "terminalVerification.status",
                 {"verified", "failed", "not_run"});
    for (const char* key : {"expected", "observed"}) {
      const auto evidence = verification->find(key);
      if (evidence != verification->end() && !evidence->is_null()) {
        check_evidence(*evidence, std::string("terminalVerification.") + key);
      }
    }
    optional_string(*verification, "note", "terminalVerification.note", true);
  }

  void check_exec_envelopes(const Json& result) {
    const auto envelopes = result.find("execEnvelopes");
    if (envelopes == result.end()) return;
    if (!envelopes->is_array()) {
      issue("execEnvelopes", "must be a list");
      return;
    }
    for (std::size_t i = 0; i < envelopes->size(); ++i) {
      const Json& envelope = (*envelopes)[i];
      const std::string path = "execEnvelopes[" + std::to_string(i) + "]";
      if (!require_object(envelope, path)) continue;
      require_string(envelope, "commandId", path + ".commandId", false);
      require_string(envelope, "taskId", path + ".taskId", false);
      require_enum(envelope, "status", path + ".status", {"success", "failed"});
      const auto steps = envelope.find("stepResults");
      if (steps == envelope.end() || !steps->is_array()) {
        issue(path + ".stepResults", "must be a list");
      } else {
        for (std::size_t k = 0; k < steps->size(); ++k) {
          const Json& step = (*steps)[k];
          const std::string step_path = path + ".stepResults[" + std::to_string(k) + "]";
          if (!require_object(step, step_path)) continue;
          require_string(step, "id", step_path + ".id", false);
          require_string(step, "actionType", step_path + ".actionType", false);
          if (!step.contains("success") || !step.at("success").is_boolean()) {
            issue(step_path + ".success", "must be true or false");
          }
        }
      }
      optional_string(envelope, "error", path + ".error", true);
      optional_string(envelope, "errorCode", path + ".errorCode", true);
      optional_string(envelope, "hint", path + ".hint");
    }
  }

  void check_diagnostics(const Json& result) {
    const auto diagnostics = result.find("diagnostics");
    if (diagnostics == result.end() || !require_object(*diagnostics, "diagnostics")) return;
    if (diagnostics->contains("runtimeState")) {
      require_enum(*diagnostics, "runtimeState", "diagnostics.runtimeState",
                   {"healthy", "poisoned", "unavailable", "unknown"});
    }
    for (const char* key : {"warnings", "hints"}) {
      const auto list = diagnostics->find(key);
      if (list == diagnostics->end()) continue;
      if (!list->is_array() ||
          !std::all_of(list->begin(), list->end(), [](const Json& v) { return v.is_string(); })) {
        issue(std::string("diagnostics.") + key, "must be a list of strings");
      }
    }
  }

  std::vector<std::string> issues_;
};

}  // namespace

std::vector<std::string> skill_result_issues(const Json& result) {
  SkillResultChecker checker;
  checker.check(result);
  return checker.issues();
}

}  // namespace clawperator::skills
