// The simulated notification listener, media sessions and on-screen log panel under the
// scenario's switches (docs/vdevice-scenarios.md "backgroundServices"): every failure of
// docs/payload.md §8 can be produced, and the panel's rendered/truncated are what happened.
#include <catch2/catch.hpp>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/envelope.hpp"
#include "vdevice/android/operator/unicode_text.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const std::string kChat = "0|com.example.chat|7|null|10123";

Scenario notifications_media() {
  return quiet_example_scenario("notifications-media");
}

transport::StepResult run_one(Harness& harness, const std::string& id, const std::string& type,
                              Json params = nullptr) {
  ResultCapture capture(harness, id, id);
  REQUIRE(
      harness.broadcast(payload(id, Json::array({action("a", type, std::move(params))}))).status ==
      0);
  const auto& envelope = capture.complete().envelope;
  REQUIRE(envelope.steps.size() == 1);
  return envelope.steps.front();
}

// The failed step's code and its payload's `dispatched`.
void expect_failure(const transport::StepResult& step, const std::string& code, bool dispatched) {
  CAPTURE(code);
  CHECK_FALSE(step.success);
  CHECK(data(step, "error") == code);
  const Json payload = Json::parse(data(step, "payload"));
  CHECK(payload["schemaVersion"] == 1);
  CHECK(payload["dispatched"] == dispatched);
}

const Json kPause = Json{{"mediaSessionId", "7f3a"}};

}  // namespace

TEST_CASE("the listener disconnected, the service unavailable: every action fails before it sends",
          "[vdevice][android][background]") {
  const std::pair<void (*)(BackgroundScenario&), const char*> switches[] = {
      {[](BackgroundScenario& b) { b.listener_disconnected = true; },
       "NOTIFICATION_LISTENER_DISCONNECTED"},
      {[](BackgroundScenario& b) { b.notification_service_unavailable = true; },
       "NOTIFICATION_SERVICE_UNAVAILABLE"},
  };
  for (const auto& [set, code] : switches) {
    Scenario scenario = notifications_media();
    set(scenario.background);
    Harness harness(scenario);
    expect_failure(run_one(harness, "l", "list_notifications"), code, false);
    expect_failure(run_one(harness, "m", "list_media_sessions"), code, false);
    expect_failure(run_one(harness, "p", "media_pause", kPause), code, false);
    expect_failure(run_one(harness, "d", "dismiss_notification", Json{{"notificationKey", kChat}}),
                   code, false);
  }
}

TEST_CASE("queryFails: reads fail with NOTIFICATION_QUERY_FAILED, mutations still work",
          "[vdevice][android][background]") {
  Scenario scenario = notifications_media();
  scenario.background.query_fails = true;
  Harness harness(scenario);
  expect_failure(run_one(harness, "l", "list_notifications"), "NOTIFICATION_QUERY_FAILED", false);
  expect_failure(run_one(harness, "s", "get_media_status", kPause), "NOTIFICATION_QUERY_FAILED",
                 false);
  CHECK(run_one(harness, "p", "media_pause", kPause).success);
}

TEST_CASE("operationFailure: NOTIFICATION_MEDIA_OPERATION_FAILED before or after sending",
          "[vdevice][android][background]") {
  for (const auto& [failure, sent] : {std::pair{OperationFailure::BeforeDispatch, false},
                                      std::pair{OperationFailure::AfterDispatch, true}}) {
    CAPTURE(sent);
    Scenario scenario = notifications_media();
    scenario.background.operation_failure = failure;
    Harness harness(scenario);
    expect_failure(run_one(harness, "p", "media_pause", kPause),
                   "NOTIFICATION_MEDIA_OPERATION_FAILED", sent);
    expect_failure(run_one(harness, "a", "invoke_notification_action",
                           Json{{"notificationKey", kChat}, {"actionId", "mark_read"}}),
                   "NOTIFICATION_MEDIA_OPERATION_FAILED", sent);
    expect_failure(run_one(harness, "d", "dismiss_notification", Json{{"notificationKey", kChat}}),
                   "NOTIFICATION_MEDIA_OPERATION_FAILED", sent);
    // What was sent took effect: the pause reached the player.
    harness.advance(milliseconds(500));
    const Json status =
        Json::parse(data(run_one(harness, "s", "get_media_status", kPause), "payload"));
    CHECK(status["session"]["state"] == (sent ? "paused" : "playing"));
    // Reads are not mutations.
    CHECK(run_one(harness, "l", "list_notifications").success);
  }
}

TEST_CASE("seekPositionInvalid: the player refuses the position, nothing is sent",
          "[vdevice][android][background]") {
  Scenario scenario = notifications_media();
  scenario.background.media_sessions.front().seek_position_invalid = true;
  Harness harness(scenario);
  const auto step =
      run_one(harness, "s", "media_seek", Json{{"mediaSessionId", "7f3a"}, {"positionMs", 5000}});
  expect_failure(step, "MEDIA_POSITION_INVALID", false);
  CHECK(Json::parse(data(step, "payload"))["session"]["mediaSessionId"] == "7f3a");
  CHECK(run_one(harness, "p", "media_pause", kPause).success);
}

TEST_CASE("the panel: rendered and truncated say what was drawn", "[vdevice][android][panel]") {
  SECTION("all of it fits") {
    Harness harness(notifications_media());
    const auto step = run_one(harness, "s", "set_on_screen_log", Json{{"text", "one\ntwo"}});
    CHECK(step.success);
    CHECK(data(step, "rendered") == "true");
    CHECK(data(step, "truncated") == "false");
  }
  SECTION("more lines than the display holds below the offset: cut to whole lines") {
    Harness harness(notifications_media());
    std::string lines;
    for (int i = 0; i < 100; ++i) lines += "line " + std::to_string(i) + "\n";
    lines += "last";
    // 12 sp at 420 dpi: 44 px a line; 2400 - 21 (top) - 21 (padding) px hold 53 lines.
    const auto step = run_one(harness, "s", "set_on_screen_log", Json{{"text", lines}});
    CHECK(step.success);
    CHECK(data(step, "truncated") == "true");
    CHECK(data(step, "bounds") == "[21,21][756,2374]");
    const auto snap = run_one(harness, "snap", "snapshot");
    const std::string xml = data(snap, "text");
    CHECK(xml.find("line 52") != std::string::npos);
    CHECK(xml.find("line 53") == std::string::npos);
  }
  SECTION("not even one line fits: ON_SCREEN_LOG_LAYOUT_INVALID") {
    Harness harness(notifications_media());
    const auto low = run_one(harness, "s", "set_on_screen_log",
                             Json{{"text", "x"}, {"topOffsetDp", 900}, {"fontSizeSp", 24}});
    CHECK(data(low, "error") == "ON_SCREEN_LOG_LAYOUT_INVALID");
    const auto wide =
        run_one(harness, "w", "set_on_screen_log", Json{{"text", "x"}, {"widthDp", 600}});
    CHECK(data(wide, "error") == "ON_SCREEN_LOG_LAYOUT_INVALID");
    CHECK(run_one(harness, "snap", "snapshot").data_value("operator_overlay_visible") == nullptr);
  }
  SECTION("the screen is off: the draw is never acknowledged") {
    Scenario scenario = notifications_media();
    scenario.power.screen_on = false;
    Harness harness(scenario);
    const auto step = run_one(harness, "s", "set_on_screen_log", Json{{"text", "x"}});
    CHECK(data(step, "error") == "ON_SCREEN_LOG_RENDER_TIMEOUT");
  }
}

TEST_CASE("template expansion is bounded as the Operator bounds it", "[vdevice][android][panel]") {
  Scenario scenario = notifications_media();
  // A model name of 300 characters with a tab and a line break in it.
  std::string model = "Model\tOne\n";
  while (model.size() < 300) model += "x";
  scenario.properties["ro.product.model"] = model;
  SECTION("a value is cut at 256 units, its control characters made spaces") {
    Harness harness(scenario);
    const auto step =
        run_one(harness, "s", "set_on_screen_log", Json{{"template", "[{{device.model}}]"}});
    CHECK(step.success);
    CHECK(data(step, "truncated") == "true");
    const std::string xml = data(run_one(harness, "snap", "snapshot"), "text");
    const std::string expected = "[Model One " + std::string(245, 'x') + "\xe2\x80\xa6]";
    CHECK(xml.find("text=\"" + expected + "\"") != std::string::npos);
  }
  SECTION("the whole text is cut at 8192 units") {
    Harness harness(scenario);
    std::string many;
    for (int i = 0; i < 40; ++i) many += "{{device.model}}";
    const auto step = run_one(harness, "s", "set_on_screen_log", Json{{"template", many}});
    CHECK(data(step, "truncated") == "true");
    const std::string xml = data(run_one(harness, "snap", "snapshot"), "text");
    const auto start = xml.find("text=\"Model One");
    REQUIRE(start != std::string::npos);
    const std::string shown = xml.substr(start + 6, xml.find('"', start + 6) - start - 6);
    CHECK(utf16_length(shown) == 8192);
    CHECK(shown.substr(shown.size() - 3) == "\xe2\x80\xa6");
  }
  SECTION("a short template is neither cut nor marked") {
    Harness harness(notifications_media());
    const auto step =
        run_one(harness, "s", "set_on_screen_log", Json{{"template", "{{device.model}}"}});
    CHECK(data(step, "truncated") == "false");
  }
}
