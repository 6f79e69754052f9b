// Turns any failure or result into what the caller gets: the error object, the
// disposition and the exit code, decided in one place (docs/contract.md §4-7).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/error_catalog.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"

namespace clawperator::contract {

// Verification: checking files on the host against what was recorded of them (evidence verify),
// no device involved.
enum class Phase {
  Usage,
  Validation,
  Readiness,
  Dispatch,
  ResultWait,
  PostProcessing,
  Verification
};
enum class DispatchState { NotDispatched, Dispatched, Unknown };

std::string_view to_string(Phase phase);
std::string_view to_string(DispatchState state);

struct Disposition {
  Delivery delivery = Delivery::Unknown;
  Retry retry = Retry::Unknown;
};

// The process exit codes of docs/contract.md §7.
namespace exit_code {
inline constexpr int kSuccess = 0;
inline constexpr int kFailed = 1;
inline constexpr int kUsage = 2;
inline constexpr int kNotReady = 3;
inline constexpr int kOutcomeUnknown = 4;
inline constexpr int kInternal = 70;
inline constexpr int kInterrupted = 130;
inline constexpr int kTerminated = 143;
}  // namespace exit_code

// 143 for SIGTERM, 130 for SIGINT (and any other interrupt).
int exit_code_for_signal(int signal);

// What is known about the payload's actions when a failure is classified.
struct ActionProfile {
  bool known = false;      // false before the payload was validated
  bool read_only = false;  // every action is read-only
};

// A host failure: anything that ends before or outside a result envelope.
struct HostError {
  std::string code;
  std::string message;
  std::string hint;                 // hint_text (hint_catalog.hpp); empty: the row's recovery
  Json details = Json::object();    // command-specific evidence
  Json top_level = Json::object();  // extra top-level keys (e.g. "suggestion")
  Phase phase = Phase::Usage;
  DispatchState dispatch_state = DispatchState::NotDispatched;
  ActionProfile actions;
  std::optional<int> retry_after_ms;  // for wait_then_retry_original
  int signal_exit = 0;                // 130/143 when the run was interrupted
};

// The one way a host failure is made: its phase, code, words and evidence. Nothing was
// dispatched unless the caller says otherwise.
HostError make_error(Phase phase, std::string code, std::string message,
                     Json details = Json::object());
HostError usage_error(std::string code, std::string message);
HostError validation_error(std::string code, std::string message, Json details = Json::object());
// A request's member that is wrong (an HTTP body's, an MCP call's): validation_error with
// details.field naming it ("args.2"), none when `field` is empty.
HostError field_error(std::string code, std::string message, std::string_view field);
HostError readiness_error(std::string code, std::string message, Json details = Json::object());
// Ctrl-C or SIGTERM (`signal`) stopped the run: RESULT_TRANSPORT_CANCELLED, exit 130/143.
// `signal` 0: the caller cancelled this one run (process/cancel.hpp); no signal exit.
HostError interrupted_error(std::string message, int signal, Json details = Json::object());

// A value or the host failure that prevented it; Status: success or the failure.
template <typename T>
using Outcome = Expected<T, HostError>;
using Status = Expected<void, HostError>;
inline Unexpected<HostError> failed(HostError error) {
  return Unexpected<HostError>{std::move(error)};
}

// What a person should do next: the error's own hint, else the catalog row's recovery text with
// <serial> and <package> filled in from details.deviceId and details.operatorPackage.
std::string hint_of(const HostError& error);

Disposition disposition_of(const HostError& error);
int exit_code_of(const HostError& error);
// The complete error object of docs/contract.md §4.
Json to_json(const HostError& error);
// The `recovery` member for `code` under `disposition`: the catalog row's strategy when a retry
// is safe and the row has one; nullopt otherwise. Shared by host errors and failed envelopes.
std::optional<Json> recovery_json(std::string_view code, const Disposition& disposition,
                                  std::optional<int> retry_after_ms = std::nullopt);

// One step of a received envelope, reduced to what the disposition needs.
struct StepOutcome {
  std::string action_type;
  bool success = false;
  std::string error_code;  // data.error of a failed step
  // What the step's own evidence says (a decoded payload's `dispatched`): when known, it
  // decides whether a failed step had an effect, whatever its code.
  std::optional<bool> dispatched;
};

struct EnvelopeOutcome {
  bool status_success = false;
  std::string error_code;  // envelope-level errorCode, empty when absent
  std::vector<StepOutcome> steps;
};

Disposition disposition_of(const EnvelopeOutcome& envelope, const ActionProfile& actions);
bool envelope_ok(const EnvelopeOutcome& envelope);
Json to_json(const Disposition& disposition);

}  // namespace clawperator::contract
