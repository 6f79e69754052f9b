// What a caller across a trust boundary (serve's POST /skills/:id/run, mcp serve's skills_run)
// may ask of a skill run: arguments few and short, and a deadline that frees the server's
// worker (docs/skills.md, "Over HTTP and MCP").
#pragma once

#include <cstddef>

namespace clawperator::skills {

inline constexpr std::size_t kMaxRemoteSkillArgs = 64;
inline constexpr std::size_t kMaxRemoteSkillArgBytes = 4096;
inline constexpr long long kMaxRemoteSkillTimeoutMs = 600000;

}  // namespace clawperator::skills
