// The read-only skills documents: list, get, search (docs/skills.md). Shared by the CLI, the MCP
// tools (skills_list, skills_get) and the HTTP routes (GET /skills, GET /skills/:id). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::skills {

// {"skills": [entry as written, ...], "count": n, "registryPath", "registrySource"}
Json list_document(const Registry& registry);

// {"skill": entry, "registryPath", "registrySource"}, else SKILL_NOT_FOUND.
contract::Outcome<Json> get_document(const Registry& registry, std::string_view id);

// Filters are ANDed: `app` equals applicationId, `intent` equals intent, `keyword` is a
// case-blind (ASCII) substring of id, summary or applicationId.
struct SearchFilter {
  std::optional<std::string> app;
  std::optional<std::string> intent;
  std::optional<std::string> keyword;
  bool empty() const { return !app && !intent && !keyword; }
};
// The list document of the entries that match.
Json search_document(const Registry& registry, const SearchFilter& filter);

}  // namespace clawperator::skills
