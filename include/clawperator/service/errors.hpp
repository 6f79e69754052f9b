// `errors [CODE]`: the public error catalog as the documents the CLI's `errors`, MCP's
// explain_error and serve's /errors routes answer with (docs/errors.md).
#pragma once

#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

// Every row ({"count", "errors"}) for an empty code; one row ({"error", "situationHints"?}) for
// a code, typed in any case and with '-' for '_'; USAGE with a suggestion for an unknown one.
contract::Outcome<Json> errors_document(std::string_view typed);

}  // namespace clawperator::service
