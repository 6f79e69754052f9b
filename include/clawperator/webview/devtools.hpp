// What the device tells about its DevTools endpoints, read without any I/O (docs/webview.md):
// the abstract sockets of /proc/net/unix, the apps of `ps -A -o PID,NAME`, the pages of
// `GET /json/list`, and the mapping from a page's CSS pixels to the screen's pixels.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::webview {

// The one shell command that lists both (src/webview/device_endpoints.cpp runs it).
inline constexpr std::string_view kListCommand = "cat /proc/net/unix; ps -A -o PID,NAME";

struct DevtoolsSocket {
  std::string name;        // the abstract name without '@': webview_devtools_remote_1234
  std::optional<int> pid;  // from the name's _<pid> suffix; none for chrome_devtools_remote
  std::optional<std::string> package;  // the process of `pid` in ps, or a browser's own name
};

// The abstract names of /proc/net/unix that end in `_devtools_remote` or
// `_devtools_remote_<pid>`, each once, in the order first listed.
std::vector<std::string> parse_devtools_socket_names(std::string_view proc_net_unix);

// The pid of `webview_devtools_remote_<pid>`; none without the suffix.
std::optional<int> socket_pid(std::string_view name);

// `ps -A -o PID,NAME` (toybox): pid -> process name. The header line and lines that are not
// "<pid> <name>" are skipped. A WebView in a secondary process (":sandboxed") keeps its suffix.
std::map<int, std::string> parse_process_names(std::string_view ps_output);

// The package of a process name: "com.example:remote" -> "com.example".
std::string package_of_process(std::string_view process_name);

// Both outputs of kListCommand at once (the /proc/net/unix lines and the ps lines can be told
// apart line by line): every DevTools socket with its app, and the packages running at all,
// so that an app with no socket can be told running (not debuggable) from not running.
struct DevtoolsListing {
  std::vector<DevtoolsSocket> sockets;
  std::set<std::string> running_packages;
};
DevtoolsListing parse_devtools_listing(std::string_view shell_output);

// The Android `description` of a page: where its view is on the screen, in device pixels.
struct ViewGeometry {
  bool attached = false;
  bool visible = false;
  bool empty = true;
  double screen_x = 0;
  double screen_y = 0;
  double width = 0;
  double height = 0;
};

struct DevtoolsPage {
  std::string id;
  std::string title;
  std::string url;
  std::string type;
  std::string websocket_url;             // empty when another client is attached to the page
  std::optional<ViewGeometry> geometry;  // absent on desktop Chrome
};

// `GET /json/list`'s body: the pages, or the reason it is not a page list.
struct PageListReading {
  std::vector<DevtoolsPage> pages;
  std::string problem;  // empty when the body was read
};
PageListReading parse_page_list(std::string_view body);

// A description string of /json/list; none when it is no such object (desktop Chrome: "").
std::optional<ViewGeometry> parse_view_geometry(std::string_view description);

struct Rect {
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
};

// A page rectangle in CSS pixels as screen pixels: screen = screenX/Y + css * scale, where
// scale = the view's width in device pixels / window.innerWidth. None when the geometry or
// innerWidth cannot give a scale (a detached or empty view, innerWidth 0).
std::optional<Rect> to_screen(const Rect& css, const ViewGeometry& view, double inner_width);

Json to_json(const Rect& rect);
Json to_json(const DevtoolsPage& page);

// websocket URL "ws://HOST:PORT/devtools/page/ID" -> "/devtools/page/ID": the path on the
// forwarded port (the host in the URL is the device's view of itself, never ours).
std::optional<std::string> websocket_path(std::string_view websocket_url);

}  // namespace clawperator::webview
