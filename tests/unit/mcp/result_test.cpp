#include "clawperator/mcp/result.hpp"

#include <catch2/catch.hpp>

#include "clawperator/image/png_scale.hpp"
#include "clawperator/transport/base64.hpp"
#include "vdevice/android/formats/png.hpp"

using namespace clawperator;
using namespace clawperator::mcp;

TEST_CASE("redaction drops local paths and adb's raw output, never codes or ids", "[mcp][result]") {
  const Json document = Json::parse(R"({
    "ok": false, "code": "RESULT_TRANSPORT_EXITED", "message": "m",
    "details": {"commandId": "c1", "taskId": "t1", "deviceId": "d", "phase": "dispatch",
                "dispatchState": "unknown", "stderr": "secret", "stdout": "x", "adbPath": "/opt/adb",
                "lockPath": "/home/u/.clawperator/lock", "logPath": "/l", "command": "am broadcast",
                "stack": "s", "exitCode": 1, "reader": [{"PATH": "/x", "event": "e"}]},
    "envelope": {"stepResults": [{"id": "shot", "data": {"path": "/tmp/shot.png", "nodePath": "0.1"}}]},
    "disposition": {"delivery": "delivery_uncertain", "retry": "unsafe"}})");
  const Json redacted = redact(document);
  CHECK(redacted["code"] == "RESULT_TRANSPORT_EXITED");
  CHECK(redacted["details"] == Json::parse(R"({"commandId": "c1", "taskId": "t1", "deviceId": "d",
      "phase": "dispatch", "dispatchState": "unknown", "exitCode": 1, "reader": [{"event": "e"}]})"));
  // A node's place in the hierarchy is no host path: it stays.
  CHECK(redacted["envelope"]["stepResults"][0]["data"] == Json::parse(R"({"nodePath": "0.1"})"));
  CHECK(redacted["disposition"] == document["disposition"]);
}

TEST_CASE("redaction keeps a relative path: a validation error's field, a bundle's file",
          "[mcp][result]") {
  const Json document = Json::parse(R"({
    "ok": false, "code": "EXECUTION_VALIDATION_FAILED",
    "details": {"path": "actions.0.params.text", "issues": [{"path": "timeoutMs"}],
                "policyPath": "~/.config/clawperator/policy.json", "argvPath": ["/usr/bin/x"],
                "skillPath": "skills/com.example.x", "nullPath": null}})");
  const Json redacted = redact(document);
  CHECK(redacted["details"] == Json::parse(R"({"path": "actions.0.params.text",
      "issues": [{"path": "timeoutMs"}], "skillPath": "skills/com.example.x", "nullPath": null})"));
}

TEST_CASE("a success is text content plus structuredContent where the version has it",
          "[mcp][result]") {
  const Json document = Json::parse(
      R"({"ok":true,"deviceId":"d","disposition":{"delivery":"delivered_verified","retry":"safe"}})");
  const Json newest = tool_result(document, "2025-11-25");
  CHECK(newest["structuredContent"] == document);
  CHECK(newest["content"][0]["type"] == "text");
  CHECK(Json::parse(newest["content"][0]["text"].get<std::string>()) == document);
  CHECK_FALSE(newest.contains("isError"));
  const Json old = tool_result(document, "2025-03-26");
  CHECK_FALSE(old.contains("structuredContent"));
  CHECK(Json::parse(old["content"][0]["text"].get<std::string>()) == document);
}

TEST_CASE("an ok:false document is an error result with the contract's fields", "[mcp][result]") {
  const Json host_failure = Json::parse(R"({"ok":false,"code":"DEVICE_NOT_FOUND","message":"m",
      "hint":"h","details":{"phase":"readiness","dispatchState":"not_dispatched"},
      "disposition":{"delivery":"not_delivered","retry":"safe"},
      "recovery":{"strategy":"select_device_then_retry_original","retryable":true}})");
  const Json result = tool_result(host_failure, "2025-06-18");
  CHECK(result["isError"] == true);
  CHECK(result["structuredContent"] == host_failure);

  // A failed step: the outcome the pipeline prints, with where it failed added.
  const Json step_failure = Json::parse(R"({"ok":false,"code":"NODE_NOT_FOUND",
      "failedStep":{"id":"a1","actionType":"click","index":0},"message":"No matching node",
      "hint":"h","envelope":{"status":"failed",
      "error":"Step a1 (click) failed: NODE_NOT_FOUND","stepResults":[{"id":"a1","actionType":"click",
      "success":false,"data":{"error":"NODE_NOT_FOUND","message":"No matching node"}}]},
      "deviceId":"d","disposition":{"delivery":"not_delivered","retry":"safe"}})");
  const Json lifted = tool_result(step_failure, "2025-11-25")["structuredContent"];
  CHECK(lifted["ok"] == false);
  CHECK(lifted["code"] == "NODE_NOT_FOUND");
  CHECK(lifted["message"] == "No matching node");
  CHECK(lifted["details"]["phase"] == "result_wait");
  CHECK(lifted["details"]["dispatchState"] == "dispatched");
  CHECK(lifted["disposition"] == step_failure["disposition"]);
  CHECK(lifted["envelope"] == step_failure["envelope"]);
  CHECK(lifted.size() == step_failure.size() + 1);
  // Anything but a failed outcome is left as it is.
  const Json success = Json::parse(R"({"ok":true,"envelope":{"status":"success"}})");
  CHECK(with_failure_summary(success) == success);
}

TEST_CASE("maxChars cuts the snapshot text on a character boundary", "[mcp][result]") {
  Json document = Json::parse(
      R"({"ok":true,"envelope":{"stepResults":[{"id":"snap","data":{"text":"ab\u00e9cd"}}]}})");
  truncate_snapshot(document, 3);
  CHECK(document["envelope"]["stepResults"][0]["data"]["text"] == "ab");
  CHECK(document["truncated"] == true);
  Json small =
      Json::parse(R"({"ok":true,"envelope":{"stepResults":[{"id":"snap","data":{"text":"ab"}}]}})");
  truncate_snapshot(small, 3);
  CHECK_FALSE(small.contains("truncated"));
}

namespace {

// The virtual device's screencap of a 1080x2400 display.
std::string device_png() {
  vdevice::android::IndexedImage screen(1080, 2400,
                                        {{255, 255, 255}, {10, 20, 30}, {0, 0, 0}, {9, 9, 9}});
  screen.fill(0, 0, 1080, 100, 2);
  return screen.encode_png();
}

std::string image_bytes(const Json& result) {
  REQUIRE(result["content"].size() == 2);
  const Json& item = result["content"][1];
  CHECK(item["type"] == "image");
  CHECK(item["mimeType"] == "image/png");
  std::string bytes;
  REQUIRE(transport::append_base64_decoded(item["data"].get<std::string>(), bytes));
  return bytes;
}

}  // namespace

TEST_CASE("redaction: host paths in any string, a disposition on every result", "[mcp][result]") {
  set_host_roots({"/home/u/.local/state/clawperator", "/tmp", "relative/ignored", "/"});
  const Json result = tool_result(
      Json::parse(
          R"json({"ok":true,"note":"wrote /tmp/x.png and /home/u/.local/state/clawperator/a.lock:",
                      "device":"/data/local/tmp/p.json","other":"/tmpfile stays",
                      "list":["(/tmp/y)"]})json"),
      "2025-11-25");
  const Json& body = result["structuredContent"];
  CHECK(body["note"] == "wrote <host path> and <host path>:");
  CHECK(body["device"] == "/data/local/tmp/p.json");  // the phone's path, not the host's
  CHECK(body["other"] == "/tmpfile stays");
  CHECK(body["list"][0] == "(<host path>)");
  // devices, configure, doctor, explain_error: answered on the host, nothing was delivered.
  CHECK(body["disposition"] == Json::parse(R"({"delivery":"not_delivered","retry":"safe"})"));
  set_host_roots({});
}

TEST_CASE("screenshot: the device's PNG as it is, or scaled down to maxDimension",
          "[mcp][result]") {
  const std::string png = device_png();
  const Json document = Json::parse(
      R"({"ok":true,"deviceId":"d","disposition":{"delivery":"delivered_verified","retry":"safe"}})");

  const Json as_is = screenshot_result(png, document, std::nullopt, "2025-11-25");
  CHECK(image_bytes(as_is) == png);
  CHECK(as_is["structuredContent"] == document);

  const Json scaled = screenshot_result(png, document, 1024, "2025-11-25");
  CHECK(scaled["structuredContent"]["image"] ==
        Json::parse(R"({"width":461,"height":1024,"originalWidth":1080,"originalHeight":2400,
                        "scaled":true})"));
  CHECK(scaled["structuredContent"]["deviceId"] == "d");
  CHECK(image::png_size(image_bytes(scaled)).value() == image::Size{461, 1024});
  // The text item says the same for clients without structuredContent.
  const Json old = screenshot_result(png, document, 64, "2025-03-26");
  CHECK_FALSE(old.contains("structuredContent"));
  CHECK(Json::parse(old["content"][0]["text"].get<std::string>())["image"]["width"] == 29);
  CHECK(image::png_size(image_bytes(old)).value() == image::Size{29, 64});

  // Already small enough: the same bytes, never scaled up.
  const Json fits = screenshot_result(png, document, 4096, "2025-11-25");
  CHECK(image_bytes(fits) == png);
  CHECK(fits["structuredContent"]["image"] ==
        Json::parse(R"({"width":1080,"height":2400,"originalWidth":1080,"originalHeight":2400,
                        "scaled":false})"));
}

TEST_CASE("screenshot: a PNG that cannot be scaled is an ACTION_FAILED error result",
          "[mcp][result]") {
  const Json document = Json::parse(R"({"ok":true,"deviceId":"d"})");
  std::string cut = device_png();
  cut.resize(cut.size() / 2);
  for (const std::string& broken : {std::string("not a png at all"), cut}) {
    const Json result = screenshot_result(broken, document, 512, "2025-11-25");
    CHECK(result["isError"] == true);
    REQUIRE(result["content"].size() == 1);  // no image
    const Json& body = result["structuredContent"];
    CHECK(body["code"] == "ACTION_FAILED");
    CHECK(body["message"].get<std::string>().rfind(
              "the screenshot could not be scaled to maxDimension: ", 0) == 0);
    CHECK(body["details"] ==
          Json::parse(R"({"phase":"post_processing","dispatchState":"dispatched"})"));
    CHECK(body["disposition"] ==
          Json::parse(R"({"delivery":"delivered_verified","retry":"safe"})"));
  }
  // Without maxDimension the bytes are passed on unread, as the device sent them.
  const Json unread = screenshot_result("not a png at all", document, std::nullopt, "2025-11-25");
  CHECK_FALSE(unread.contains("isError"));
  CHECK(image_bytes(unread) == "not a png at all");
}
