// POST /webview/ACTION (docs/serve.md, "WebViews"): the same service as `clawperator webview`
// and the webview_* MCP tools, through the real adb, the virtual device and the real headless
// Chromium behind its WebView (examples/scenarios/webview-login.json). Bodies are read by the
// service's one reader; a screenshot is fetched by URL, never named by a host path; no forward
// outlives a request.
#include <cstdlib>

#include "served.hpp"
#include "skip.hpp"

namespace clawperator::testing {
namespace {

bool serve_webview_has_chromium() {
  const char* configured = std::getenv("CLAWPERATOR_VDEVICE_CHROMIUM");
  const std::string program = configured != nullptr && *configured ? configured : "chromium";
  return run_binary("/bin/sh", {"-c", "command -v \"$0\" >/dev/null", program}).exit_code == 0;
}

// What POST /webview/ACTION answered, with no forward to a DevTools socket left behind.
HttpReply webview_post(Served& served, const Farm& farm, const std::string& action,
                       const std::string& body) {
  HttpReply reply = served.post("/webview/" + action, body);
  const std::string forwards = farm.adb({"forward", "--list"}).out;
  CAPTURE(action, body, forwards);
  CHECK(forwards.find("localabstract") == std::string::npos);
  return reply;
}

}  // namespace

TEST_CASE("serve: webview type, click, eval, wait, query and a screenshot by URL in a real page",
          "[serve][webview][chromium][may-skip]") {
  if (!serve_webview_has_chromium()) SKIP_TEST("no Chromium (scripts/install-deps.sh --browser)");
  Farm farm({"webview-login"});
  Served served(farm);

  HttpReply reply = webview_post(served, farm, "list", "{}");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  REQUIRE(reply.body["sockets"].size() == 1);
  CHECK(reply.body["sockets"][0]["package"] == "com.example.shop");

  reply = webview_post(served, farm, "wait", R"({"selector":"#offers","timeoutMs":10000})");
  CHECK(reply.status == 200);
  reply = webview_post(served, farm, "type", R"({"selector":"#user","text":"ann","clear":true})");
  CHECK(reply.status == 200);
  CHECK(reply.body["typedLength"] == 3);
  reply = webview_post(served, farm, "click", R"({"selector":"#login","app":"com.example.shop"})");
  CHECK(reply.status == 200);
  // The page's own handler ran: it read the typed value.
  reply = webview_post(served, farm, "eval",
                       R"({"expression":"document.getElementById('status').textContent"})");
  REQUIRE(reply.status == 200);
  CHECK(reply.body["value"] == "Welcome ann");

  reply = webview_post(served, farm, "query", R"({"selector":"input"})");
  CHECK(reply.status == 200);
  CHECK(reply.body["count"] == 2);

  reply = webview_post(served, farm, "screenshot", "{}");
  REQUIRE(reply.status == 200);
  CHECK_FALSE(reply.body.contains("path"));
  CHECK_FALSE(host_path_in(reply.text).has_value());
  const HttpReply png = served.get(reply.body["artifactUrl"]);
  CHECK(png.status == 200);
  CHECK(png.text.rfind("\x89PNG", 0) == 0);
  CHECK(png.text.size() == reply.body["bytes"].get<std::size_t>());
}

TEST_CASE("serve: webview refusals carry their code, status and field", "[serve][webview]") {
  // Every one refused before any adb call: no Chromium needed.
  Farm farm({"default"});
  Served served(farm);
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> refused = {
      {"click", R"({"selector":"  "})", "INVALID_BODY", "selector"},
      {"click", R"({})", "INVALID_BODY", "selector"},
      {"type", R"({"selector":"#user"})", "INVALID_BODY", "text"},
      {"query", R"({"selector":"a","gone":true})", "INVALID_BODY", "gone"},
      {"query", R"({"selector":"a","pageId":"P","url":"x"})", "INVALID_BODY", "url"},
      {"wait", R"({"selector":"a","timeoutMs":0})", "INVALID_BODY", "timeoutMs"},
      {"eval", R"({"expression":7})", "INVALID_BODY", "expression"},
      {"screenshot", R"({"path":"/tmp/x.png"})", "INVALID_BODY", "path"},
      {"list", R"({"app":""})", "INVALID_BODY", "app"},
      {"list", R"({"deviceId":" "})", "INVALID_DEVICE_ID", "deviceId"},
      {"list", R"([1])", "INVALID_BODY", ""},
  };
  for (const auto& [action, body, code, field] : refused) {
    INFO(action << " " << body);
    const HttpReply reply = served.post("/webview/" + action, body);
    CHECK(reply.status == 400);
    CHECK(reply.body["code"] == code);
    if (!field.empty()) CHECK(reply.body["details"]["field"] == field);
  }
  CHECK(served.post("/webview/tap", "{}").status == 404);

  // Past the body's rules: the device has no DevTools socket at all.
  const HttpReply missing = served.post("/webview/click", R"({"selector":"#login"})");
  CHECK(missing.status == 409);
  CHECK(missing.body["code"] == "WEBVIEW_NOT_FOUND");
  CHECK(missing.body["disposition"]["retry"] == "safe");
}

}  // namespace clawperator::testing
