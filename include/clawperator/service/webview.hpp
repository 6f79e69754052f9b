// `webview list|query|click|type|eval|wait|screenshot` (docs/webview.md), decided once for the
// CLI, MCP (webview_* tools) and HTTP (POST /webview/ACTION): the request's rules, the device's
// DevTools sockets listed and one chosen, its port forwarded for the call and removed on every
// way out, a page chosen, the policy asked, the operation run.
// Includes no Boost: src/webview/cdp_client.cpp alone compiles Beast.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/problem.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

enum class WebviewAction { List, Query, Click, Type, Eval, Wait, Screenshot };

// "list", "query", …: the CLI's words (action_words.hpp's webview row).
std::string_view to_string(WebviewAction action);
std::optional<WebviewAction> parse_webview_action(std::string_view word);

inline constexpr std::chrono::milliseconds kDefaultWebviewTimeout{15000};
inline constexpr double kMinWebviewTimeoutMs = 1;
inline constexpr double kMaxWebviewTimeoutMs = 600000;
// The longest selector, text to type and expression a request may carry (bytes).
inline constexpr std::size_t kMaxWebviewSelectorBytes = 4096;
inline constexpr std::size_t kMaxWebviewTextBytes = 64 * 1024;

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
  // Who may confirm a click, type or eval a `confirm` rule of the session's policy stops
  // (docs/guardrails.md §5, "WebViews"): as an execution's (service::ExecutionCall).
  std::optional<std::string> approval_id;
  std::function<bool(const std::string& question)> ask_person;
  std::string ask_person_through;
  // A DevTools HTTP endpoint on this host's loopback (a desktop Chromium's
  // --remote-debugging-port) used instead of the device's sockets: no adb call at all. The
  // tests' seam (tests/unit/service/webview_test.cpp), never offered by a front end.
  std::optional<int> local_port;
};

// The action's words beyond its name: query, click, wait take a selector, type a selector and a
// text, eval an expression, list and screenshot nothing.
bool takes_selector(WebviewAction action);

// Why `timeout_ms` is no budget: "timeoutMs" and the rule, for the front end to name by its own
// word (the CLI's --timeout flag, a JSON field). nullopt: it is one.
std::optional<Problem> check_webview_timeout(double timeout_ms);
// Every rule of a request a front end built, by field ("selector", "text", "expression",
// "app", "pageId", "url"; "url" also when both it and pageId choose the page): blank or
// oversized words, empty choices. nullopt: the request may run.
std::optional<Problem> check_webview_request(const WebviewRequest& request);

// One argument of MCP's webview_* tools and HTTP's POST /webview/ACTION bodies: the one table
// both front ends build from (the tool schemas, the bodies' allowed keys).
struct WebviewField {
  std::string_view name;
  std::string_view actions;  // the actions that take it, as "query|click|type"
  std::string_view type;     // "string", "boolean" or "integer" (JSON Schema)
  std::string_view description;
  bool required = false;  // by every action that takes it
};
std::span<const WebviewField> webview_fields();
bool takes_field(const WebviewField& field, WebviewAction action);

// MCP's and HTTP's arguments (docs/webview.md §5): app, pageId, url, selector, text, clear,
// expression, gone, timeoutMs, read for `action` and checked as above; a wrong or missing one is
// INVALID_BODY naming its field. A screenshot's path is never a caller's: the front end sets it.
contract::Outcome<WebviewRequest> read_webview_arguments(WebviewAction action,
                                                         const Json& arguments);

// The operation's document (docs/webview.md), or its failure (WEBVIEW_* codes, the device's
// own codes, RESULT_TRANSPORT_CANCELLED after Ctrl-C; POLICY_DENIED, CONFIRMATION_* when the
// session's policy judges a click, type or eval, before it is done).
contract::Outcome<Json> run_webview(const Session& session, const Target& target,
                                    const WebviewRequest& request,
                                    const process::CancelToken& cancel = {});

}  // namespace clawperator::service
