#include "clawperator/contract/outcome.hpp"

#include <catch2/catch.hpp>
#include <optional>

using namespace clawperator::contract;

namespace {

HostError host_error(const std::string& code, Phase phase, DispatchState state,
                     ActionProfile actions = {true, false}) {
  HostError error;
  error.code = code;
  error.message = "m";
  error.phase = phase;
  error.dispatch_state = state;
  error.actions = actions;
  return error;
}

}  // namespace

TEST_CASE("host failures: delivery, retry and exit code as a table", "[contract][disposition]") {
  struct Row {
    std::string code;
    Phase phase;
    DispatchState state;
    bool read_only;
    Delivery delivery;
    Retry retry;
    int exit;
  };
  using enum Phase;
  using enum DispatchState;
  const std::vector<Row> rows = {
      {"USAGE", Usage, NotDispatched, false, Delivery::NotDelivered, Retry::Safe, 2},
      {"EXECUTION_VALIDATION_FAILED", Validation, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 2},
      {"PAYLOAD_TOO_LARGE", Validation, NotDispatched, false, Delivery::NotDelivered, Retry::Safe,
       2},
      {"NO_DEVICES", Readiness, NotDispatched, false, Delivery::NotDelivered, Retry::Safe, 3},
      {"ADB_NOT_FOUND", Readiness, NotDispatched, false, Delivery::NotDelivered, Retry::Safe, 3},
      {"OPERATOR_NOT_INSTALLED", Readiness, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 3},
      {"EXECUTION_CONFLICT_IN_FLIGHT", Readiness, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 3},
      // A broadcast adb reports as definitely refused.
      {"OPERATOR_NOT_INSTALLED", Dispatch, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 3},
      // A broadcast whose adb process failed in an unclassified way.
      {"BROADCAST_FAILED", Dispatch, Unknown, false, Delivery::DeliveryUncertain, Retry::Unsafe, 4},
      {"RESULT_ENVELOPE_TIMEOUT", ResultWait, Dispatched, false, Delivery::DeliveredUnverified,
       Retry::Unsafe, 4},
      {"RESULT_ENVELOPE_MALFORMED", ResultWait, Dispatched, false, Delivery::DeliveredUnverified,
       Retry::Unsafe, 4},
      {"RESULT_TRANSPORT_EXITED", ResultWait, Dispatched, false, Delivery::DeliveredUnverified,
       Retry::Unsafe, 4},
      // A reader that died before dispatch: nothing was sent.
      {"RESULT_TRANSPORT_EXITED", ResultWait, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 3},
      {"RESULT_TRANSPORT_SPAWN_FAILED", Readiness, NotDispatched, false, Delivery::NotDelivered,
       Retry::Safe, 3},
      // Read-only payloads are always safe to repeat.
      {"RESULT_ENVELOPE_TIMEOUT", ResultWait, Dispatched, true, Delivery::DeliveredUnverified,
       Retry::Safe, 4},
      {"BROADCAST_FAILED", Dispatch, Unknown, true, Delivery::DeliveryUncertain, Retry::Safe, 4},
      {"SNAPSHOT_ARTIFACT_WRITE_FAILED", PostProcessing, Dispatched, true,
       Delivery::DeliveredVerified, Retry::Safe, 1},
      {"INTERNAL_ERROR", Usage, NotDispatched, false, Delivery::Unknown, Retry::Unknown, 70},
      {"NOT_A_CATALOG_CODE", Readiness, NotDispatched, false, Delivery::NotDelivered, Retry::Safe,
       70},
  };
  for (const Row& row : rows) {
    CAPTURE(row.code, to_string(row.phase), to_string(row.state), row.read_only);
    const HostError error = host_error(row.code, row.phase, row.state, {true, row.read_only});
    const Disposition disposition = disposition_of(error);
    CHECK(disposition.delivery == row.delivery);
    CHECK(disposition.retry == row.retry);
    CHECK(exit_code_of(error) == row.exit);
  }
}

TEST_CASE("signals override the exit code but not the disposition", "[contract][disposition]") {
  HostError error =
      host_error("RESULT_TRANSPORT_CANCELLED", Phase::ResultWait, DispatchState::Dispatched);
  error.signal_exit = exit_code::kInterrupted;
  CHECK(exit_code_of(error) == 130);
  CHECK(disposition_of(error).delivery == Delivery::DeliveredUnverified);
}

TEST_CASE("the error object carries phase, dispatch state and recovery", "[contract][outcome]") {
  HostError error =
      host_error("EXECUTION_CONFLICT_IN_FLIGHT", Phase::Readiness, DispatchState::NotDispatched);
  error.retry_after_ms = 500;
  error.details["deviceId"] = "emulator-5554";
  const auto json = to_json(error);
  CHECK(json["ok"] == false);
  CHECK(json["code"] == "EXECUTION_CONFLICT_IN_FLIGHT");
  CHECK(json["details"]["phase"] == "readiness");
  CHECK(json["details"]["dispatchState"] == "not_dispatched");
  CHECK(json["details"]["deviceId"] == "emulator-5554");
  CHECK(json["disposition"]["delivery"] == "not_delivered");
  CHECK(json["disposition"]["retry"] == "safe");
  CHECK(json["recovery"]["strategy"] == "wait_then_retry_original");
  CHECK(json["recovery"]["retryable"] == true);
  CHECK(json["recovery"]["retryAfterMs"] == 500);
}

TEST_CASE("recovery appears only when retry is safe and a plan exists", "[contract][outcome]") {
  // Validation: safe, but no plan (fix_input is never emitted).
  const auto validation = to_json(validation_error("EXECUTION_VALIDATION_FAILED", "m"));
  CHECK_FALSE(validation.contains("recovery"));
  CHECK_FALSE(validation["details"].contains("dispatchState"));
  // Multiple devices: select one then retry.
  const auto multiple = to_json(host_error("MULTIPLE_DEVICES_DEVICE_ID_REQUIRED", Phase::Readiness,
                                           DispatchState::NotDispatched));
  CHECK(multiple["recovery"]["strategy"] == "select_device_then_retry_original");
  // Timeout after dispatch of a mutating payload: unsafe, so no recovery.
  const auto timeout =
      to_json(host_error("RESULT_ENVELOPE_TIMEOUT", Phase::ResultWait, DispatchState::Dispatched));
  CHECK(timeout["disposition"]["retry"] == "unsafe");
  CHECK_FALSE(timeout.contains("recovery"));
  // Readiness: repair the environment.
  const auto adb =
      to_json(host_error("ADB_NOT_FOUND", Phase::Readiness, DispatchState::NotDispatched));
  CHECK(adb["recovery"]["strategy"] == "repair_environment_then_retry_original");
}

TEST_CASE("received envelopes: disposition as a table", "[contract][disposition]") {
  struct Row {
    std::string name;
    EnvelopeOutcome envelope;
    bool read_only;
    Delivery delivery;
    Retry retry;
    bool ok;
  };
  const std::vector<Row> rows = {
      {"all read-only steps succeeded",
       {true, "", {{"snapshot", true, "", std::nullopt}}},
       true,
       Delivery::DeliveredVerified,
       Retry::Safe,
       true},
      {"a click succeeded",
       {true, "", {{"click", true, "", std::nullopt}}},
       false,
       Delivery::DeliveredVerified,
       Retry::Unsafe,
       true},
      {"click not found: no effect",
       {false, "", {{"click", false, "NODE_NOT_FOUND", std::nullopt}}},
       false,
       Delivery::NotDelivered,
       Retry::Safe,
       false},
      {"click ambiguous after a snapshot",
       {false,
        "",
        {{"snapshot", true, "", std::nullopt}, {"click", false, "NODE_AMBIGUOUS", std::nullopt}}},
       false,
       Delivery::NotDelivered,
       Retry::Safe,
       false},
      {"gesture failed: effect unknown",
       {false, "", {{"scroll", false, "GESTURE_FAILED", std::nullopt}}},
       false,
       Delivery::DeliveredUnverified,
       Retry::Unsafe,
       false},
      {"open_app succeeded then click not found",
       {false,
        "",
        {{"open_app", true, "", std::nullopt}, {"click", false, "NODE_NOT_FOUND", std::nullopt}}},
       false,
       Delivery::DeliveredVerified,
       Retry::Unsafe,
       false},
      {"service unavailable with no steps",
       {false, "SERVICE_UNAVAILABLE", {}},
       false,
       Delivery::NotDelivered,
       Retry::Safe,
       false},
      {"snapshot failed: read-only stays safe",
       {false, "", {{"snapshot", false, "SNAPSHOT_HIERARCHY_UNAVAILABLE", std::nullopt}}},
       true,
       Delivery::DeliveredVerified,
       Retry::Safe,
       false},
      {"status success but a step failed",
       {true, "", {{"read_text", false, "NODE_NOT_FOUND", std::nullopt}}},
       true,
       Delivery::DeliveredVerified,
       Retry::Safe,
       false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const Disposition disposition = disposition_of(row.envelope, {true, row.read_only});
    CHECK(disposition.delivery == row.delivery);
    CHECK(disposition.retry == row.retry);
    CHECK(envelope_ok(row.envelope) == row.ok);
  }
}
