// POST /query's answer, computed on the host from a snapshot: the nodes of a UI Automator
// XML dump that a matcher (request_body.hpp's read_matcher form) selects. The inspector
// checks every selector it shows with it. Pure.
#pragma once

#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::serve {

// {count, matches:[{path, class, resourceId, text, contentDesc, bounds}]}, `path` being the
// node's child indices from the root ("0.2.1"), as the inspector numbers them.
// SNAPSHOT_EXTRACTION_FAILED when the XML does not parse.
contract::Outcome<Json> query_nodes(std::string_view xml, const Json& matcher);

// The hierarchy text of the first snapshot step of an execution document; empty when none.
std::string_view snapshot_xml(const Json& document);

}  // namespace clawperator::serve
