// `skills new ID [--summary TEXT]` (docs/skills.md, "Scaffolding and validating"): a new skill
// folder <repository>/skills/<id>/ with SKILL.md, skill.json and scripts/run.sh, and its entry
// in the registry. Nothing existing is ever overwritten: files are created exclusively, and a
// run that fails halfway removes what it created. The registry is replaced atomically.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::skills {

inline constexpr const char* kScaffoldScript = "scripts/run.sh";

struct ScaffoldRequest {
  std::string id;                      // trimmed before use
  std::optional<std::string> summary;  // blank or absent: "TODO: describe <id>"
};

// The scaffold's placeholder texts, which `skills validate` warns about while they are left in
// (skill_validation.cpp).
inline constexpr std::string_view kScaffoldSummaryPlaceholder = "TODO: describe ";
inline constexpr std::string_view kScaffoldChecklistPlaceholder = "TODO before sharing this skill";

// `skills init [DIR]`, `skills new --init` (docs/skills.md, "A repository from nothing"): an
// empty registry, {"schemaVersion":"1","skills":[]}, at `location.path`, the folders up to it
// created when missing. The file appears whole or not at all and never replaces one
// (io::write_new_file_atomically): {"created":true,"registryPath","registrySource","next"};
// REGISTRY_ALREADY_EXISTS (details.registryPath) when the name is taken, a link included,
// SKILLS_SCAFFOLD_FAILED (details.path, details.cause) when it cannot be written.
contract::Outcome<Json> init_registry(const RegistryLocation& location);

// The three files' contents, for the entry and summary given (exposed for the tests).
std::string scaffold_skill_markdown(const std::string& id, const std::string& summary);
std::string scaffold_run_script(const std::string& id);

// {"created":true,"skillId","skillPath","files":[SKILL.md, skill.json, scripts/run.sh],"next",
//  registryPath, registrySource}. Errors: SKILL_ID_INVALID (check_skill_id, or no dot to split
// into applicationId and intent), SKILL_ALREADY_EXISTS, SKILL_VALIDATION_FAILED (the folder
// would lead outside the repository), SKILLS_SCAFFOLD_FAILED (details.path, details.cause: the
// errno name or null).
contract::Outcome<Json> scaffold_skill(const Registry& registry, const ScaffoldRequest& request);

}  // namespace clawperator::skills
