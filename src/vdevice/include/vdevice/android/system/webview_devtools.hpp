// What an Android device shows of its WebViews' DevTools endpoints, as text: the rows of
// /proc/net/unix and `ps -A -o PID,NAME` the host reads to find them, and the HTTP side of
// a DevTools socket (/json/list as Android's WebView answers it). Pure functions: the
// Chromium behind them is src/vdevice/android/system/chromium_browser.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/android/scenario/scenario.hpp"

namespace clawperator::vdevice::android {

// "webview_devtools_remote_<pid>", Chrome's "chrome_devtools_remote": the abstract socket's
// name without the '@' that /proc/net/unix and `adb forward localabstract:` leave off or add.
std::string devtools_socket_name(const WebViewSpec& webview);

struct UnixSocketRow {
  std::uint64_t inode = 0;
  std::string path;  // "@name" for an abstract socket
};

// The kernel's /proc/net/unix (net/unix/af_unix.c, unix_seq_show) for listening stream
// sockets, with the address hidden as kptr_restrict hides it from the shell user.
std::string render_proc_net_unix(const std::vector<UnixSocketRow>& rows);

struct ProcessRow {
  int pid = 0;
  int ppid = 0;
  std::string name;
};

// toybox ps's columns for `-o FIELD,…` (PID, PPID, NAME; ARGS, CMD and CMDLINE as NAME), or
// nullopt and the unknown field in `bad_field`.
std::optional<std::string> render_ps(const std::vector<ProcessRow>& rows, std::string_view fields,
                                     std::string& bad_field);

// The description Android's WebView gives each page in /json/list
// (AwDevToolsManagerDelegate): a JSON object, as a string, of where the view is on screen.
std::string android_page_description(const Bounds& bounds);

// Chromium's /json/list reduced to the targets of one app (`target_ids`), each page carrying
// `description`, as the app's socket lists them; nullopt when `chromium_list` is no JSON array.
std::optional<std::string> rewrite_target_list(std::string_view chromium_list,
                                               const std::set<std::string>& target_ids,
                                               const std::string& description);

// Chromium's /json/version as the app's socket tells it: with the app's "Android-Package".
std::optional<std::string> rewrite_version(std::string_view chromium_version,
                                           const std::string& package);

// The head of an HTTP request a DevTools client sends.
struct DevToolsRequest {
  std::string method;
  std::string target;  // path and query
  std::string host;    // the Host header; empty when absent
  bool upgrade = false;
};

// nullopt until `bytes` hold the whole head (through the blank line) or when it is no HTTP
// request; `head_size` is then the head's length.
std::optional<DevToolsRequest> parse_devtools_request(std::string_view bytes,
                                                      std::size_t& head_size);

enum class DevToolsListing { None, List, Version };
// Which GETs the device answers itself (`/json`, `/json/list`, `/json/version`); every other
// request, WebSocket upgrades included, goes to Chromium untouched.
DevToolsListing listing_of(const DevToolsRequest& request);

// The body of an HTTP response (after its head); nullopt while it is incomplete or when the
// status is not 200.
std::optional<std::string> http_ok_body(std::string_view response);

// A complete 200 response with a JSON body, closing the connection after it.
std::string json_http_response(std::string_view body);

}  // namespace clawperator::vdevice::android
