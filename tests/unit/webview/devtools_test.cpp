// The pure readings of src/webview/devtools.cpp: /proc/net/unix, ps, /json/list, the mapping
// from CSS pixels to the screen's, and the scripts' quoting of a selector.
#include "clawperator/webview/devtools.hpp"

#include <catch2/catch.hpp>

#include "clawperator/webview/scripts.hpp"

using namespace clawperator;
using namespace clawperator::webview;

namespace {

// As a Pixel's /proc/net/unix shows them: the header, a listening socket and its connected
// twin (the same name twice), a path socket, an unnamed one, and look-alikes that are none.
constexpr std::string_view kProcNetUnix =
    "Num       RefCount Protocol Flags    Type St Inode Path\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 81234 @webview_devtools_remote_4321\n"
    "0000000000000000: 00000003 00000000 00000000 0001 03 81240 @webview_devtools_remote_4321\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70001 @chrome_devtools_remote\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70002 /dev/socket/zygote\n"
    "0000000000000000: 00000003 00000000 00000000 0001 03 70003\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70004 @webview_devtools_remote_x\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70005 @devtools_remote_other\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70006 @_devtools_remote\n"
    "0000000000000000: 00000002 00000000 00010000 0001 01 70007 @com.x_devtools_remote_99\n";

constexpr std::string_view kPs =
    "  PID NAME\n"
    "    1 init\n"
    " 4321 com.example.shop\n"
    "   99 com.x:sandboxed_process0\n"
    "garbage line here\n"
    " 5000\n";

}  // namespace

TEST_CASE("devtools sockets are read from /proc/net/unix once each", "[webview][parse]") {
  CHECK(parse_devtools_socket_names(kProcNetUnix) ==
        std::vector<std::string>{"webview_devtools_remote_4321", "chrome_devtools_remote",
                                 "com.x_devtools_remote_99"});
  CHECK(parse_devtools_socket_names("").empty());
  CHECK(parse_devtools_socket_names("Num RefCount Protocol Flags Type St Inode Path\n").empty());
  // The last line without a newline still counts.
  CHECK(parse_devtools_socket_names(
            "0000000000000000: 00000002 00000000 00010000 0001 01 1 @webview_devtools_remote_7") ==
        std::vector<std::string>{"webview_devtools_remote_7"});
}

TEST_CASE("the pid of a socket is its name's suffix", "[webview][parse]") {
  CHECK(socket_pid("webview_devtools_remote_4321") == 4321);
  CHECK_FALSE(socket_pid("chrome_devtools_remote").has_value());
  CHECK_FALSE(socket_pid("webview_devtools_remote_").has_value());
  CHECK_FALSE(socket_pid("webview_devtools_remote_12a").has_value());
  CHECK_FALSE(socket_pid("webview_devtools_remote_0").has_value());
}

TEST_CASE("ps -A -o PID,NAME gives each pid its process", "[webview][parse]") {
  const auto names = parse_process_names(kPs);
  CHECK(names.size() == 3);
  CHECK(names.at(1) == "init");
  CHECK(names.at(4321) == "com.example.shop");
  CHECK(names.at(99) == "com.x:sandboxed_process0");
  CHECK(package_of_process("com.x:sandboxed_process0") == "com.x");
  CHECK(package_of_process("com.example.shop") == "com.example.shop");
}

TEST_CASE("one shell output lists every socket with its app", "[webview][parse]") {
  const std::string output = std::string(kProcNetUnix) + std::string(kPs);
  const DevtoolsListing listing = parse_devtools_listing(output);
  const std::vector<DevtoolsSocket>& sockets = listing.sockets;
  REQUIRE(sockets.size() == 3);
  CHECK(sockets[0].name == "webview_devtools_remote_4321");
  CHECK(sockets[0].pid == 4321);
  CHECK(sockets[0].package == "com.example.shop");
  // Chrome's socket has no pid: the browser's own package.
  CHECK(sockets[1].name == "chrome_devtools_remote");
  CHECK_FALSE(sockets[1].pid.has_value());
  CHECK(sockets[1].package == "com.android.chrome");
  CHECK(sockets[2].package == "com.x");
  // Every process's package, sockets or not (init too: a process name is all ps gives).
  CHECK(listing.running_packages == std::set<std::string>{"init", "com.example.shop", "com.x"});
  // A pid ps does not list (the app died between the two): no package, the socket still shown.
  const auto orphan = parse_devtools_listing(
      "0000000000000000: 00000002 00000000 00010000 0001 01 1 @webview_devtools_remote_77\n");
  REQUIRE(orphan.sockets.size() == 1);
  CHECK_FALSE(orphan.sockets[0].package.has_value());
  CHECK(orphan.running_packages.empty());
}

TEST_CASE("/json/list pages with and without Android's description", "[webview][parse]") {
  const std::string body = R"([
    {"id":"A1","title":"Login","url":"https://shop.example/login","type":"page",
     "webSocketDebuggerUrl":"ws://127.0.0.1/devtools/page/A1",
     "description":"{\"attached\":true,\"empty\":false,\"height\":2000,\"screenX\":0,\"screenY\":210,\"visible\":true,\"width\":1080}"},
    {"id":"B2","title":"","url":"about:blank","type":"page","description":""},
    {"id":"W3","type":"service_worker","url":"https://shop.example/sw.js"}
  ])";
  const PageListReading reading = parse_page_list(body);
  REQUIRE(reading.problem.empty());
  REQUIRE(reading.pages.size() == 3);
  const DevtoolsPage& login = reading.pages[0];
  CHECK(login.title == "Login");
  CHECK(login.websocket_url == "ws://127.0.0.1/devtools/page/A1");
  REQUIRE(login.geometry.has_value());
  CHECK(login.geometry->attached);
  CHECK(login.geometry->visible);
  CHECK_FALSE(login.geometry->empty);
  CHECK(login.geometry->screen_y == 210);
  CHECK(login.geometry->width == 1080);
  CHECK(login.geometry->height == 2000);
  CHECK_FALSE(reading.pages[1].geometry.has_value());
  CHECK(reading.pages[1].websocket_url.empty());
  CHECK(reading.pages[2].type == "service_worker");
  const Json shown = to_json(login);
  CHECK(shown["attached"] == true);
  CHECK(shown["debuggable"] == true);
  CHECK(to_json(reading.pages[1])["attached"].is_null());
  CHECK(to_json(reading.pages[1])["debuggable"] == false);
}

TEST_CASE("a body that is no page list says why", "[webview][parse]") {
  CHECK_FALSE(parse_page_list("{}").problem.empty());
  CHECK_FALSE(parse_page_list("<html>").problem.empty());
  CHECK_FALSE(parse_page_list(R"([{"title":"no id"}])").problem.empty());
  CHECK(parse_page_list("[]").problem.empty());
  CHECK_FALSE(parse_view_geometry("not json").has_value());
  CHECK_FALSE(parse_view_geometry(R"({"attached":true})").has_value());
}

TEST_CASE("CSS pixels map to screen pixels through the view's width", "[webview][geometry]") {
  ViewGeometry view;
  view.attached = view.visible = true;
  view.empty = false;
  view.screen_x = 0;
  view.screen_y = 210;
  view.width = 1080;
  view.height = 2000;
  // 1080 device pixels over a 411.43 CSS px viewport: 2.625 device pixels per CSS pixel.
  const auto screen = to_screen(Rect{10, 20, 100, 40}, view, 1080 / 2.625);
  REQUIRE(screen.has_value());
  CHECK(screen->x == Approx(26.25));
  CHECK(screen->y == Approx(210 + 52.5));
  CHECK(screen->width == Approx(262.5));
  CHECK(screen->height == Approx(105));
  view.screen_x = 100;
  CHECK(to_screen(Rect{0, 0, 1, 1}, view, 540)->x == Approx(100));
  CHECK_FALSE(to_screen(Rect{}, view, 0).has_value());
  view.width = 0;
  CHECK_FALSE(to_screen(Rect{}, view, 400).has_value());
}

TEST_CASE("the WebSocket path is the URL's path, whatever host it names", "[webview][parse]") {
  CHECK(websocket_path("ws://127.0.0.1:9222/devtools/page/AB") == "/devtools/page/AB");
  CHECK(websocket_path("ws://localhost/devtools/page/X") == "/devtools/page/X");
  CHECK_FALSE(websocket_path("wss://x/devtools").has_value());
  CHECK_FALSE(websocket_path("ws://host-without-path").has_value());
  CHECK_FALSE(websocket_path("").has_value());
}

TEST_CASE("a selector enters the scripts as one JSON string", "[webview][scripts]") {
  const std::string hostile = "a\"); alert(1); (\"</script>\n";
  for (const std::string& script : {query_script(hostile), click_target_script(hostile),
                                    focus_script(hostile, true), count_script(hostile)}) {
    CHECK(script.find("const css = " + dump_json(Json(hostile)) + ";") != std::string::npos);
    CHECK(script.find(hostile) == std::string::npos);
    CHECK(script.rfind("(() => {", 0) == 0);
  }
  CHECK(focus_script("#a", true).find("e.value = ''") != std::string::npos);
  CHECK(focus_script("#a", false).find("e.value = ''") == std::string::npos);
}
