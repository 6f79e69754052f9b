// The notification/media steps' data.payload: decoded, checked and returned parsed, and the
// disposition each §4.3 outcome gets from the evidence it carries (docs/payload.md §8).
#include "exec/payload_decoder.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/outcome.hpp"
#include "exec/post_processing.hpp"
#include "exec/readiness.hpp"

using namespace clawperator;
using contract::Delivery;
using contract::Retry;

namespace {

Json common() {
  return Json{
      {"schemaVersion", 1},
      {"observedElapsedMs", 1234},
      {"deviceState", {{"screenOn", false}, {"deviceLocked", true}, {"userUnlocked", true}}}};
}

Json session() {
  return Json{{"mediaSessionId", "s1"},
              {"applicationId", "com.example.player"},
              {"state", "paused"},
              {"title", nullptr},
              {"clock", "android_elapsed_realtime"},
              {"evidence", "player_report"},
              {"supportedControls", {"play", "pause", "seek"}}};
}

transport::StepResult step(const std::string& type, bool success, const Json& payload,
                           const std::string& code = "") {
  transport::StepResult out;
  out.id = "a1";
  out.actionType = type;
  out.success = success;
  if (!code.empty()) out.data.emplace_back("error", code);
  if (!payload.is_null()) out.data.emplace_back("payload", dump_json(payload));
  return out;
}

transport::Envelope envelope_of(transport::StepResult result) {
  transport::Envelope envelope;
  envelope.commandId = "c1";
  envelope.taskId = "t1";
  envelope.status = result.success ? "success" : "failed";
  envelope.steps.push_back(std::move(result));
  return envelope;
}

Json pause_payload(bool dispatched, bool observed) {
  Json payload = common();
  payload["session"] = session();
  payload["dispatched"] = dispatched;
  payload["waitTimeoutMs"] = 2000;
  payload["targetStateObserved"] = observed;
  return payload;
}

}  // namespace

TEST_CASE("payload decoder: a good payload comes back parsed", "[exec][payload]") {
  Json list = common();
  list["notifications"] = Json::array(
      {Json{{"key", "k1"},
            {"applicationId", "com.example"},
            {"title", "Hi"},
            {"text", nullptr},
            {"ongoing", false},
            {"clearable", true},
            {"groupSummary", false},
            {"actions", Json::array({Json{{"actionId", "x"}, {"requiresInput", false}}})}}});
  list["total"] = 1;
  list["truncated"] = false;
  const auto decoded = exec::decode_payloads(envelope_of(step("list_notifications", true, list)));
  REQUIRE(decoded);
  REQUIRE(decoded->size() == 1);
  REQUIRE((*decoded)[0]);
  CHECK((*(*decoded)[0])["notifications"][0]["key"] == "k1");

  Json rendered = Json{{"stepResults", Json::array({Json{{"id", "a1"}}})}};
  auto payloads = std::move(*decoded);
  exec::attach_payloads(rendered, std::move(payloads));
  CHECK(rendered["stepResults"][0]["payload"]["total"] == 1);
}

TEST_CASE("payload decoder: additive fields are tolerated, older payloads too", "[exec][payload]") {
  Json status = common();
  status["session"] = session();
  status["session"]["playbackType"] = "local";  // newer
  status["somethingNew"] = Json::object();
  CHECK(exec::decode_payloads(envelope_of(step("get_media_status", true, status))));
  Json older = common();
  older["session"] = session();  // no playerReportSequence, no bufferedPositionMs
  CHECK(exec::decode_payloads(envelope_of(step("get_media_status", true, older))));
  // Steps of other actions keep their data as it is.
  CHECK(exec::decode_payloads(envelope_of(step("snapshot", true, Json("not json at all")))));
}

TEST_CASE("payload decoder: malformed payloads are named", "[exec][payload]") {
  struct Row {
    std::string name;
    std::string type;
    bool success;
    std::string text;  // the raw data.payload ("<none>": absent)
    std::string path;
  };
  Json no_version = pause_payload(true, true);
  no_version.erase("schemaVersion");
  Json version_two = pause_payload(true, true);
  version_two["schemaVersion"] = 2;
  Json no_session_id = pause_payload(true, true);
  no_session_id["session"].erase("mediaSessionId");
  Json string_dispatched = pause_payload(true, true);
  string_dispatched["dispatched"] = "true";
  Json bad_state = common();
  bad_state["deviceState"].erase("userUnlocked");
  bad_state["session"] = session();
  Json failed_v2 = Json{{"schemaVersion", 2}, {"dispatched", true}};
  Json failed_bad = Json{{"schemaVersion", 1}, {"dispatched", "yes"}};
  const std::vector<Row> rows = {
      {"missing on success", "media_pause", true, "<none>", ""},
      {"not JSON", "media_pause", true, "{\"schemaVersion\":1", ""},
      {"an array", "media_pause", true, "[1]", ""},
      {"no schemaVersion", "media_pause", true, no_version.dump(), "schemaVersion"},
      {"schemaVersion 2", "media_pause", true, version_two.dump(), "schemaVersion"},
      {"session without id", "media_pause", true, no_session_id.dump(), "session.mediaSessionId"},
      {"dispatched as a string", "media_pause", true, string_dispatched.dump(), "dispatched"},
      {"deviceState incomplete", "get_media_status", true, bad_state.dump(),
       "deviceState.userUnlocked"},
      {"failure of another version", "media_pause", false, failed_v2.dump(), "schemaVersion"},
      {"failure with a bad dispatched", "media_pause", false, failed_bad.dump(), "dispatched"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    transport::StepResult result =
        step(row.type, row.success, Json(nullptr), row.success ? "" : "X");
    if (row.text != "<none>") result.data.emplace_back("payload", row.text);
    const auto decoded = exec::decode_payloads(envelope_of(std::move(result)));
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().problem.path == row.path);
    CHECK(decoded.error().step_id == "a1");
  }
  // A failed step may carry no payload at all.
  CHECK(exec::decode_payloads(
      envelope_of(step("media_pause", false, Json(nullptr), "MEDIA_SESSION_EXPIRED"))));
}

TEST_CASE("the disposition of each notification and media outcome",
          "[exec][payload][disposition]") {
  struct Row {
    std::string name;
    std::string type;
    std::string code;
    std::optional<bool> dispatched;
    Delivery delivery;
    Retry retry;
  };
  const std::vector<Row> rows = {
      {"pause done", "media_pause", "", true, Delivery::DeliveredVerified, Retry::Unsafe},
      {"postcondition timeout after dispatch", "media_pause", "MEDIA_POSTCONDITION_TIMEOUT", true,
       Delivery::DeliveredUnverified, Retry::Unsafe},
      {"seek out of range, not sent", "media_seek", "MEDIA_POSITION_OUT_OF_RANGE", false,
       Delivery::NotDelivered, Retry::Safe},
      {"seek position invalid, not sent", "media_seek", "MEDIA_POSITION_INVALID", false,
       Delivery::NotDelivered, Retry::Safe},
      {"control unsupported", "media_play", "MEDIA_ACTION_UNSUPPORTED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"session ambiguous", "media_play", "MEDIA_SESSION_AMBIGUOUS", false, Delivery::NotDelivered,
       Retry::Safe},
      {"session expired before sending", "media_pause", "MEDIA_SESSION_EXPIRED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"media operation failed after sending", "media_seek", "NOTIFICATION_MEDIA_OPERATION_FAILED",
       true, Delivery::DeliveredUnverified, Retry::Unsafe},
      {"media operation failed, nothing sent", "media_seek", "NOTIFICATION_MEDIA_OPERATION_FAILED",
       false, Delivery::NotDelivered, Retry::Safe},
      {"dismiss of a non-clearable one", "dismiss_notification", "NOTIFICATION_NOT_DISMISSIBLE",
       false, Delivery::NotDelivered, Retry::Safe},
      {"dismiss of a gone key", "dismiss_notification", "NOTIFICATION_EXPIRED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"action cancelled", "invoke_notification_action", "NOTIFICATION_ACTION_CANCELLED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"action stale", "invoke_notification_action", "NOTIFICATION_ACTION_EXPIRED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"action needs input", "invoke_notification_action", "NOTIFICATION_ACTION_INPUT_UNSUPPORTED",
       false, Delivery::NotDelivered, Retry::Safe},
      {"action needs authentication", "invoke_notification_action",
       "NOTIFICATION_ACTION_AUTHENTICATION_UNSUPPORTED", false, Delivery::NotDelivered,
       Retry::Safe},
      {"access denied on a mutation", "dismiss_notification", "NOTIFICATION_ACCESS_DENIED", false,
       Delivery::NotDelivered, Retry::Safe},
      {"listener disconnected, no evidence", "media_pause", "NOTIFICATION_LISTENER_DISCONNECTED",
       std::nullopt, Delivery::DeliveredUnverified, Retry::Unsafe},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const bool success = row.code.empty();
    Json payload = nullptr;
    if (success) {
      payload = pause_payload(true, true);
      if (row.type == "dismiss_notification") payload["notificationKey"] = "k";
    } else if (row.dispatched) {
      payload = Json{{"schemaVersion", 1}, {"dispatched", *row.dispatched}};
    }
    const transport::Envelope envelope = envelope_of(step(row.type, success, payload, row.code));
    const auto decoded = exec::decode_payloads(envelope);
    REQUIRE(decoded);
    const contract::EnvelopeOutcome outcome = exec::envelope_outcome(envelope, *decoded);
    const contract::Disposition disposition = contract::disposition_of(outcome, {true, false});
    CHECK(disposition.delivery == row.delivery);
    CHECK(disposition.retry == row.retry);
  }
  // List, status and observe are read-only: a failure leaves retry safe.
  for (const std::string type :
       {"list_notifications", "list_media_sessions", "get_media_status", "observe_media"}) {
    CAPTURE(type);
    const transport::Envelope envelope =
        envelope_of(step(type, false, Json{{"schemaVersion", 1}, {"dispatched", false}},
                         "NOTIFICATION_ACCESS_DENIED"));
    const contract::EnvelopeOutcome outcome =
        exec::envelope_outcome(envelope, *exec::decode_payloads(envelope));
    const contract::Disposition disposition = contract::disposition_of(outcome, {true, true});
    CHECK(disposition.retry == Retry::Safe);
    CHECK(disposition.delivery == Delivery::DeliveredVerified);
  }
}

TEST_CASE("an on-screen log step failure becomes the envelope's errorCode", "[exec][payload]") {
  transport::Envelope envelope =
      envelope_of(step("set_on_screen_log", false, Json(nullptr), "ON_SCREEN_LOG_RENDER_TIMEOUT"));
  envelope.status = "success";
  exec::reconcile_status(envelope);
  CHECK(envelope.status == "failed");
  CHECK(envelope.errorCode == "ON_SCREEN_LOG_RENDER_TIMEOUT");
  CHECK(envelope.error == "Step a1 (set_on_screen_log) failed: ON_SCREEN_LOG_RENDER_TIMEOUT");
  // Other rows keep the Operator's errorCode.
  transport::Envelope other =
      envelope_of(step("media_pause", false, Json(nullptr), "MEDIA_SESSION_EXPIRED"));
  exec::reconcile_status(other);
  CHECK_FALSE(other.errorCode);
}

TEST_CASE("the user-state verdict of background readiness", "[exec][payload]") {
  CHECK(exec::user_state_unlocked("RUNNING_UNLOCKED\n") == true);
  CHECK(exec::user_state_unlocked("RUNNING_LOCKED\n") == false);
  CHECK(exec::user_state_unlocked("RUNNING_UNLOCKING") == false);
  CHECK_FALSE(exec::user_state_unlocked("Unknown command: get-started-user-state"));
  CHECK_FALSE(exec::user_state_unlocked(""));
}
