// `webview list|query|click|type|eval|wait|screenshot` (docs/webview.md), decided once for the
// CLI and, later, MCP and HTTP: the device's DevTools sockets listed and one chosen, its port
// forwarded for the call and removed on every way out, a page chosen, the operation run.
// Includes no Boost: src/webview/cdp_client.cpp alone compiles Beast.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

enum class WebviewAction { List, Query, Click, Type, Eval, Wait, Screenshot };

// "list", "query", …: the CLI's words (action_words.hpp's webview row).
std::string_view to_string(WebviewAction action);
std::optional<WebviewAction> parse_webview_action(std::string_view word);

inline constexpr std::chrono::milliseconds kDefaultWebviewTimeout{15000};

struct WebviewRequest {
  WebviewAction action = WebviewAction::List;
  std::optional<std::string> app;       // --app PACKAGE: the socket of this app
  std::optional<std::string> page_id;   // --page ID
  std::optional<std::string> url_part;  // --url TEXT: the page whose URL contains it
  std::string selector;                 // query, click, type, wait
  std::string text;                     // type
  bool clear = false;                   // type --clear
  std::string expression;               // eval
  bool gone = false;                    // wait --gone
  // The whole call's budget (--timeout); for wait, how long the condition is waited for.
  std::chrono::milliseconds timeout = kDefaultWebviewTimeout;
  // screenshot --path; none: a new file in the temp directory.
  std::optional<std::filesystem::path> screenshot_path;
  // A DevTools HTTP endpoint on this host's loopback (a desktop Chromium's
  // --remote-debugging-port) used instead of the device's sockets: no adb call at all. The
  // tests' seam (tests/unit/service/webview_test.cpp), never offered by a front end.
  std::optional<int> local_port;
};

// The operation's document (docs/webview.md), or its failure (WEBVIEW_* codes, the device's
// own codes, RESULT_TRANSPORT_CANCELLED after Ctrl-C).
contract::Outcome<Json> run_webview(const Session& session, const Target& target,
                                    const WebviewRequest& request,
                                    const process::CancelToken& cancel = {});

}  // namespace clawperator::service
