// A service's answer as the one JSON document every front end prints or sends (docs/contract.md
// §2): `ok: true` before the members of a success, the error object of a failure. The exit
// code (cli/), the HTTP status (serve/) and the MCP result (mcp/) are made from it by each front
// end.
#pragma once

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

Json success_document(Json members);
Json document_of(contract::Outcome<Json> outcome);

}  // namespace clawperator::service
