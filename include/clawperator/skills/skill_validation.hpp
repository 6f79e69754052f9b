// `skills validate ID | --all [--dry-run]` (docs/skills.md, "Scaffolding and validating"): a
// skill's files exist, stay inside the skills repository, its skill.json matches its registry
// entry and, with --dry-run, every artifact is a valid payload with its placeholders left in.
// Pure apart from reading the skill's files.
#pragma once

#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::skills {

// {"valid":true,"skill","checks":{skillJsonPath,skillFilePath,scriptPaths,artifactPaths},
//  "dryRun"? (only with --dry-run on a skill without artifacts: payloadValidation "skipped"),
//  registryPath, registrySource}; SKILL_NOT_FOUND or SKILL_VALIDATION_FAILED
// (details.skillId, details.reason and what §2.7 names: missingFields, missingFiles,
// mismatchFields, the artifact's schema issue) otherwise.
// "warnings": [{field|file, reason}] for the scaffold's placeholder text left in (a summary
// holding TODO, SKILL.md's checklist): the skill is still valid, unless `strict`, which makes
// them SKILL_VALIDATION_FAILED (details.warnings).
contract::Outcome<Json> validate_skill(const Registry& registry, std::string_view id, bool dry_run,
                                       bool strict = false);

// Every entry in registry order: {"valid":true,"totalSkills","validSkills":[{skill,checks}]},
// else SKILL_VALIDATION_FAILED "<k> of <n> registered skills failed validation" with
// details.totalSkills, validCount, invalidCount and failures [{skillId,code,message,details}].
// Each valid skill has its "warnings", and "warningCount" sums them; `strict` as above.
contract::Outcome<Json> validate_all_skills(const Registry& registry, bool dry_run,
                                            bool strict = false);

// The gate `skills run` passes before anything touches the device (the original's preflight):
// validate_skill with --dry-run, its error as it is.
contract::Status validate_before_run(const Registry& registry, const SkillEntry& skill);

}  // namespace clawperator::skills
