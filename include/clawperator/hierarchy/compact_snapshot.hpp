// snapshot --compact (docs/contract.md §3.3): the UI hierarchy XML
// projected on the host into a bounded JSON list of nodes for an agent's context window.
// Pure: the XML in, the projection or why there is none out (hierarchy/tree.hpp's reading, so a
// DTD, an entity declaration, stray text or any element other than <hierarchy>/<node> is
// refused).
#pragma once

#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::hierarchy {

// The largest options a caller may ask for (--max-nodes, --max-text-chars, MCP's maxNodes,
// maxTextChars).
inline constexpr int kMaxCompactNodes = 1000;
inline constexpr int kMaxCompactTextChars = 4096;

struct CompactOptions {
  int max_nodes = 100;       // 1..kMaxCompactNodes: a preorder prefix of whole nodes
  int max_text_chars = 256;  // 1..kMaxCompactTextChars: text and content-desc cut by code points
};

// {schemaVersion: 1, totalNodes, returnedNodes, omittedNodes, truncated, nodes: [...]}; the
// caller adds commandId, taskId and rawArtifactPath.
// The error: the parser's sentence (ParseError::message), the XML as a whole at fault.
Expected<Json, Problem> project_compact_snapshot(std::string_view xml,
                                                 const CompactOptions& options);

}  // namespace clawperator::hierarchy
