// What a skill's script inherits of the rules its caller runs under (docs/skills.md, "The
// script's environment"). Apart from skill_run.hpp so that the front ends' call structs
// (clawperator/cli/command.hpp) can hold one without the runner's includes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clawperator::skills {

// The rules the script's own `clawperator` calls run under, handed to them in their environment
// so that a step inside a skill is judged exactly as the same step through `exec`
// (docs/skills.md, "The script's environment"): CLAWPERATOR_POLICY, the authenticity demand,
// the result transport, and CLAWPERATOR_CONFIRMATION=withhold. A confirm rule inside a skill
// is refused without a token: the token would go to the script, which is not a person, and
// the script's process group cannot read the caller's terminal.
struct ScriptGuard {
  std::optional<std::filesystem::path> policy_file;  // absolute; nullopt: no policy in force
  bool require_authentic_result = false;
  std::string result_transport = "logcat";  // logcat, direct or auto
};

// ScriptGuard as the variables of the script's environment (they replace any inherited ones).
std::vector<std::string> guard_environment(const ScriptGuard& guard);

}  // namespace clawperator::skills
