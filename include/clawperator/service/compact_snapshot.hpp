// The compact form of a snapshot execution's document (docs/contract.md §3.3), shared by
// `snapshot --compact` and the MCP snapshot tool: the snapshot step's XML leaves the envelope
// and comes back projected as `compact`, after being written to a new raw file if asked.
#pragma once

#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/hierarchy/compact_snapshot.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

// `document` is a successful snapshot execution's (it has an envelope). `raw_path`, when set,
// receives the raw XML as a new file (exclusive create, mode 0600) and is reported as
// compact.rawArtifactPath. Failures: SNAPSHOT_EXTRACTION_FAILED (no XML, or XML that cannot
// be projected), SNAPSHOT_ARTIFACT_WRITE_FAILED (the raw file).
contract::Outcome<Json> compact_snapshot_document(Json document,
                                                  const hierarchy::CompactOptions& options,
                                                  const std::optional<std::string>& raw_path);

}  // namespace clawperator::service
