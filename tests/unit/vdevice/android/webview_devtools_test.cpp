// The WebViews' DevTools side of the device (issue 50) that needs no Chromium: the scenario's
// `webviews`, /proc/net/unix and ps as the shell prints them, and the /json rewriting
// (src/vdevice/android/system/webview_devtools.cpp). The bridge to a real Chromium is
// tests/integration/vdevice_webview_test.cpp's.
#include "vdevice/android/system/webview_devtools.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "android_test_support.hpp"
#include "test_files.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

Scenario webview_scenario_from(const std::string& json_text) {
  auto scenario = load_scenario(json_text);
  INFO((scenario ? std::string() : scenario.error().text()));
  REQUIRE(scenario);
  return std::move(scenario).value();
}

// Chromium's /json/list as it answers it: the device's tab, about:blank, a worker.
const char* const kChromiumTargetList = R"([ {
   "description": "",
   "devtoolsFrontendUrl": "https://chrome-devtools-frontend.appspot.com/x",
   "id": "AB12",
   "title": "Shop login",
   "type": "page",
   "url": "file:///tmp/p/pages/com.example.shop.html",
   "webSocketDebuggerUrl": "ws://127.0.0.1:41000/devtools/page/AB12"
}, {
   "description": "",
   "id": "CD34",
   "title": "about:blank",
   "type": "page",
   "url": "about:blank",
   "webSocketDebuggerUrl": "ws://127.0.0.1:41000/devtools/page/CD34"
} ])";

}  // namespace

TEST_CASE("webviews: pids, sockets, packages and mistakes", "[vdevice][android][webview]") {
  const Scenario scenario = webview_scenario_from(R"({"webviews": [
      {"package": "com.example.shop", "html": "<title>Shop</title>"},
      {"package": "com.example.notes", "debuggable": false, "url": "about:blank"},
      {"package": "com.android.chrome", "chrome": true, "url": "about:blank", "pid": 4321}]})");
  REQUIRE(scenario.webviews.size() == 3);
  const WebViewSpec& shop = scenario.webviews[0];
  CHECK(shop.debuggable);
  CHECK(shop.pid == scenario.operator_behavior.pid + 1000);
  CHECK(devtools_socket_name(shop) == "webview_devtools_remote_" + std::to_string(shop.pid));
  CHECK(scenario.webviews[1].pid != shop.pid);
  CHECK(devtools_socket_name(scenario.webviews[2]) == "chrome_devtools_remote");
  CHECK(scenario.find_package("com.example.shop") != nullptr);
  CHECK(scenario.find_package("com.android.chrome") != nullptr);

  const auto problem = [](const std::string& text) {
    const auto loaded = load_scenario(text);
    REQUIRE_FALSE(loaded);
    return loaded.error().text();
  };
  CHECK(problem(R"({"webviews": [{"package": "a.b"}]})") ==
        "webviews[\"a.b\"]: expected exactly one of url, page and html");
  CHECK(problem(R"({"webviews": [{"package": "a.b", "url": "x", "html": "y"}]})") ==
        "webviews[\"a.b\"]: expected exactly one of url, page and html");
  CHECK(problem(R"({"webviews": [{"package": "a.b", "url": "x", "colour": 1}]})") ==
        "webviews[\"a.b\"].colour: unknown key");
  CHECK(problem(R"({"webviews": [{"package": "a.b", "url": "x", "bounds": "[1,2]"}]})") ==
        "webviews[\"a.b\"].bounds: expected \"[l,t][r,b]\"");
  CHECK(problem(R"({"webviews": [{"package": "a.b", "chrome": true, "url": "x"},
                                 {"package": "c.d", "chrome": true, "url": "x"}]})") ==
        "webviews[\"c.d\"].chrome: only one app can be Chrome");
  CHECK(problem(R"({"webviews": [{"package": "a.b", "url": "x", "pid": 700},
                                 {"package": "c.d", "url": "x", "pid": 700}]})") ==
        "webviews[\"c.d\"].pid: is another process's");
  CHECK(problem(R"({"webviews": {"package": "a.b"}})") == "webviews: expected an array");
}

TEST_CASE("webviews: a page file is read next to the scenario file",
          "[vdevice][android][webview]") {
  clawperator::testing::TemporaryDirectory directory("webview-page");
  const std::filesystem::path folder = directory.path();
  std::ofstream(folder / "page.html") << "<title>From a file</title>";
  std::ofstream(folder / "app.json")
      << R"({"webviews": [{"package": "com.example.shop", "page": "page.html"}]})";
  const auto loaded = load_scenario_file((folder / "app.json").string());
  REQUIRE(loaded);
  CHECK(loaded->webviews.front().html == "<title>From a file</title>");

  std::ofstream(folder / "missing.json")
      << R"({"webviews": [{"package": "com.example.shop", "page": "gone.html"}]})";
  const auto missing = load_scenario_file((folder / "missing.json").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().text().find("webviews[\"com.example.shop\"].page: cannot read ") !=
        std::string::npos);

  const auto example = load_scenario_file(std::string(CLAWPERATOR_SOURCE_DIR) +
                                          "/examples/scenarios/webview-login.json");
  REQUIRE(example);
  CHECK(example->webviews.front().html.find("<button id=\"login\"") != std::string::npos);
}

TEST_CASE("/proc/net/unix and ps -A -o PID,NAME list the WebViews' sockets and processes",
          "[vdevice][android][webview]") {
  Scenario scenario = webview_scenario_from(R"({"webviews": [
      {"package": "com.example.shop", "url": "about:blank", "pid": 8123},
      {"package": "com.example.notes", "debuggable": false, "url": "about:blank", "pid": 812}]})");
  scenario.logcat.noise_lines_per_second = 0;
  Harness harness(scenario);
  // The one call the host makes.
  const ShellResult both = harness.shell("cat /proc/net/unix; ps -A -o PID,NAME");
  CHECK(both.status == 0);
  CHECK(both.err.empty());
  CHECK(both.out.starts_with("Num       RefCount Protocol Flags    Type St Inode Path\n"));
  CHECK(both.out.find("0000000000000000: 00000002 00000000 00010000 0001 01 31000 "
                      "@webview_devtools_remote_8123\n") != std::string::npos);
  CHECK(both.out.find("@webview_devtools_remote_812\n") == std::string::npos);
  CHECK(both.out.find("\n  PID NAME\n") != std::string::npos);
  CHECK(both.out.find("\n    1 init\n") != std::string::npos);
  CHECK(both.out.find("\n 8123 com.example.shop\n") != std::string::npos);
  CHECK(both.out.find("\n  812 com.example.notes\n") != std::string::npos);
  CHECK(both.out.find("com.clawperator.operator\n") != std::string::npos);

  const ShellResult wide = harness.shell("ps -A -o PID,PPID,NAME");
  CHECK(wide.out.find("  PID  PPID NAME\n") == 0);
  CHECK(wide.out.find("\n 8123   388 com.example.shop\n") != std::string::npos);
  const ShellResult bad = harness.shell("ps -A -o PID,WCHAN");
  CHECK(bad.status == 1);
  CHECK(bad.err == "ps: bad -o wchan\n");
}

TEST_CASE("/proc/net/unix rows in the kernel's columns, by inode", "[vdevice][android][webview]") {
  const std::vector<UnixSocketRow> rows = {{31000, "@webview_devtools_remote_8123"},
                                           {31001, "@com.clawperator.operator.result.s1"}};
  CHECK(render_proc_net_unix(rows) ==
        "Num       RefCount Protocol Flags    Type St Inode Path\n"
        "0000000000000000: 00000002 00000000 00010000 0001 01 31000 "
        "@webview_devtools_remote_8123\n"
        "0000000000000000: 00000002 00000000 00010000 0001 01 31001 "
        "@com.clawperator.operator.result.s1\n");
}

TEST_CASE("/json/list keeps the app's tab and gives it Android's description",
          "[vdevice][android][webview]") {
  const std::string description = android_page_description(Bounds{0, 136, 1080, 2274});
  CHECK(description == R"({"attached":true,"empty":false,"height":2138,"screenX":0,"screenY":136,)"
                       R"("visible":true,"width":1080})");
  const auto rewritten = rewrite_target_list(kChromiumTargetList, {"AB12"}, description);
  REQUIRE(rewritten);
  const auto list = nlohmann::json::parse(*rewritten);
  REQUIRE(list.size() == 1);
  CHECK(list[0]["id"] == "AB12");
  CHECK(list[0]["description"] == description);
  CHECK(list[0]["webSocketDebuggerUrl"] == "ws://127.0.0.1:41000/devtools/page/AB12");
  CHECK(rewrite_target_list(kChromiumTargetList, {}, description) == "[]");
  CHECK_FALSE(rewrite_target_list("{\"not\": \"a list\"}", {"AB12"}, description));
  CHECK_FALSE(rewrite_target_list("<html>", {"AB12"}, description));

  const auto version = rewrite_version(R"({"Browser": "Chrome/120.0"})", "com.example.shop");
  REQUIRE(version);
  CHECK(nlohmann::json::parse(*version)["Android-Package"] == "com.example.shop");
}

TEST_CASE("DevTools requests: which the device answers, which go to Chromium",
          "[vdevice][android][webview]") {
  std::size_t head = 0;
  CHECK_FALSE(parse_devtools_request("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:5", head));
  const std::string listing = "GET /json/list HTTP/1.1\r\nhost:  127.0.0.1:5000 \r\n\r\nextra";
  const auto request = parse_devtools_request(listing, head);
  REQUIRE(request);
  CHECK(head == listing.size() - 5);
  CHECK(request->host == "127.0.0.1:5000");
  CHECK(listing_of(*request) == DevToolsListing::List);

  const auto upgrade = parse_devtools_request(
      "GET /devtools/page/AB12 HTTP/1.1\r\nHost: x\r\nUpgrade: WebSocket\r\n\r\n", head);
  REQUIRE(upgrade);
  CHECK(upgrade->upgrade);
  CHECK(listing_of(*upgrade) == DevToolsListing::None);
  for (const char* path : {"/json", "/json/", "/json?x=1"}) {
    const auto any = parse_devtools_request(std::string("GET ") + path + " HTTP/1.1\r\n\r\n", head);
    REQUIRE(any);
    CHECK(listing_of(*any) == DevToolsListing::List);
  }
  const auto version = parse_devtools_request("GET /json/version HTTP/1.1\r\n\r\n", head);
  CHECK(listing_of(*version) == DevToolsListing::Version);
  const auto open_tab = parse_devtools_request("PUT /json/new?about:blank HTTP/1.1\r\n\r\n", head);
  CHECK(listing_of(*open_tab) == DevToolsListing::None);
  CHECK_FALSE(parse_devtools_request("\x16\x03\x01 hello\r\n\r\n", head));

  CHECK(http_ok_body("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]") == "[]");
  CHECK_FALSE(http_ok_body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n[]"));
  CHECK_FALSE(http_ok_body("HTTP/1.1 500 Internal\r\nContent-Length: 2\r\n\r\n[]"));
  CHECK(json_http_response("[]") ==
        "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\n"
        "Content-Length: 2\r\nConnection: close\r\n\r\n[]");
}
