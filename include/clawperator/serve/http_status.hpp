// The HTTP status of each document the server answers with: the error catalog's column
// (contract::CatalogEntry::http_status), which keeps the original's mapping (docs/serve.md §2)
// and gives every other code one. Pure.
#pragma once

#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::serve {

// The status for an error code; 500 for a code the catalog does not have.
int http_status_of_code(std::string_view code);

// 200 for a success and for a terminal result (a document carrying the Operator's envelope:
// its failure is in the envelope), else the status of its `code`.
int http_status_of(const Json& document);

}  // namespace clawperator::serve
