// What `clawperator webview …` does once a page is chosen (docs/webview.md): the choice of a
// socket and a page (pure), and each operation over one page's DevTools session, with its
// failures as catalog codes (WEBVIEW_*), phase and delivery decided here once.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/webview/cdp_client.hpp"
#include "clawperator/webview/devtools.hpp"

namespace clawperator::webview {

// The socket `app` names (a package), or the only one: WEBVIEW_NOT_FOUND when none is left,
// WEBVIEW_AMBIGUOUS (details.candidates) when several are. With `running` (the packages the
// device runs), an app with no socket is said to run without a debuggable WebView, or not to
// run at all (details.appRunning).
contract::Outcome<DevtoolsSocket> choose_socket(const std::vector<DevtoolsSocket>& sockets,
                                                const std::optional<std::string>& app,
                                                const std::set<std::string>* running = nullptr);

struct PageChoice {
  std::optional<std::string> id;            // --page: exactly this id
  std::optional<std::string> url_contains;  // --url: a substring of the page's URL
};

// Among the pages of type "page" (any type for an id): the one chosen, or the only one.
// WEBVIEW_PAGE_NOT_FOUND when none is left (or the page has no webSocketDebuggerUrl: another
// DevTools client holds it), WEBVIEW_AMBIGUOUS (details.candidates) when several are.
contract::Outcome<DevtoolsPage> choose_page(const std::vector<DevtoolsPage>& pages,
                                            const PageChoice& choice);

// Whether an operation may change the page: its failures after the effect started are
// DeliveryUncertain; a read's are always safe to retry.
enum class Effect { Read, Write };

// A DevTools failure as the catalog's code: Disconnected WEBVIEW_DISCONNECTED, TimedOut
// WEBVIEW_TIMEOUT, Protocol WEBVIEW_PROTOCOL_ERROR, Unreachable WEBVIEW_NOT_FOUND, Cancelled
// RESULT_TRANSPORT_CANCELLED (130/143 after a signal). `started`: a write's effect may have
// begun (dispatch state unknown).
contract::HostError error_of(const CdpFailure& failure, Effect effect, bool started);

struct PageSession {
  CdpSession& session;
  std::optional<ViewGeometry> geometry;  // the Android description; none on desktop Chrome
  Deadline deadline;                     // every call's
  process::CancelToken cancel;
};

// {count, matches: [{tag, text, textTruncated, attributes, bounds: {css, screen}}], truncated}
contract::Outcome<Json> query(PageSession& page, const std::string& css);
// What the action policy judges a click or type on `css` by (scripts.hpp's labels_script): the
// words of every match, in the page's order, duplicates dropped; `count` the matches. Read only.
struct ElementLabels {
  long count = 0;
  std::vector<std::string> labels;
};
contract::Outcome<ElementLabels> element_labels(PageSession& page, const std::string& css);
// The one match scrolled into view and clicked at its centre with real mouse events (the
// page's own listeners see mousedown, mouseup, click): {element, point: {css, screen}}.
contract::Outcome<Json> click(PageSession& page, const std::string& css);
// The one match focused (emptied first with `clear`), then `text` inserted as typed text
// (Input.insertText): {element, typedLength, cleared}.
contract::Outcome<Json> type_text(PageSession& page, const std::string& css,
                                  const std::string& text, bool clear);
// Runtime.evaluate (returnByValue, awaitPromise): {type, value}; an exception is
// WEBVIEW_EVALUATION_FAILED with the exception's text in details.exception.
contract::Outcome<Json> evaluate(PageSession& page, const std::string& expression);
// Until `css` matches (or, `gone`, matches nothing), probing every kWaitProbeInterval, until
// the page's deadline: WEBVIEW_WAIT_TIMEOUT after it. {condition, count, waitedMs}.
// Waits up to `budget` from now (the page's deadline, the whole call's, bounds each probe).
contract::Outcome<Json> wait_for(PageSession& page, const std::string& css, bool gone,
                                 std::chrono::milliseconds budget);
// Page.captureScreenshot (PNG): the image's bytes.
contract::Outcome<std::string> capture_png(PageSession& page);

inline constexpr std::chrono::milliseconds kWaitProbeInterval{100};
// A value returned by eval larger than this as JSON is refused (the document stays readable).
inline constexpr std::size_t kMaxEvalResultBytes = std::size_t{1} << 20;

}  // namespace clawperator::webview
