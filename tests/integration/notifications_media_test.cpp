// Notifications, media sessions and the on-screen log panel (docs/payload.md §8–9): the real
// binary through the real adb against virtual devices that simulate them.
#include <thread>

#include "farm_fixture.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::scenario;
using clawperator::testing::single_document;
using nlohmann::json;
namespace android = clawperator::vdevice::android;

namespace {

const std::string kChat = "0|com.example.chat|7|null|10123";
const std::string kDownload = "0|com.example.files|3|null|10140";

struct Run {
  json document;
  int exit_code = 0;
};

Run cli(const Farm& farm, std::vector<std::string> args) {
  args.push_back("--device");
  args.push_back(farm.serials().front());
  const RunResult result = farm.clawperator(args);
  Run run{single_document(result), result.exit_code};
  INFO(run.document.dump(2).substr(0, 4000));
  return run;
}

const json& first_step(const Run& run) {
  REQUIRE(run.document.contains("envelope"));
  REQUIRE_FALSE(run.document["envelope"]["stepResults"].empty());
  return run.document["envelope"]["stepResults"][0];
}

// A failed step of the Operator: its code, exit 1, and the disposition it earns.
void expect_step_failure(const Run& run, const std::string& code, const std::string& delivery) {
  CAPTURE(code);
  INFO(run.document.dump(2).substr(0, 3000));
  CHECK(run.document["ok"] == false);
  CHECK(run.exit_code == 1);
  CHECK(first_step(run)["data"]["error"] == code);
  CHECK(run.document["disposition"]["delivery"] == delivery);
}

std::string device_log(const Farm& farm) {
  return farm.adb({"-s", farm.serials().front(), "logcat", "-d"}).out;
}

}  // namespace

TEST_CASE("notifications: list, invoke and dismiss through the listener",
          "[integration][notifications]") {
  Farm farm({"notifications-media"});
  const Run listed = cli(farm, {"notifications", "list", "--app", "com.example.files"});
  REQUIRE(listed.exit_code == 0);
  const json& payload = first_step(listed)["payload"];
  CHECK(payload["schemaVersion"] == 1);
  REQUIRE(payload["notifications"].size() == 1);
  CHECK(payload["notifications"][0]["key"] == kDownload);
  CHECK(payload["notifications"][0]["clearable"] == false);
  CHECK(payload["notifications"][0]["progress"]["value"] == 42);
  CHECK(listed.document["disposition"]["retry"] == "safe");

  // Invoking: one that works, then each refusal the listener gives.
  const Run invoked = cli(farm, {"notifications", "action", kChat, "--action", "mark_read"});
  CHECK(invoked.exit_code == 0);
  CHECK(first_step(invoked)["payload"]["dispatched"] == true);
  CHECK(invoked.document["disposition"]["delivery"] == "delivered_verified");
  CHECK(device_log(farm).find("Sent action mark_read of " + kChat) != std::string::npos);
  const std::pair<const char*, const char*> refusals[] = {
      {"reply", "NOTIFICATION_ACTION_INPUT_UNSUPPORTED"},
      {"call_back", "NOTIFICATION_ACTION_AUTHENTICATION_UNSUPPORTED"},
      {"snooze", "NOTIFICATION_ACTION_CANCELLED"},
      {"archive", "NOTIFICATION_ACTION_EXPIRED"},
  };
  for (const auto& [action, code] : refusals) {
    const Run refused = cli(farm, {"notifications", "action", kChat, "--action", action});
    expect_step_failure(refused, code, "not_delivered");
    CHECK(first_step(refused)["payload"]["dispatched"] == false);
    CHECK(refused.document["disposition"]["retry"] == "safe");
  }

  expect_step_failure(cli(farm, {"notifications", "dismiss", kDownload}),
                      "NOTIFICATION_NOT_DISMISSIBLE", "not_delivered");
  const Run dismissed = cli(farm, {"notifications", "dismiss", kChat, "--wait-timeout-ms", "2000"});
  REQUIRE(dismissed.exit_code == 0);
  CHECK(first_step(dismissed)["payload"]["removalObserved"] == true);
  CHECK(first_step(dismissed)["payload"]["notificationKey"] == kChat);
  expect_step_failure(cli(farm, {"notifications", "dismiss", kChat}), "NOTIFICATION_EXPIRED",
                      "not_delivered");

  // Notifications keep arriving: the one posted 1.5 s after boot comes.
  Run later;
  REQUIRE(clawperator::testing::wait_until(
      [&] {
        later = cli(farm, {"notifications", "list", "--app", "com.example.chat"});
        return later.exit_code == 0 && !first_step(later)["payload"]["notifications"].empty();
      },
      std::chrono::seconds(30), std::chrono::milliseconds(100)));
  REQUIRE(first_step(later)["payload"]["notifications"].size() == 1);
  CHECK(first_step(later)["payload"]["notifications"][0]["title"] == "Grace");

  // Flags the word does not take, and values that are not numbers, are usage errors.
  const Run wrong_flag = cli(farm, {"notifications", "list", "--action", "x"});
  CHECK(wrong_flag.exit_code == 2);
  CHECK(wrong_flag.document["code"] == "USAGE");
  const Run not_number = cli(farm, {"notifications", "list", "--limit", "0x10"});
  CHECK(not_number.exit_code == 2);
  CHECK(not_number.document["details"]["flag"] == "--limit");
  const Run out_of_range = cli(farm, {"notifications", "list", "--limit", "101"});
  CHECK(out_of_range.exit_code == 2);
  CHECK(out_of_range.document["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(out_of_range.document["details"]["path"] == "actions.0.params.limit");
}

TEST_CASE("notifications: listener access off", "[integration][notifications]") {
  android::Scenario off = scenario("notifications-media");
  off.settings["secure"].erase("enabled_notification_listeners");
  Farm farm(Farm::Built{{off}});
  const Run listed = cli(farm, {"notifications", "list"});
  expect_step_failure(listed, "NOTIFICATION_ACCESS_DENIED", "delivered_verified");
  CHECK(listed.document["disposition"]["retry"] == "safe");
  // Granting it is what setup does (cmd notification allow_listener).
  REQUIRE(farm.adb({"-s", farm.serials().front(), "shell", "cmd", "notification", "allow_listener",
                    "com.clawperator.operator/action.notification.NotificationListenerService"})
              .exit_code == 0);
  CHECK(cli(farm, {"notifications", "list"}).exit_code == 0);
}

TEST_CASE("media: seek, observe and the refusals of the sessions", "[integration][media]") {
  Farm farm({"notifications-media"});
  const Run seek = cli(farm, {"media", "seek", "--session", "7f3a", "--position-ms", "60000",
                              "--wait-timeout-ms", "3000"});
  REQUIRE(seek.exit_code == 0);
  const json& seek_payload = first_step(seek)["payload"];
  CHECK(seek_payload["dispatched"] == true);
  CHECK(seek_payload["targetPositionObserved"] == true);
  CHECK(seek_payload["requestedPositionMs"] == 60000);
  CHECK(seek_payload["session"]["estimatedPositionMs"].get<long long>() >= 60000);
  CHECK(seek.document["disposition"]["delivery"] == "delivered_verified");

  const Run observed =
      cli(farm, {"media", "observe", "--session", "7f3a", "--duration-ms", "1500"});
  REQUIRE(observed.exit_code == 0);
  const json& observation = first_step(observed)["payload"];
  CHECK(observation["durationMs"] == 1500);
  CHECK_FALSE(observation["samples"].empty());
  CHECK(observation["newPlayerReportCount"].get<int>() >= 1);
  // Playing at 1x: the position moved on by about the observed time.
  CHECK(observation["reportedPositionDeltaMs"].get<long long>() >= 1000);
  CHECK(observation["session"]["reportedPositionMs"].get<long long>() >= 61000);
  CHECK(observed.document["envelope"]["commandId"].get<std::string>().rfind("media-observe-", 0) ==
        0);

  const Run status = cli(farm, {"media", "status", "--app", "com.example.player"});
  REQUIRE(status.exit_code == 0);
  CHECK(first_step(status)["payload"]["session"]["mediaSessionId"] == "7f3a");
  CHECK(first_step(status)["payload"]["session"]["state"] == "playing");

  const Run ambiguous = cli(farm, {"media", "pause", "--app", "com.example.podcasts"});
  expect_step_failure(ambiguous, "MEDIA_SESSION_AMBIGUOUS", "not_delivered");
  CHECK(first_step(ambiguous)["payload"]["candidates"].size() == 2);
  expect_step_failure(cli(farm, {"media", "seek", "--session", "r1", "--position-ms", "5"}),
                      "MEDIA_ACTION_UNSUPPORTED", "not_delivered");
  expect_step_failure(cli(farm, {"media", "seek", "--session", "7f3a", "--position-ms", "700000"}),
                      "MEDIA_POSITION_OUT_OF_RANGE", "not_delivered");
  const Run timeout = cli(farm, {"media", "play", "--session", "s1", "--wait-timeout-ms", "600"});
  expect_step_failure(timeout, "MEDIA_POSTCONDITION_TIMEOUT", "delivered_unverified");
  CHECK(first_step(timeout)["payload"]["dispatched"] == true);
  CHECK(timeout.document["disposition"]["retry"] == "unsafe");

  // The short session's app releases it two seconds after boot.
  REQUIRE(clawperator::testing::wait_until(
      [&] {
        const Run sessions = cli(farm, {"media", "list"});
        if (sessions.exit_code != 0) return false;
        for (const json& session : first_step(sessions)["payload"]["sessions"]) {
          if (session["mediaSessionId"] == "e1") return false;
        }
        return true;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(100)));
  expect_step_failure(cli(farm, {"media", "pause", "--session", "e1"}), "MEDIA_SESSION_EXPIRED",
                      "not_delivered");
  const Run listed = cli(farm, {"media", "list"});
  REQUIRE(listed.exit_code == 0);
  CHECK(first_step(listed)["payload"]["total"] == 5);

  const Run missing = cli(farm, {"media", "seek", "--session", "7f3a"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.document["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(missing.document["details"]["path"] == "actions.0.params.positionMs");
  const Run both = cli(farm, {"media", "status", "--session", "7f3a", "--app", "x"});
  CHECK(both.exit_code == 2);
  CHECK(both.document["details"]["path"] == "actions.0.params");
  const Run unit = cli(farm, {"media", "observe", "--session", "7f3a", "--duration-ms", "12px"});
  CHECK(unit.exit_code == 2);
  CHECK(unit.document["code"] == "USAGE");
}

TEST_CASE("media: paused while the screen is off and locked, without waking it",
          "[integration][media][readiness]") {
  android::Scenario locked = scenario("notifications-media");
  locked.power.screen_on = false;
  locked.power.locked = true;
  Farm farm(Farm::Built{{locked}});
  const Run paused =
      cli(farm, {"media", "pause", "--session", "7f3a", "--wait-timeout-ms", "2000"});
  REQUIRE(paused.exit_code == 0);
  const json& payload = first_step(paused)["payload"];
  CHECK(payload["targetStateObserved"] == true);
  CHECK(payload["session"]["state"] == "paused");
  CHECK(payload["deviceState"]["screenOn"] == false);
  CHECK(payload["deviceState"]["deviceLocked"] == true);
  const std::string log = device_log(farm);
  CHECK(log.find("Waking up") == std::string::npos);
  CHECK(log.find("doctor_ping") == std::string::npos);
  CHECK(log.find("doctor-handshake") == std::string::npos);
  // An interactive action on the same phone does try to wake it.
  cli(farm, {"snapshot"});
  CHECK(device_log(farm).find("Waking up") != std::string::npos);
}

TEST_CASE("background readiness: a user not unlocked since boot", "[integration][readiness]") {
  android::Scenario fresh = scenario("notifications-media");
  fresh.power.user_unlocked = false;
  fresh.power.locked = true;
  Farm farm(Farm::Built{{fresh}});
  const Run listed = cli(farm, {"media", "list"});
  INFO(listed.document.dump(2));
  CHECK(listed.exit_code == 3);
  CHECK(listed.document["code"] == "DEVICE_USER_NOT_UNLOCKED");
  CHECK(listed.document["details"]["dispatchState"] == "not_dispatched");
  CHECK(listed.document["details"]["userState"] == "RUNNING_LOCKED");
  CHECK(listed.document["disposition"]["delivery"] == "not_delivered");
  CHECK(device_log(farm).find("Waking up") == std::string::npos);
}

TEST_CASE("the on-screen log panel: template, snapshot, TTL, clear",
          "[integration][on-screen-log]") {
  Farm farm({"notifications-media"});
  std::string every;
  for (const char* name :
       {"foreground_app.icon", "foreground_app.package_name", "foreground_app.version_code",
        "foreground_app.version_name", "device.manufacturer", "device.model",
        "system.language_code", "system.language_tag", "system.language_name"}) {
    every += std::string(name) + "={{" + name + "}};";
  }
  const Run set = cli(farm, {"on-screen-log", "set", "--template", every + " {{{{run}}}}",
                             "--anchor", "right", "--text-color", "#a1b2c3", "--ttl-ms", "1e5"});
  REQUIRE(set.exit_code == 0);
  const json& data = first_step(set)["data"];
  CHECK(data["visible"] == "true");
  CHECK(data["anchor"] == "right");
  CHECK(data["text_color"] == "#FFA1B2C3");
  CHECK(data["ttl_ms"] == "100000");
  CHECK_FALSE(data.contains("template"));
  CHECK(set.document["envelope"]["taskId"] == "cli-on-screen-log-set");

  const Run shown = cli(farm, {"snapshot"});
  REQUIRE(shown.exit_code == 0);
  const json& snap = first_step(shown)["data"];
  CHECK(snap["operator_overlay_visible"] == "true");
  const std::string xml = snap["text"];
  CHECK(xml.find("com.clawperator.operator:id/on_screen_log") != std::string::npos);
  CHECK(xml.find("device.model=Virtual Pixel;") != std::string::npos);
  CHECK(xml.find("device.manufacturer=Clawperator;") != std::string::npos);
  CHECK(xml.find("system.language_tag=en-US;") != std::string::npos);
  CHECK(xml.find("system.language_name=English;") != std::string::npos);
  CHECK(xml.find("{{run}}") != std::string::npos);

  const Run cleared = cli(farm, {"on-screen-log", "clear"});
  REQUIRE(cleared.exit_code == 0);
  CHECK(first_step(cleared)["data"] == json{{"visible", "false"}});
  CHECK_FALSE(first_step(cli(farm, {"snapshot"}))["data"].contains("operator_overlay_visible"));

  // The panel goes away by itself when its TTL runs out: the wait below is that TTL.
  // (5 s: the snapshot right after must come before it, on a busy machine too.)
  REQUIRE(cli(farm, {"on-screen-log", "set", "--text", "short", "--ttl-ms", "5000"}).exit_code ==
          0);
  CHECK(first_step(cli(farm, {"snapshot"}))["data"]["operator_overlay_visible"] == "true");
  std::this_thread::sleep_for(std::chrono::milliseconds(5100));
  CHECK_FALSE(first_step(cli(farm, {"snapshot"}))["data"].contains("operator_overlay_visible"));

  // Checked on the host before anything is sent.
  const Run bad = cli(farm, {"on-screen-log", "set", "--template", "{{device.serial}}"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.document["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(bad.document["details"]["path"] == "actions.0.params.template");
  const Run flag_on_clear = cli(farm, {"on-screen-log", "clear", "--text", "x"});
  CHECK(flag_on_clear.exit_code == 2);
  CHECK(flag_on_clear.document["code"] == "USAGE");
  const Run fraction = cli(farm, {"on-screen-log", "set", "--text", "x", "--width-dp", "1.5"});
  CHECK(fraction.exit_code == 2);
  CHECK(fraction.document["details"]["path"] == "actions.0.params.widthDp");
  // The type matches only as written.
  const RunResult exact = farm.exec(
      json::array({{{"id", "a1"}, {"type", "SET_ON_SCREEN_LOG"}, {"params", {{"text", "x"}}}}}));
  CHECK(exact.exit_code == 2);
  // Refused, pointed at the name as it must be written (docs/payload.md §6).
  CHECK(single_document(exact)["message"] ==
        "Unsupported action type 'SET_ON_SCREEN_LOG': all action types must be supported. Did "
        "you mean 'set_on_screen_log'?");
  CHECK(single_document(exact)["suggestion"] == "set_on_screen_log");
}

TEST_CASE("the on-screen log panel: a renderer failure is the envelope's errorCode",
          "[integration][on-screen-log]") {
  android::Scenario failing = scenario("notifications-media");
  failing.background.on_screen_log_failure = "ON_SCREEN_LOG_RENDER_TIMEOUT";
  Farm farm(Farm::Built{{failing}});
  const Run set = cli(farm, {"on-screen-log", "set", "--text", "run 42"});
  CHECK(set.exit_code == 1);
  CHECK(set.document["envelope"]["errorCode"] == "ON_SCREEN_LOG_RENDER_TIMEOUT");
  CHECK(set.document["envelope"]["error"] ==
        "Step a1 (set_on_screen_log) failed: ON_SCREEN_LOG_RENDER_TIMEOUT");
}

TEST_CASE("doctor --capability background-observation", "[integration][doctor][notifications]") {
  Farm farm({"notifications-media"});
  const Run ready = cli(farm, {"doctor", "--capability", "background-observation"});
  CHECK(ready.exit_code == 0);
  CHECK(ready.document["ok"] == true);
  CHECK(ready.document["capability"] == "background-observation");
  bool found = false;
  for (const json& check : ready.document["checks"]) {
    CHECK(check["id"] != "readiness.handshake");
    if (check["id"] == "readiness.background.observation") {
      found = true;
      CHECK(check["status"] == "pass");
    }
  }
  CHECK(found);
  CHECK(device_log(farm).find("doctor-handshake") == std::string::npos);

  const Run unknown = cli(farm, {"doctor", "--capability", "telepathy"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.document["code"] == "USAGE");
  CHECK(cli(farm, {"doctor", "--capability", "background-observation", "--fix"}).exit_code == 2);

  android::Scenario off = scenario("notifications-media");
  off.settings["secure"].erase("enabled_notification_listeners");
  Farm denied_farm(Farm::Built{{off}});
  const Run denied = cli(denied_farm, {"doctor", "--capability", "background-observation"});
  CHECK(denied.exit_code == 1);
  CHECK(denied.document["ok"] == false);
  const json& last = denied.document["checks"].back();
  CHECK(last["id"] == "readiness.background.observation");
  CHECK(last["code"] == "NOTIFICATION_ACCESS_DENIED");
}

TEST_CASE("scenario switches produce the listener, query, service, operation and position codes",
          "[integration][notifications][media]") {
  std::vector<android::Scenario> phones(5, scenario("notifications-media"));
  phones[0].background.listener_disconnected = true;
  phones[1].background.notification_service_unavailable = true;
  phones[2].background.query_fails = true;
  phones[3].background.operation_failure = android::OperationFailure::AfterDispatch;
  phones[4].background.media_sessions.front().seek_position_invalid = true;
  Farm farm(Farm::Built{phones});
  auto on = [&farm](std::size_t phone, std::vector<std::string> args) {
    args.insert(args.end(), {"--device", farm.serials()[phone]});
    const RunResult result = farm.clawperator(args);
    return Run{single_document(result), result.exit_code};
  };
  const Run disconnected = on(0, {"notifications", "list"});
  expect_step_failure(disconnected, "NOTIFICATION_LISTENER_DISCONNECTED", "delivered_verified");
  expect_step_failure(on(0, {"media", "pause", "--session", "7f3a"}),
                      "NOTIFICATION_LISTENER_DISCONNECTED", "not_delivered");
  expect_step_failure(on(1, {"media", "list"}), "NOTIFICATION_SERVICE_UNAVAILABLE",
                      "delivered_verified");
  const Run query_failed = on(2, {"notifications", "list"});
  expect_step_failure(query_failed, "NOTIFICATION_QUERY_FAILED", "delivered_verified");
  CHECK(query_failed.document["disposition"]["retry"] == "safe");
  // Sent, then failed: the disposition must not invite a blind retry.
  const Run operation = on(3, {"media", "pause", "--session", "7f3a"});
  expect_step_failure(operation, "NOTIFICATION_MEDIA_OPERATION_FAILED", "delivered_unverified");
  CHECK(first_step(operation)["payload"]["dispatched"] == true);
  CHECK(operation.document["disposition"]["retry"] == "unsafe");
  const Run position = on(4, {"media", "seek", "--session", "7f3a", "--position-ms", "5000"});
  expect_step_failure(position, "MEDIA_POSITION_INVALID", "not_delivered");
  CHECK(first_step(position)["payload"]["dispatched"] == false);
  CHECK(position.document["disposition"]["retry"] == "safe");
}

TEST_CASE("the on-screen log panel: truncated and layout refusals through the real adb",
          "[integration][on-screen-log]") {
  Farm farm({"notifications-media"});
  std::string lines;
  for (int i = 0; i < 80; ++i) lines += "step " + std::to_string(i) + "\n";
  const Run cut = cli(farm, {"on-screen-log", "set", "--text", lines + "done"});
  REQUIRE(cut.exit_code == 0);
  CHECK(first_step(cut)["data"]["rendered"] == "true");
  CHECK(first_step(cut)["data"]["truncated"] == "true");
  const Run fits = cli(farm, {"on-screen-log", "set", "--text", "run 42"});
  CHECK(first_step(fits)["data"]["truncated"] == "false");
  // 600 dp are 1575 px at 420 dpi: wider than the 1080 px display.
  const Run wide = cli(farm, {"on-screen-log", "set", "--text", "x", "--width-dp", "600"});
  CHECK(wide.exit_code == 1);
  CHECK(wide.document["envelope"]["errorCode"] == "ON_SCREEN_LOG_LAYOUT_INVALID");
  CHECK(first_step(wide)["data"]["error"] == "ON_SCREEN_LOG_LAYOUT_INVALID");
}
