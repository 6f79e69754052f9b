// Choosing a socket and a page (src/webview/operations.cpp), and how a DevTools failure becomes
// a catalog code: the exact code, exit code and disposition of each.
#include <catch2/catch.hpp>
#include <set>

#include "clawperator/webview/operations.hpp"

using namespace clawperator;
using namespace clawperator::webview;

namespace {

DevtoolsSocket socket_of(std::string name, std::optional<int> pid, std::optional<std::string> app) {
  return DevtoolsSocket{std::move(name), pid, std::move(app)};
}

DevtoolsPage page_of(std::string id, std::string url, std::string type = "page") {
  DevtoolsPage page;
  page.id = id;
  page.url = std::move(url);
  page.type = std::move(type);
  page.websocket_url = "ws://127.0.0.1/devtools/page/" + id;
  return page;
}

void check_failure(const contract::HostError& error, std::string_view code, int exit_code,
                   std::string_view delivery, std::string_view retry) {
  CHECK(error.code == code);
  CHECK(contract::exit_code_of(error) == exit_code);
  const contract::Disposition disposition = contract::disposition_of(error);
  CHECK(contract::to_string(disposition.delivery) == delivery);
  CHECK(contract::to_string(disposition.retry) == retry);
  CHECK(contract::find_error(code) != nullptr);
}

}  // namespace

TEST_CASE("the socket of --app, or the only one", "[webview][choose]") {
  const std::vector<DevtoolsSocket> sockets = {
      socket_of("webview_devtools_remote_10", 10, "com.a"),
      socket_of("webview_devtools_remote_20", 20, "com.b"),
      socket_of("chrome_devtools_remote", std::nullopt, "com.android.chrome")};
  CHECK(choose_socket(sockets, std::string("com.b"))->name == "webview_devtools_remote_20");
  CHECK(choose_socket({sockets[0]}, std::nullopt)->name == "webview_devtools_remote_10");

  const auto several = choose_socket(sockets, std::nullopt);
  REQUIRE_FALSE(several);
  check_failure(several.error(), "WEBVIEW_AMBIGUOUS", 1, "not_delivered", "safe");
  CHECK(several.error().details["candidates"].size() == 3);
  CHECK(several.error().details["candidates"][2]["package"] == "com.android.chrome");

  const auto none = choose_socket(sockets, std::string("com.missing"));
  REQUIRE_FALSE(none);
  check_failure(none.error(), "WEBVIEW_NOT_FOUND", 3, "not_delivered", "safe");
  CHECK(none.error().details["app"] == "com.missing");
  CHECK(none.error().details["sockets"].size() == 3);
  CHECK(contract::hint_of(none.error()).find("setWebContentsDebuggingEnabled") !=
        std::string::npos);

  // What ps saw tells a running app without a debuggable WebView from one not running.
  const std::set<std::string> running = {"com.example.notes"};
  const auto notes = choose_socket(sockets, std::string("com.example.notes"), &running);
  REQUIRE_FALSE(notes);
  CHECK(notes.error().code == "WEBVIEW_NOT_FOUND");
  CHECK(notes.error().details["appRunning"] == true);
  CHECK(notes.error().message.find("it runs, but shows no debuggable WebView") !=
        std::string::npos);
  const auto absent = choose_socket(sockets, std::string("com.missing"), &running);
  CHECK(absent.error().details["appRunning"] == false);
  CHECK(absent.error().message.find("it is not running") != std::string::npos);

  const auto empty = choose_socket({}, std::nullopt);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == "WEBVIEW_NOT_FOUND");
  // Two processes of one app (a WebView in each): still a choice to make.
  const auto twice = choose_socket({socket_of("webview_devtools_remote_1", 1, "com.a"),
                                    socket_of("webview_devtools_remote_2", 2, "com.a")},
                                   std::string("com.a"));
  REQUIRE_FALSE(twice);
  CHECK(twice.error().code == "WEBVIEW_AMBIGUOUS");
}

TEST_CASE("the page of --page or --url, or the only page", "[webview][choose]") {
  const std::vector<DevtoolsPage> pages = {
      page_of("P1", "https://shop.example/login"), page_of("P2", "https://shop.example/cart"),
      page_of("SW", "https://shop.example/sw.js", "service_worker")};
  CHECK(choose_page(pages, {std::string("P2"), std::nullopt})->id == "P2");
  // An id names any target, a worker's too.
  CHECK(choose_page(pages, {std::string("SW"), std::nullopt})->id == "SW");
  CHECK(choose_page(pages, {std::nullopt, std::string("/login")})->id == "P1");
  // Workers are no pages: one page left is the page.
  CHECK(choose_page({pages[0], pages[2]}, {})->id == "P1");

  const auto several = choose_page(pages, {});
  REQUIRE_FALSE(several);
  check_failure(several.error(), "WEBVIEW_AMBIGUOUS", 1, "not_delivered", "safe");
  CHECK(several.error().details["candidates"].size() == 2);
  CHECK(choose_page(pages, {std::nullopt, std::string("shop.example")}).error().code ==
        "WEBVIEW_AMBIGUOUS");

  const auto missing = choose_page(pages, {std::string("nope"), std::nullopt});
  REQUIRE_FALSE(missing);
  check_failure(missing.error(), "WEBVIEW_PAGE_NOT_FOUND", 1, "not_delivered", "safe");
  CHECK(missing.error().details["pages"].size() == 3);
  CHECK(choose_page(pages, {std::nullopt, std::string("/checkout")}).error().code ==
        "WEBVIEW_PAGE_NOT_FOUND");
  CHECK(choose_page({}, {}).error().code == "WEBVIEW_PAGE_NOT_FOUND");

  DevtoolsPage held = page_of("H", "https://x");
  held.websocket_url.clear();
  const auto busy = choose_page({held}, {});
  REQUIRE_FALSE(busy);
  CHECK(busy.error().code == "WEBVIEW_PAGE_NOT_FOUND");
  CHECK(busy.error().message.find("another DevTools client") != std::string::npos);
}

TEST_CASE("a DevTools failure's code, exit code and disposition", "[webview][errors]") {
  using Kind = CdpFailure::Kind;
  auto failed = [](Kind kind) { return CdpFailure{kind, "what happened", Json::object()}; };
  // A write that may have begun: the outcome is unknown, and not to be repeated blindly.
  check_failure(error_of(failed(Kind::Disconnected), Effect::Write, true), "WEBVIEW_DISCONNECTED",
                4, "delivery_uncertain", "unsafe");
  check_failure(error_of(failed(Kind::TimedOut), Effect::Write, true), "WEBVIEW_TIMEOUT", 4,
                "delivery_uncertain", "unsafe");
  check_failure(error_of(failed(Kind::Protocol), Effect::Write, true), "WEBVIEW_PROTOCOL_ERROR", 4,
                "delivery_uncertain", "unsafe");
  // A read, or a write before its effect: nothing happened, safe again.
  check_failure(error_of(failed(Kind::Disconnected), Effect::Read, false), "WEBVIEW_DISCONNECTED",
                3, "not_delivered", "safe");
  check_failure(error_of(failed(Kind::Disconnected), Effect::Write, false), "WEBVIEW_DISCONNECTED",
                3, "not_delivered", "safe");
  check_failure(error_of(failed(Kind::Unreachable), Effect::Read, false), "WEBVIEW_NOT_FOUND", 3,
                "not_delivered", "safe");
  // A read is always safe to repeat, whatever state it ended in.
  check_failure(error_of(failed(Kind::TimedOut), Effect::Read, true), "WEBVIEW_TIMEOUT", 4,
                "delivery_uncertain", "safe");
  const contract::HostError cancelled = error_of(failed(Kind::Cancelled), Effect::Read, false);
  CHECK(cancelled.code == "RESULT_TRANSPORT_CANCELLED");
}
