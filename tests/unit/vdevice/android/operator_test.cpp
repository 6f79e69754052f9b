#include <catch2/catch.hpp>
#include <fstream>
#include <stdexcept>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/envelope.hpp"
#include "test_locations.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const transport::StepResult& step(const transport::Envelope& envelope, const std::string& id) {
  for (const auto& candidate : envelope.steps) {
    if (candidate.id == id) return candidate;
  }
  FAIL("no step " << id);
  throw std::logic_error("unreachable");
}

Json matcher(const char* key, const char* value) {
  return Json{{key, value}};
}

// Runs a payload through broadcast and logcat; returns the parsed envelope.
transport::Envelope run(Harness& harness, const std::string& id, const Json& actions,
                        int timeout_ms = 30000) {
  ResultCapture capture(harness, id, id);
  const auto broadcast = harness.broadcast(payload(id, actions, timeout_ms));
  REQUIRE(broadcast.status == 0);
  const auto& result = capture.complete();
  // The line the CLI parses is the envelope, key for key.
  const auto reparsed = transport::parse_envelope(
      std::string_view(result.canonical_line).substr(transport::kResultPrefix.size()));
  REQUIRE(reparsed);
  CHECK(dump_json(transport::to_json(*reparsed)) ==
        result.canonical_line.substr(transport::kResultPrefix.size()));
  return result.envelope;
}

}  // namespace

TEST_CASE("a payload with every action type runs against the default scenario",
          "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.operator_behavior.close_app_supported = true;
  Harness harness(scenario);
  const Json actions = Json::array({
      action("ping", "doctor_ping"),
      action("open", "open_app", Json{{"applicationId", "com.android.settings"}}),
      action("wait", "wait_for_node",
             Json{{"matcher", matcher("textEquals", "Network & internet")}}),
      action("title", "read_text",
             Json{{"matcher", matcher("resourceId", "com.android.settings:id/homepage_title")}}),
      action("down", "scroll", Json{{"direction", "down"}}),
      action("until", "scroll_until", Json{{"matcher", matcher("textEquals", "About phone")}}),
      action("about", "scroll_and_click", Json{{"matcher", matcher("textEquals", "About phone")}}),
      action("model", "read_key_value_pair",
             Json{{"labelMatcher", matcher("textEquals", "Model")}}),
      action("snap", "snapshot_ui"),
      action("back", "press_key", Json{{"key", "back"}}),
      action("network", "scroll_and_click",
             Json{{"matcher", matcher("textEquals", "Network & internet")}, {"direction", "up"}}),
      action("nav", "wait_for_navigation",
             Json{{"expectedPackage", "com.android.settings"},
                  {"expectedNode", matcher("resourceId", "android:id/search_src_text")},
                  {"timeoutMs", 2000}}),
      action("type", "enter_text",
             Json{{"matcher", matcher("resourceId", "android:id/search_src_text")},
                  {"text", "wi-fi 'home' $HOME `x` \xe2\x98\x95"}}),
      action("airplane", "tap", Json{{"matcher", matcher("textEquals", "Airplane mode")}}),
      action("shot", "take_screenshot"),
      action("nap", "sleep", Json{{"durationMs", 250}}),
      action("rec", "start_recording", Json{{"sessionId", "rec-1"}}),
      action("unrec", "stop_recording", Json{{"sessionId", "rec-1"}}),
      action("web", "open_uri", Json{{"uri", "https://example.com/page"}}),
      action("url", "read_text",
             Json{{"matcher", matcher("resourceId", "com.android.chrome:id/url_bar")}}),
      action("home", "press_key", Json{{"key", "HOME"}}),
      action("close", "close_app", Json{{"applicationId", "com.android.chrome"}}),
      action("snap2", "snapshot"),
  });
  const transport::Envelope envelope = run(harness, "all-actions", actions, 60000);
  INFO(dump_json(transport::to_json(envelope)));
  CHECK(envelope.status == "success");
  CHECK_FALSE(envelope.error);
  REQUIRE(envelope.steps.size() == actions.size());
  for (const auto& result : envelope.steps) {
    INFO(result.id);
    CHECK(result.success);
  }
  CHECK(data(step(envelope, "ping"), "screen_on") == "true");
  CHECK(step(envelope, "open").actionType == "open_app");
  CHECK(data(step(envelope, "open"), "application_id") == "com.android.settings");
  CHECK(data(step(envelope, "wait"), "text") == "Network & internet");
  CHECK(data(step(envelope, "title"), "text") == "Settings");
  CHECK(data(step(envelope, "down"), "scrolled") == "true");
  CHECK(data(step(envelope, "until"), "termination_reason") == "TARGET_FOUND");
  CHECK(data(step(envelope, "model"), "label") == "Model");
  CHECK(data(step(envelope, "model"), "value") == "Virtual Pixel");
  const auto& snap = step(envelope, "snap");
  CHECK(snap.actionType == "snapshot");
  const std::string xml = data(snap, "text");
  CHECK(xml.rfind("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy "
                  "rotation=\"0\"><node index=\"0\" text=\"\" resource-id=\"\" "
                  "class=\"android.widget.FrameLayout\" package=\"com.android.settings\"",
                  0) == 0);
  CHECK(xml.find("text=\"About phone\"") != std::string::npos);
  CHECK(xml.find("text=\"Virtual Pixel\"") != std::string::npos);
  CHECK(xml.substr(xml.size() - 19) == "</node></hierarchy>");
  CHECK(data(step(envelope, "type"), "text") == "wi-fi 'home' $HOME `x` \xe2\x98\x95");
  CHECK(step(envelope, "airplane").actionType == "click");
  CHECK(step(envelope, "airplane").data.empty());
  CHECK(data(step(envelope, "nap"), "duration_ms") == "250");
  CHECK(data(step(envelope, "rec"), "sessionId") == "rec-1");
  CHECK(data(step(envelope, "rec"), "filePath") ==
        "/sdcard/Android/data/com.clawperator.operator/files/recordings/rec-1.ndjson");
  CHECK(data(step(envelope, "web"), "application_id") == "com.android.chrome");
  CHECK(data(step(envelope, "url"), "text") == "https://example.com/page");
  CHECK(data(step(envelope, "close"), "application_id") == "com.android.chrome");
  CHECK(data(step(envelope, "snap2"), "text").find("com.android.launcher3") != std::string::npos);
}

TEST_CASE("steps take realistic time: sleep waits, wait_for_node polls", "[vdevice][android]") {
  Harness harness;
  ResultCapture capture(harness, "slow", "slow");
  const auto sent_at = harness.now;
  harness.broadcast(
      payload("slow", Json::array({action("nap", "sleep", Json{{"durationMs", 1500}})})));
  harness.advance(milliseconds(1400));
  capture.pump();
  CHECK_FALSE(capture.decoder().settled());
  capture.complete();
  const auto elapsed = std::chrono::duration_cast<milliseconds>(harness.now - sent_at).count();
  CHECK(elapsed >= 1500);
  CHECK(elapsed < 1700);

  const auto timeout = run(
      harness, "waiting",
      Json::array({action("w", "wait_for_node",
                          Json{{"matcher", matcher("textEquals", "Nope")}, {"timeoutMs", 500}})}));
  CHECK(timeout.status == "failed");
  CHECK(data(timeout.steps.at(0), "error") == "WAIT_TIMEOUT");
  CHECK(*timeout.error == "Step w (wait_for_node) failed: WAIT_TIMEOUT");
}

TEST_CASE("a node that appears later is found by wait_for_node (sign-in flow)",
          "[vdevice][android]") {
  Harness harness;
  const Json to_sign_in = Json::array({
      action("open", "open_app", Json{{"applicationId", "com.android.settings"}}),
      action("accounts", "scroll_and_click",
             Json{{"matcher", matcher("textEquals", "Passwords & accounts")}}),
      action("add", "click", Json{{"matcher", matcher("textEquals", "Add account")}}),
      action("empty", "click",
             Json{{"matcher", matcher("resourceId", "com.android.settings:id/sign_in")}}),
      action("error", "read_text",
             Json{{"matcher", matcher("resourceId", "com.android.settings:id/error")}}),
      action("user", "enter_text",
             Json{{"matcher", matcher("resourceId", "com.android.settings:id/username")},
                  {"text", "ada"}}),
      action("pass", "enter_text",
             Json{{"matcher", matcher("contentDescEquals", "Password")}, {"text", "s3cret"}}),
      action("snap", "snapshot"),
      action("go", "click", Json{{"matcher", Json{{"role", "button"}, {"textEquals", "Sign in"}}}}),
      action("done", "wait_for_node",
             Json{{"matcher", matcher("textEquals", "Account added")}, {"timeoutMs", 3000}}),
  });
  const auto envelope = run(harness, "sign-in", to_sign_in);
  INFO(dump_json(transport::to_json(envelope)));
  CHECK(envelope.status == "success");
  CHECK(data(step(envelope, "error"), "text") == "Enter your username and password");
  // Password text is masked in what accessibility reports.
  CHECK(data(step(envelope, "snap"), "text")
            .find("text=\"\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2"
                  "\xe2\x80\xa2\xe2\x80\xa2\xe2\x80\xa2\"") != std::string::npos);
  CHECK(data(step(envelope, "snap"), "text").find("s3cret") == std::string::npos);
}

TEST_CASE("a failed step stops the command with the Operator's codes", "[vdevice][android]") {
  Harness harness;
  run(harness, "setup",
      Json::array({action("open", "open_app", Json{{"applicationId", "com.android.settings"}})}));

  auto missing =
      run(harness, "missing",
          Json::array({action("a", "click", Json{{"matcher", matcher("textEquals", "Nope")}}),
                       action("b", "press_key", Json{{"key", "home"}})}));
  CHECK(missing.status == "failed");
  REQUIRE(missing.steps.size() == 1);
  CHECK(data(missing.steps[0], "error") == "NODE_NOT_FOUND");
  CHECK(data(missing.steps[0], "message").find("No matching node found") != std::string::npos);
  CHECK(*missing.error == "Step a (click) failed: NODE_NOT_FOUND");

  auto ambiguous =
      run(harness, "ambiguous",
          Json::array({action(
              "r", "read_text",
              Json{{"matcher", matcher("resourceId", "android:id/summary")}, {"strict", true}})}));
  CHECK(data(ambiguous.steps.at(0), "error") == "NODE_AMBIGUOUS");
  CHECK(data(ambiguous.steps.at(0), "candidate_count") == "8");
  const Json candidates = Json::parse(data(ambiguous.steps.at(0), "candidates"));
  CHECK(candidates.size() == 8);
  CHECK(candidates[0]["label"] == "Mobile, Wi\u2011Fi, hotspot");
  CHECK(candidates[0]["resourceId"] == "android:id/summary");

  auto not_clickable = run(
      harness, "inert",
      Json::array({action("c", "click", Json{{"matcher", matcher("textEquals", "Settings")}})}));
  CHECK(data(not_clickable.steps.at(0), "error") == "NODE_NOT_CLICKABLE");

  auto not_scrollable = run(
      harness, "stiff",
      Json::array({action("s", "scroll", Json{{"container", matcher("textEquals", "Settings")}})}));
  CHECK(data(not_scrollable.steps.at(0), "error") == "CONTAINER_NOT_SCROLLABLE");

  auto no_container = run(harness, "nocontainer",
                          Json::array({action("h", "press_key", Json{{"key", "home"}}),
                                       action("s", "scroll", Json{{"direction", "down"}})}));
  CHECK(data(no_container.steps.at(1), "error") == "CONTAINER_NOT_FOUND");

  auto unknown = run(harness, "unknown", Json::array({action("x", "fly")}));
  CHECK(data(unknown.steps.at(0), "error") == "EXECUTION_ACTION_UNSUPPORTED");
}

TEST_CASE("close_app reports what the Operator cannot do, and goes on", "[vdevice][android]") {
  Harness harness;
  auto envelope =
      run(harness, "close",
          Json::array({action("c", "close_app", Json{{"applicationId", "com.android.settings"}}),
                       action("o", "open_app", Json{{"applicationId", "com.android.settings"}})}));
  REQUIRE(envelope.steps.size() == 2);
  CHECK_FALSE(envelope.steps[0].success);
  CHECK(data(envelope.steps[0], "error") == "UNSUPPORTED_RUNTIME_CLOSE");
  CHECK(envelope.steps[1].success);
  CHECK(*envelope.error == "Step c (close_app) failed: UNSUPPORTED_RUNTIME_CLOSE");
}

TEST_CASE("doctor_ping reports the power and lock state", "[vdevice][android]") {
  const Json ping = Json::array({action("h1", "doctor_ping")});
  {
    Harness harness;
    const auto envelope = run(harness, "doctor-handshake-1", ping);
    REQUIRE(envelope.steps.size() == 1);
    CHECK(data(envelope.steps[0], "screen_on") == "true");
    CHECK(data(envelope.steps[0], "device_locked") == "false");
    CHECK(data(envelope.steps[0], "user_unlocked") == "true");
    CHECK(data(envelope.steps[0], "operator_version") == "0.5.3");
  }
  {
    Scenario scenario = quiet_scenario();
    scenario.power.screen_on = false;
    scenario.power.locked = true;
    scenario.power.user_unlocked = false;
    Harness harness(scenario);
    auto envelope = run(harness, "doctor-handshake-2", ping);
    CHECK(data(envelope.steps[0], "screen_on") == "false");
    CHECK(data(envelope.steps[0], "device_locked") == "true");
    CHECK(data(envelope.steps[0], "user_unlocked") == "false");
    // Waking turns the screen on; the keyguard stays until unlocked.
    harness.shell("cmd power wakeup");
    envelope = run(harness, "doctor-handshake-3", ping);
    CHECK(data(envelope.steps[0], "screen_on") == "true");
    CHECK(data(envelope.steps[0], "device_locked") == "true");
    CHECK(harness.shell("am get-started-user-state 0").out == "RUNNING_LOCKED\n");
  }
}

TEST_CASE("without the accessibility service every command fails SERVICE_UNAVAILABLE",
          "[vdevice][android]") {
  auto scenario =
      load_scenario(R"({"accessibilityService": false, "logcat": {"noiseLinesPerSecond": 0}})");
  REQUIRE(scenario);
  Harness harness(*scenario);
  const auto envelope = run(harness, "svc", Json::array({action("h1", "doctor_ping")}));
  CHECK(envelope.status == "failed");
  CHECK(envelope.steps.empty());
  CHECK(envelope.errorCode == std::optional<std::string>("SERVICE_UNAVAILABLE"));
  CHECK(envelope.error == std::optional<std::string>("Accessibility service is not available"));
  // Granting it (as `operator setup` does) brings it up.
  harness.shell(
      "settings put secure enabled_accessibility_services "
      "com.clawperator.operator/clawperator.operator.accessibilityservice."
      "OperatorAccessibilityService");
  harness.shell("settings put secure accessibility_enabled 1");
  CHECK(run(harness, "svc2", Json::array({action("h1", "doctor_ping")})).status == "success");
}

TEST_CASE("a large snapshot arrives in chunks the CLI reassembles exactly", "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.logcat.noise_lines_per_second = 50;  // interleaved with the records
  scenario.faults.pad_snapshot_bytes = 5u << 20;
  Harness harness(scenario);
  ResultCapture capture(harness, "big", "big");
  harness.broadcast(payload("big", Json::array({action("snap", "snapshot")})));
  const auto& result = capture.complete(milliseconds(60000));
  CHECK(result.chunked);
  REQUIRE(result.envelope.steps.size() == 1);
  const std::string xml = data(result.envelope.steps[0], "text");
  CHECK(xml.size() >= (5u << 20));
  CHECK(xml.substr(xml.size() - 12) == "</hierarchy>");
  CHECK(dump_json(transport::to_json(result.envelope)) ==
        result.canonical_line.substr(transport::kResultPrefix.size()));
}

TEST_CASE("results reach every logcat format the CLI reads", "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.operator_behavior.chunk_threshold_bytes = 100;  // a short result, chunked
  for (const char* format : {"time", "threadtime", "brief"}) {
    INFO(format);
    Harness harness(scenario);
    ResultCapture capture(harness, "fmt", "fmt", format);
    harness.broadcast(payload("fmt", Json::array({action("snap", "snapshot")})));
    const auto& result = capture.complete();
    CHECK(result.chunked);
    CHECK(result.envelope.status == "success");
  }
}

TEST_CASE("a malformed payload gets the failure a real Operator gives", "[vdevice][android]") {
  Harness harness;
  ResultCapture capture(harness, "bad", "bad");
  harness.broadcast(R"({"commandId":"bad","taskId":"bad","actions":"nope"})");
  const auto& result = capture.complete();
  CHECK(result.envelope.status == "failed");
  CHECK(result.envelope.errorCode == std::optional<std::string>("EXECUTION_VALIDATION_FAILED"));
  // Not JSON at all: logged and ignored.
  const auto sent = harness.broadcast("not json {");
  CHECK(sent.status == 0);
  harness.advance(milliseconds(200));
  CHECK(harness.shell("logcat -d -s TaskScopeDefault:E").out.find("not a JSON object") !=
        std::string::npos);
}

TEST_CASE("commands queue and the payload timeout bounds them", "[vdevice][android]") {
  Harness harness;
  ResultCapture first(harness, "q1", "q1");
  ResultCapture second(harness, "q2", "q2");
  harness.broadcast(payload("q1", Json::array({action("s", "sleep", Json{{"durationMs", 800}})})));
  harness.broadcast(
      payload("q2", Json::array({action("s", "sleep", Json{{"durationMs", 5000}})}), 1000));
  CHECK(first.complete().envelope.status == "success");
  const auto& timed_out = second.complete().envelope;
  CHECK(timed_out.status == "failed");
  CHECK(timed_out.errorCode == std::optional<std::string>("COMMAND_TIMEOUT"));
}

TEST_CASE("the repository's example payloads run on the default scenario", "[vdevice][android]") {
  for (const char* name : {"login.json", "snapshot.json"}) {
    INFO(name);
    std::ifstream file(std::string(CLAWPERATOR_SOURCE_DIR) + "/examples/" + name);
    REQUIRE(file);
    const Json document = Json::parse(file);
    // The host force-stops the apps a payload closes; here the Operator does it.
    Scenario scenario = quiet_scenario();
    scenario.operator_behavior.close_app_supported = true;
    Harness harness(scenario);
    ResultCapture capture(harness, document["commandId"], document["taskId"]);
    harness.broadcast(dump_json(document));
    const auto& envelope = capture.complete(milliseconds(60000)).envelope;
    INFO(dump_json(transport::to_json(envelope)));
    CHECK(envelope.status == "success");
    CHECK(envelope.steps.size() == document["actions"].size());
  }
}

TEST_CASE("a custom app on the minimal base (examples/scenarios/shop-app.json)",
          "[vdevice][android]") {
  auto scenario =
      load_scenario_file(std::string(CLAWPERATOR_SOURCE_DIR) + "/examples/scenarios/shop-app.json");
  REQUIRE(scenario);
  scenario->logcat.noise_lines_per_second = 0;
  Harness harness(*scenario);
  CHECK(harness.shell("pm list packages -3").out ==
        "package:com.clawperator.operator\npackage:com.example.shop\n");
  const auto envelope =
      run(harness, "shop",
          Json::array({
              action("open", "open_app", Json{{"applicationId", "com.example.shop"}}),
              action("empty", "click", Json{{"matcher", matcher("textEquals", "Log in")}}),
              action("error", "read_text",
                     Json{{"matcher", matcher("resourceId", "com.example.shop:id/error")}}),
              action("again", "click", Json{{"matcher", matcher("textEquals", "Try again")}}),
              action("email", "enter_text",
                     Json{{"matcher", matcher("contentDescEquals", "Email")}, {"text", "a@b.c"}}),
              action("password", "enter_text",
                     Json{{"matcher", matcher("contentDescEquals", "Password")},
                          {"text", "pw"},
                          {"submit", true}}),
              action("list", "scroll_until",
                     Json{{"matcher", matcher("textEquals", "Gift card")}, {"clickAfter", true}}),
              action("cart", "wait_for_node",
                     Json{{"matcher", matcher("resourceId", "com.example.shop:id/add_to_cart")}}),
              action("price", "read_key_value_pair",
                     Json{{"labelMatcher", matcher("textEquals", "Price")}}),
              action("up", "click", Json{{"matcher", matcher("contentDescEquals", "Navigate up")}}),
              action("link", "open_uri", Json{{"uri", "shop://products"}}),
          }));
  INFO(dump_json(transport::to_json(envelope)));
  CHECK(envelope.status == "success");
  CHECK(data(step(envelope, "error"), "text") == "Email and password are required");
  CHECK(data(step(envelope, "list"), "scrolls") == "2");
  CHECK(data(step(envelope, "price"), "value") == "see list");
  CHECK(data(step(envelope, "link"), "application_id") == "com.example.shop");
  CHECK(harness.shell("getprop ro.product.model").out == "Shop Test Phone\n");
}
