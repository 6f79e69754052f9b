// What the host does to a received envelope before printing it
// (docs/wire-protocol.md §9): snapshots attached, close_app normalised, status reconciled with
// the steps, hints added. Pure: no device, no files.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/transport/envelope.hpp"

namespace clawperator::exec {

bool is_snapshot_step(const transport::StepResult& step);

// Successful snapshot steps without data.text take the UI dumps logged for the
// command, aligned from the end; any still without XML become
// SNAPSHOT_EXTRACTION_FAILED steps.
void attach_snapshots(transport::Envelope& envelope, const std::vector<std::string>& blocks);

// A close_app the Operator could not perform itself succeeded when our
// force-stop did (docs/wire-protocol.md §9).
void normalize_close_app(transport::Envelope& envelope, const contract::Execution& execution,
                         const std::set<std::string>& force_stopped_action_ids);

// A snapshot right after a click may show the screen before it settled.
void add_settle_warnings(transport::Envelope& envelope, const contract::Execution& execution);

// Reconciles status and error with the steps (docs/wire-protocol.md §9), in place.
void reconcile_status(transport::Envelope& envelope);

// The envelope as printed, with the SERVICE_UNAVAILABLE hint added. Its strings are
// moved out: a large snapshot is held once.
Json render_envelope(transport::Envelope&& envelope, const std::string& device_id);

// `payloads`: decode_payloads()'s, one per step (or empty), for the steps' evidence.
contract::EnvelopeOutcome envelope_outcome(const transport::Envelope& envelope,
                                           const std::vector<std::optional<Json>>& payloads = {});

// Each decoded payload, parsed, as its step's `payload` in the rendered envelope.
void attach_payloads(Json& envelope_json, std::vector<std::optional<Json>>&& payloads);

// The parsed data.query of the envelope's last successful query_ui step (a row with
// PostProcessing::ParseQuery), checked: schemaVersion 1, counts that agree with the nodes and
// with `truncated`. nullopt when there is no such step; the problem (for
// RESULT_ENVELOPE_MALFORMED) when a step's data.query is missing or does not hold.
struct QueryError {
  std::string step_id;
  std::string reason;
};
Expected<std::optional<Json>, QueryError> parsed_query(const transport::Envelope& envelope);

// What a failed envelope adds at the top level of the outcome document, so that every failure
// can be branched on by `code` (docs/contract.md §4): code (the envelope's errorCode, else the
// first failed step's data.error, else ACTION_FAILED), failedStep {id, actionType, index} when a
// step failed, message, and hint / recovery from the catalog row of that code. Call it after
// reconcile_status; empty when the envelope succeeded.
Json failure_fields(const transport::Envelope& envelope, const contract::Disposition& disposition,
                    const std::string& device_id);

void set_step_data(transport::StepResult& step, const std::string& key, std::string value);
void erase_step_data(transport::StepResult& step, const std::string& key);

}  // namespace clawperator::exec
