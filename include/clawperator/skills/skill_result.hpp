// The original's SkillResult schema (contracts/skillResult.ts of the newest original; the
// [Clawperator-Skill-Result] line a skill's script prints, docs/skills.md): required fields,
// enums and types; unknown keys are allowed, as its schema strips rather than refuses them.
// Pure. `recording compare` checks a saved result with it.
#pragma once

#include <string>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::skills {

// What is wrong with `result`, one "path: problem" each ("checkpoints[0].id: must be a
// non-blank string"); empty when it is a SkillResult.
std::vector<std::string> skill_result_issues(const Json& result);

}  // namespace clawperator::skills
