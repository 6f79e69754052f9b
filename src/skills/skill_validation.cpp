#include "clawperator/skills/skill_validation.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/skills/scaffold.hpp"
#include "skill_files.hpp"

namespace clawperator::skills {
namespace {

namespace fs = std::filesystem;
using contract::HostError;

HostError skill_invalid(const Registry& registry, const SkillEntry& skill, std::string message,
                        Json details) {
  details["skillId"] = skill.id;
  add_registry_fields(details, registry);
  return contract::validation_error("SKILL_VALIDATION_FAILED", std::move(message),
                                    std::move(details));
}

// A resolve_inside refusal, about this skill.
HostError refused_path(const Registry& registry, const SkillEntry& skill, HostError error) {
  error.details["skillId"] = skill.id;
  add_registry_fields(error.details, registry);
  error.message = "Skill " + skill.id + ": " + error.message;
  return error;
}

// A list member of skill.json or a registry entry as compared: absent is [].
Json list_or_empty(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? Json::array() : *it;
}

Json member_or_null(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? Json(nullptr) : *it;
}

struct ValidatedSkill {
  Json checks;
  std::optional<Json> dry_run;
  Json warnings = Json::array();
};

// What `skills new` leaves for the author to replace (scaffold.hpp), still there: a warning
// each, {field|file, reason}. Placeholder text passes validation (the skill runs), but it is
// not ready to share; --strict makes it a failure.
Json placeholder_warnings(const SkillEntry& skill, const fs::path& skill_file) {
  Json warnings = Json::array();
  if (skill.summary.find("TODO") != std::string::npos) {
    Json warning = Json::object();
    warning["field"] = "summary";
    warning["reason"] = "the summary is placeholder text (it holds TODO): say what the skill does";
    warnings.push_back(std::move(warning));
  }
  std::string text;
  if (io::read_regular_file(skill_file, kMaxRegistryBytes, text) &&
      text.find(kScaffoldChecklistPlaceholder) != std::string::npos) {
    Json warning = Json::object();
    warning["file"] = skill_file.string();
    warning["reason"] = "SKILL.md still holds the scaffold's \"" +
                        std::string(kScaffoldChecklistPlaceholder) + "\" checklist";
    warnings.push_back(std::move(warning));
  }
  return warnings;
}

// --strict: a skill with warnings fails as an invalid one does.
contract::Status refuse_warnings(const Registry& registry, const SkillEntry& skill,
                                 const ValidatedSkill& validated) {
  if (validated.warnings.empty()) return {};
  Json details = Json::object();
  details["warnings"] = validated.warnings;
  details["reason"] = "placeholder text left in (--strict fails on warnings)";
  details["skillJsonPath"] = validated.checks["skillJsonPath"];
  return contract::failed(skill_invalid(registry, skill,
                                        "Skill " + skill.id + " has " +
                                            std::to_string(validated.warnings.size()) +
                                            " warning(s) and --strict was given",
                                        std::move(details)));
}

// The first schema issue of one raw artifact (placeholders left in), else nullopt.
contract::Status check_artifact_raw(const Registry& registry, const SkillEntry& skill,
                                    const fs::path& path) {
  const std::string artifact = path.filename().string();
  const std::string message = "Skill " + skill.id + ": artifact payload schema violation";
  Json details = Json::object();
  details["artifact"] = artifact;
  std::string text;
  if (auto read = io::read_regular_file(path, contract::limits::kMaxPayloadInputBytes, text);
      !read) {
    details["reason"] = "cannot read the artifact: " + read.error().message;
    return contract::failed(skill_invalid(registry, skill, message, std::move(details)));
  }
  const Json payload = parse_json(text);
  if (payload.is_discarded()) {
    details["reason"] = "the artifact is not valid JSON";
    return contract::failed(skill_invalid(registry, skill, message, std::move(details)));
  }
  const contract::ValidationOutcome outcome = contract::validate_execution(payload);
  if (outcome.valid) return {};
  const HostError invalid = contract::validation_failure(outcome.issues);
  for (const char* key :
       {"path", "reason", "actionId", "actionType", "invalidKeys", "hint", "issues"}) {
    if (invalid.details.contains(key)) details[key] = invalid.details[key];
  }
  return contract::failed(
      skill_invalid(registry, skill, message + ": " + invalid.message, std::move(details)));
}

contract::Outcome<ValidatedSkill> validate_entry(const Registry& registry, const SkillEntry& skill,
                                                 bool dry_run) {
  const std::string skill_json_relative =
      skill.path.empty() ? std::string("skill.json") : skill.path + "/skill.json";
  auto skill_json = resolve_inside(registry, skill_json_relative, "path");
  if (!skill_json) return contract::failed(refused_path(registry, skill, skill_json.error()));
  const std::string skill_json_path = skill_json->string();
  const auto with_skill_json = [&](Json details) {
    details["skillJsonPath"] = skill_json_path;
    return details;
  };

  if (!skill.raw.contains("scripts")) {
    Json details = Json::object();
    details["missingFields"] = Json::array({"scripts"});
    details["reason"] = "scripts must be an array";
    return contract::failed(skill_invalid(registry, skill,
                                          "Skill " + skill.id + ": scripts must be an array",
                                          with_skill_json(std::move(details))));
  }

  // Every path first: one that leads outside the repository is refused before any is read.
  auto skill_file = resolve_inside(registry, skill.skill_file, "skillFile");
  if (!skill_file) return contract::failed(refused_path(registry, skill, skill_file.error()));
  std::vector<fs::path> scripts, artifacts;
  for (const std::string& script : skill.scripts) {
    auto resolved = resolve_inside(registry, script, "scripts");
    if (!resolved) return contract::failed(refused_path(registry, skill, resolved.error()));
    scripts.push_back(*resolved);
  }
  for (const std::string& artifact : skill.artifacts) {
    auto resolved = resolve_inside(registry, artifact, "artifacts");
    if (!resolved) return contract::failed(refused_path(registry, skill, resolved.error()));
    artifacts.push_back(*resolved);
  }

  Json missing = Json::array();
  const auto note_missing = [&](const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error)) missing.push_back(path.string());
  };
  note_missing(*skill_json);
  note_missing(*skill_file);
  for (const fs::path& path : scripts) note_missing(path);
  for (const fs::path& path : artifacts) note_missing(path);
  if (!missing.empty()) {
    Json details = Json::object();
    details["missingFiles"] = std::move(missing);
    details["reason"] = "files named by the registry entry are missing";
    return contract::failed(skill_invalid(registry, skill,
                                          "Skill " + skill.id + " is missing required files",
                                          with_skill_json(std::move(details))));
  }

  std::string text;
  if (auto read = io::read_regular_file(*skill_json, kMaxRegistryBytes, text); !read) {
    Json details = Json::object();
    details["reason"] = "cannot read skill.json: " + read.error().message;
    return contract::failed(skill_invalid(registry, skill,
                                          "Skill " + skill.id + ": cannot read skill.json",
                                          with_skill_json(std::move(details))));
  }
  const Json metadata = parse_json(text);
  if (metadata.is_discarded() || !metadata.is_object()) {
    const std::string reason =
        metadata.is_discarded() ? "skill.json is not valid JSON" : "skill.json is not an object";
    Json details = Json::object();
    details["reason"] = reason;
    return contract::failed(skill_invalid(registry, skill, "Skill " + skill.id + ": " + reason,
                                          with_skill_json(std::move(details))));
  }
  Json mismatches = Json::array();
  for (const char* key : {"id", "applicationId", "intent", "summary", "path", "skillFile"}) {
    if (member_or_null(metadata, key) != member_or_null(skill.raw, key)) mismatches.push_back(key);
  }
  for (const char* key : {"scripts", "artifacts"}) {
    if (list_or_empty(metadata, key) != list_or_empty(skill.raw, key)) mismatches.push_back(key);
  }
  if (!mismatches.empty()) {
    Json details = Json::object();
    details["mismatchFields"] = std::move(mismatches);
    details["reason"] = "skill.json does not match the registry entry";
    return contract::failed(skill_invalid(
        registry, skill, "Skill " + skill.id + " metadata does not match the registry entry",
        with_skill_json(std::move(details))));
  }

  ValidatedSkill validated;
  validated.checks = Json::object();
  validated.checks["skillJsonPath"] = skill_json_path;
  validated.checks["skillFilePath"] = skill_file->string();
  Json script_paths = Json::array(), artifact_paths = Json::array();
  for (const fs::path& path : scripts) script_paths.push_back(path.string());
  for (const fs::path& path : artifacts) artifact_paths.push_back(path.string());
  validated.checks["scriptPaths"] = std::move(script_paths);
  validated.checks["artifactPaths"] = std::move(artifact_paths);
  validated.warnings = placeholder_warnings(skill, *skill_file);

  if (dry_run && artifacts.empty()) {
    Json report = Json::object();
    report["payloadValidation"] = "skipped";
    report["reason"] =
        "skill has no pre-compiled artifacts; payload is generated at runtime by the skill "
        "script";
    validated.dry_run = std::move(report);
  }
  // Artifacts that pass add nothing to the output, as in the original: `valid` says it.
  for (const fs::path& path : dry_run ? artifacts : std::vector<fs::path>{}) {
    if (auto status = check_artifact_raw(registry, skill, path); !status) {
      status.error().details["skillJsonPath"] = skill_json_path;
      return contract::failed(std::move(status.error()));
    }
  }
  return validated;
}

}  // namespace

contract::Outcome<Json> validate_skill(const Registry& registry, std::string_view id, bool dry_run,
                                       bool strict) {
  const SkillEntry* skill = registry.find(id);
  if (!skill) return contract::failed(skill_not_found(registry, id));
  CLAWPERATOR_TRY_ASSIGN(auto validated, validate_entry(registry, *skill, dry_run));
  if (strict) CLAWPERATOR_TRY(refuse_warnings(registry, *skill, validated));
  Json out = Json::object();
  out["valid"] = true;
  out["skill"] = skill->raw;
  if (validated.dry_run) out["dryRun"] = *validated.dry_run;
  out["checks"] = std::move(validated.checks);
  out["warnings"] = std::move(validated.warnings);
  add_registry_fields(out, registry);
  return out;
}

contract::Outcome<Json> validate_all_skills(const Registry& registry, bool dry_run, bool strict) {
  Json valid_skills = Json::array();
  Json failures = Json::array();
  std::size_t warning_count = 0;
  for (const SkillEntry& skill : registry.skills) {
    auto validated = validate_entry(registry, skill, dry_run);
    contract::Status status;
    if (!validated) status = contract::failed(validated.error());
    if (validated && strict) status = refuse_warnings(registry, skill, *validated);
    if (status) {
      Json item = Json::object();
      item["skill"] = skill.raw;
      item["checks"] = std::move(validated->checks);
      warning_count += validated->warnings.size();
      item["warnings"] = std::move(validated->warnings);
      valid_skills.push_back(std::move(item));
      continue;
    }
    const HostError& error = status.error();
    Json details = error.details;
    // The registry fields are said once, at the top of the failure.
    details.erase("registryPath");
    details.erase("registrySource");
    Json failure = Json::object();
    failure["skillId"] = skill.id;
    failure["code"] = error.code;
    failure["message"] = error.message;
    failure["details"] = std::move(details);
    failures.push_back(std::move(failure));
  }
  const std::size_t total = registry.skills.size();
  if (!failures.empty()) {
    Json details = Json::object();
    details["totalSkills"] = total;
    details["validCount"] = valid_skills.size();
    details["invalidCount"] = failures.size();
    details["failures"] = std::move(failures);
    add_registry_fields(details, registry);
    const std::string message = std::to_string(details["invalidCount"].get<std::size_t>()) +
                                " of " + std::to_string(total) +
                                " registered skills failed validation";
    return contract::failed(
        contract::validation_error("SKILL_VALIDATION_FAILED", message, std::move(details)));
  }
  Json out = Json::object();
  out["valid"] = true;
  out["totalSkills"] = total;
  out["validSkills"] = std::move(valid_skills);
  out["warningCount"] = warning_count;
  add_registry_fields(out, registry);
  return out;
}

contract::Status validate_before_run(const Registry& registry, const SkillEntry& skill) {
  CLAWPERATOR_TRY(validate_skill(registry, skill.id, /*dry_run=*/true));
  return {};
}

}  // namespace clawperator::skills
