// Every `webview` operation through the service entry point against a real headless Chromium
// (tests/support/headless_chromium.hpp), through the seam that points it at the browser's
// port instead of a device (WebviewRequest::local_port): the page's own JavaScript checks what
// each operation did. Each failure's exact code, exit code and disposition.
#include "clawperator/service/webview.hpp"

#include <catch2/catch.hpp>
#include <thread>

#include "clawperator/webview/cdp_client.hpp"
#include "headless_chromium.hpp"
#include "skip.hpp"
#include "test_files.hpp"

using namespace clawperator;
using clawperator::service::WebviewAction;
using clawperator::service::WebviewRequest;
using clawperator::testing::HeadlessChromium;

namespace {

// A login form whose script records what reaches it: a trusted click (from an input event,
// not element.click()), the submitted e-mail.
constexpr const char* kLoginPage = R"(<!doctype html>
<title>Login</title>
<form id="login">
  <input id="email" name="email" value="old@example.com">
  <input id="password" type="password">
  <button id="go" type="submit">Sign in</button>
</form>
<p class="item">one</p><p class="item">two</p>
<div id="space" style="height: 3000px"></div>
<button id="far">far below</button>
<script>
  window.clicks = [];
  document.getElementById('go').addEventListener('click', (e) => {
    e.preventDefault();
    window.clicks.push({trusted: e.isTrusted, email: document.getElementById('email').value});
  });
  document.getElementById('far').addEventListener('click', (e) => window.clicks.push({far: e.isTrusted}));
  document.body.dataset.ready = 'yes';
</script>)";

struct WebviewBrowser {
  testing::TemporaryDirectory pages{"webview-pages"};
  std::unique_ptr<HeadlessChromium> browser;
  WebviewBrowser() {
    testing::write_file(pages.path() / "login.html", kLoginPage);
    browser =
        std::make_unique<HeadlessChromium>("file://" + (pages.path() / "login.html").string());
  }
};

WebviewRequest webview_request_of(const HeadlessChromium& browser, WebviewAction action) {
  WebviewRequest request;
  request.action = action;
  request.local_port = browser.port();
  // The file page; the browser's own UI pages (type browser_ui) are no pages.
  request.url_part = "login.html";
  request.timeout = std::chrono::milliseconds(10000);
  return request;
}

contract::Outcome<Json> run_webview_request(const WebviewRequest& request,
                                            const process::CancelToken& cancel = {}) {
  return service::run_webview(service::Session{}, {}, request, cancel);
}

// The browser answers before the page has loaded: wait for the page's script to have run.
void wait_until_loaded(const HeadlessChromium& browser) {
  WebviewRequest wait = webview_request_of(browser, WebviewAction::Wait);
  wait.selector = "body[data-ready=yes]";
  const auto loaded = run_webview_request(wait);
  if (!loaded) FAIL(loaded.error().code + ": " + loaded.error().message);
}

Json eval_value(const HeadlessChromium& browser, const std::string& expression) {
  WebviewRequest request = webview_request_of(browser, WebviewAction::Eval);
  request.expression = expression;
  const auto done = run_webview_request(request);
  REQUIRE(done);
  return (*done)["value"];
}

void check_webview_code(const contract::Outcome<Json>& done, std::string_view code, int exit_code,
                        std::string_view delivery) {
  REQUIRE_FALSE(done);
  INFO(done.error().message);
  CHECK(done.error().code == code);
  CHECK(contract::exit_code_of(done.error()) == exit_code);
  CHECK(contract::to_string(contract::disposition_of(done.error()).delivery) == delivery);
}

// The browser's own session (Target.*), for what a page cannot do to itself.
std::unique_ptr<webview::CdpSession> browser_session(const HeadlessChromium& browser) {
  auto session =
      webview::CdpSession::connect({"127.0.0.1", browser.port()}, browser.browser_path(),
                                   std::chrono::steady_clock::now() + std::chrono::seconds(5), {});
  REQUIRE(session);
  return std::move(*session);
}

}  // namespace

TEST_CASE("webview list, query and the choice of a page against Chromium",
          "[service][webview][chromium][may-skip]") {
  WebviewBrowser fixture;
  const HeadlessChromium& browser = *fixture.browser;
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  wait_until_loaded(browser);

  WebviewRequest list = webview_request_of(browser, WebviewAction::List);
  const auto listed = run_webview_request(list);
  REQUIRE(listed);
  const Json& pages = (*listed)["sockets"][0]["pages"];
  bool found = false;
  for (const Json& page : pages) found |= page["title"] == "Login" && page["type"] == "page";
  CHECK(found);

  WebviewRequest query = webview_request_of(browser, WebviewAction::Query);
  query.selector = "p.item";
  const auto matched = run_webview_request(query);
  REQUIRE(matched);
  CHECK((*matched)["count"] == 2);
  CHECK((*matched)["matches"][0]["tag"] == "p");
  CHECK((*matched)["matches"][1]["text"] == "two");
  CHECK((*matched)["matches"][0]["bounds"]["css"]["height"].get<double>() > 0);
  // Desktop Chrome has no Android description: no screen pixels to give.
  CHECK((*matched)["matches"][0]["bounds"]["screen"].is_null());
  CHECK((*matched)["page"]["title"] == "Login");

  query.selector = "#email";
  const auto email = run_webview_request(query);
  REQUIRE(email);
  CHECK((*email)["matches"][0]["attributes"]["name"] == "email");

  query.selector = "p.none";
  const auto nothing = run_webview_request(query);
  REQUIRE(nothing);
  CHECK((*nothing)["count"] == 0);

  query.selector = "##";
  check_webview_code(run_webview_request(query), "WEBVIEW_SELECTOR_INVALID", 2, "not_delivered");

  // A second page makes the choice ambiguous without --page or --url.
  auto target = browser_session(browser);
  REQUIRE(target->call("Target.createTarget", Json{{"url", "about:blank"}},
                       std::chrono::steady_clock::now() + std::chrono::seconds(5)));
  query.url_part.reset();
  query.selector = "p";
  const auto ambiguous = run_webview_request(query);
  check_webview_code(ambiguous, "WEBVIEW_AMBIGUOUS", 1, "not_delivered");
  CHECK(ambiguous.error().details["candidates"].size() == 2);
  query.url_part = "no-such-page";
  check_webview_code(run_webview_request(query), "WEBVIEW_PAGE_NOT_FOUND", 1, "not_delivered");
  query.url_part.reset();
  query.page_id = (*matched)["page"]["id"].get<std::string>();
  CHECK(run_webview_request(query));
}

TEST_CASE("webview click and type reach the page's own JavaScript",
          "[service][webview][chromium][may-skip]") {
  WebviewBrowser fixture;
  const HeadlessChromium& browser = *fixture.browser;
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  wait_until_loaded(browser);

  WebviewRequest type = webview_request_of(browser, WebviewAction::Type);
  type.selector = "#email";
  type.text = "ada@example.com";
  type.clear = true;
  const auto typed = run_webview_request(type);
  REQUIRE(typed);
  CHECK((*typed)["typedLength"] == 15);
  CHECK(eval_value(browser, "document.getElementById('email').value") == "ada@example.com");
  // Without --clear the text goes where the caret is, after what is there.
  type.clear = false;
  type.text = "!";
  REQUIRE(run_webview_request(type));
  CHECK(eval_value(browser, "document.getElementById('email').value") == "ada@example.com!");

  WebviewRequest click = webview_request_of(browser, WebviewAction::Click);
  click.selector = "#go";
  const auto clicked = run_webview_request(click);
  REQUIRE(clicked);
  CHECK((*clicked)["element"]["tag"] == "button");
  CHECK(eval_value(browser, "JSON.stringify(window.clicks)") ==
        R"([{"trusted":true,"email":"ada@example.com!"}])");
  // Far below the fold: scrolled into view first, then clicked where it is.
  click.selector = "#far";
  REQUIRE(run_webview_request(click));
  CHECK(eval_value(browser, "window.clicks.length") == 2);
  CHECK(eval_value(browser, "window.scrollY > 1000") == true);

  click.selector = "p.item";
  const auto several = run_webview_request(click);
  check_webview_code(several, "WEBVIEW_ELEMENT_AMBIGUOUS", 1, "not_delivered");
  CHECK(several.error().details["candidates"].size() == 2);
  click.selector = "#missing";
  check_webview_code(run_webview_request(click), "WEBVIEW_ELEMENT_NOT_FOUND", 1, "not_delivered");
  type.selector = "p.item:first-of-type";
  check_webview_code(run_webview_request(type), "WEBVIEW_ELEMENT_NOT_FOUND", 1, "not_delivered");
  CHECK(eval_value(browser, "window.clicks.length") == 2);
}

TEST_CASE("webview eval, wait and screenshot against Chromium",
          "[service][webview][chromium][may-skip]") {
  WebviewBrowser fixture;
  const HeadlessChromium& browser = *fixture.browser;
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  wait_until_loaded(browser);

  CHECK(eval_value(browser, "1 + 2") == 3);
  CHECK(eval_value(browser, "Promise.resolve({a: [1, 'x']})") == Json::parse(R"({"a":[1,"x"]})"));
  CHECK(eval_value(browser, "undefined").is_null());

  WebviewRequest eval = webview_request_of(browser, WebviewAction::Eval);
  eval.expression = "throw new Error('boom at login')";
  const auto thrown = run_webview_request(eval);
  check_webview_code(thrown, "WEBVIEW_EVALUATION_FAILED", 1, "delivered_verified");
  CHECK(thrown.error().details["exception"].get<std::string>().find("boom at login") !=
        std::string::npos);
  eval.expression = "'x'.repeat(2 * 1024 * 1024)";
  check_webview_code(run_webview_request(eval), "WEBVIEW_EVALUATION_FAILED", 1,
                     "delivered_verified");

  // Appears after 300 ms.
  eval.expression =
      "setTimeout(() => { const d = document.createElement('div'); d.id = 'late';"
      " document.body.appendChild(d); }, 300); true";
  REQUIRE(run_webview_request(eval));
  WebviewRequest wait = webview_request_of(browser, WebviewAction::Wait);
  wait.selector = "#late";
  const auto appeared = run_webview_request(wait);
  REQUIRE(appeared);
  CHECK((*appeared)["condition"] == "present");
  CHECK((*appeared)["count"] == 1);

  eval.expression = "setTimeout(() => document.getElementById('late').remove(), 300); true";
  REQUIRE(run_webview_request(eval));
  wait.gone = true;
  const auto gone = run_webview_request(wait);
  REQUIRE(gone);
  CHECK((*gone)["condition"] == "gone");
  CHECK((*gone)["count"] == 0);

  wait.gone = false;
  wait.selector = "#never";
  wait.timeout = std::chrono::milliseconds(600);
  const auto started = std::chrono::steady_clock::now();
  check_webview_code(run_webview_request(wait), "WEBVIEW_WAIT_TIMEOUT", 1, "not_delivered");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));

  WebviewRequest shot = webview_request_of(browser, WebviewAction::Screenshot);
  shot.screenshot_path = browser.directory() / "page.png";
  const auto captured = run_webview_request(shot);
  REQUIRE(captured);
  const std::string png = testing::read_whole_file(browser.directory() / "page.png");
  CHECK(png.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  CHECK((*captured)["bytes"] == png.size());
  shot.screenshot_path = browser.directory() / "no-such-directory" / "page.png";
  check_webview_code(run_webview_request(shot), "SNAPSHOT_ARTIFACT_WRITE_FAILED", 1,
                     "delivered_verified");
}

TEST_CASE("webview deadlines, cancellation and a page that closes mid-call",
          "[service][webview][chromium][may-skip]") {
  WebviewBrowser fixture;
  const HeadlessChromium& browser = *fixture.browser;
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  wait_until_loaded(browser);

  // A promise that never settles: the call ends at its deadline, its outcome unknown.
  WebviewRequest eval = webview_request_of(browser, WebviewAction::Eval);
  eval.expression = "new Promise(() => {})";
  eval.timeout = std::chrono::milliseconds(700);
  auto started = std::chrono::steady_clock::now();
  check_webview_code(run_webview_request(eval), "WEBVIEW_TIMEOUT", 4, "delivery_uncertain");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));

  // Cancelled by its caller (a server's call, or Ctrl-C through the same wait).
  eval.timeout = std::chrono::milliseconds(20000);
  process::CancelSource source;
  std::thread canceller([&source] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    source.cancel();
  });
  started = std::chrono::steady_clock::now();
  const auto cancelled = run_webview_request(eval, source.token());
  canceller.join();
  REQUIRE_FALSE(cancelled);
  CHECK(cancelled.error().code == "RESULT_TRANSPORT_CANCELLED");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));

  // The page closes while a wait polls it: the connection is gone mid-call.
  auto target = browser_session(browser);
  const auto created = target->call("Target.createTarget", Json{{"url", "about:blank#closing"}},
                                    std::chrono::steady_clock::now() + std::chrono::seconds(5));
  REQUIRE(created);
  const std::string target_id = (*created)["targetId"].get<std::string>();
  WebviewRequest wait = webview_request_of(browser, WebviewAction::Wait);
  wait.url_part = "#closing";
  wait.selector = "#never";
  wait.timeout = std::chrono::milliseconds(15000);
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    (void)target->call("Target.closeTarget", Json{{"targetId", target_id}},
                       std::chrono::steady_clock::now() + std::chrono::seconds(5));
  });
  started = std::chrono::steady_clock::now();
  const auto closed = run_webview_request(wait);
  closer.join();
  check_webview_code(closed, "WEBVIEW_DISCONNECTED", 3, "not_delivered");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(8));

  // Nothing listens on the port at all.
  WebviewRequest nowhere = webview_request_of(browser, WebviewAction::List);
  nowhere.local_port = 1;
  check_webview_code(run_webview_request(nowhere), "WEBVIEW_NOT_FOUND", 3, "not_delivered");
}
