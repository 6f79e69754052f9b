// POST /query's answer, computed on the host from a snapshot: the nodes of a UI Automator
// XML dump (hierarchy/tree.hpp) that a matcher selects (hierarchy/match.hpp). The inspector
// checks every selector it shows with it. Pure.
#pragma once

#include <string_view>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::serve {

// {count, matches:[{path, class, resourceId, text, contentDesc, bounds}]}, `path` being the
// node's child indices from the root ("0.2.1"), as the inspector numbers them.
// SNAPSHOT_EXTRACTION_FAILED (details.line, details.reason) when the XML is not a hierarchy.
contract::Outcome<Json> query_nodes(std::string_view xml, const contract::NodeMatcher& matcher);

// The hierarchy text of the first snapshot step of an execution document; empty when none.
std::string_view snapshot_xml(const Json& document);

}  // namespace clawperator::serve
