// The DevTools client (src/webview/cdp_client.cpp) against a real headless Chromium's browser
// endpoint: answers matched by id past the events the browser sends meanwhile, a DevTools
// error kept as such, the deadline of a connect and of a call, an HTTP answer that is no 200.
#include "clawperator/webview/cdp_client.hpp"

#include <catch2/catch.hpp>

#include "headless_chromium.hpp"
#include "skip.hpp"

using namespace clawperator;
using namespace clawperator::webview;

namespace {

Deadline cdp_test_deadline(int ms = 5000) {
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
}

}  // namespace

TEST_CASE("the DevTools client matches answers by id and skips events",
          "[webview][cdp][chromium][may-skip]") {
  testing::HeadlessChromium browser("about:blank");
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  const Endpoint endpoint{"127.0.0.1", browser.port()};

  auto session = CdpSession::connect(endpoint, browser.browser_path(), cdp_test_deadline(), {});
  REQUIRE(session);
  // Discovery answers, then sends a Target.targetCreated event for each target there is; the
  // next call's answer comes after them.
  REQUIRE(
      (*session)->call("Target.setDiscoverTargets", Json{{"discover", true}}, cdp_test_deadline()));
  const auto targets = (*session)->call("Target.getTargets", Json::object(), cdp_test_deadline());
  REQUIRE(targets);
  CHECK((*targets)["targetInfos"].is_array());
  CHECK_FALSE((*targets)["targetInfos"].empty());

  const auto unknown = (*session)->call("No.suchMethod", Json::object(), cdp_test_deadline());
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().kind == CdpFailure::Kind::Protocol);
  CHECK(unknown.error().details["cdpCode"] == -32601);
  // A refused call leaves the session usable.
  CHECK((*session)->call("Target.getTargets", Json::object(), cdp_test_deadline()));

  const auto version = http_get(endpoint, "/json/version", cdp_test_deadline(), {});
  REQUIRE(version);
  CHECK(parse_json(*version).contains("webSocketDebuggerUrl"));
  const auto missing = http_get(endpoint, "/json/no-such-thing", cdp_test_deadline(), {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == CdpFailure::Kind::Protocol);
}

TEST_CASE("the DevTools client's deadlines and a port nobody listens on",
          "[webview][cdp][chromium][may-skip]") {
  testing::HeadlessChromium browser("about:blank");
  if (!browser.available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  const Endpoint endpoint{"127.0.0.1", browser.port()};
  auto session = CdpSession::connect(endpoint, browser.browser_path(), cdp_test_deadline(), {});
  REQUIRE(session);
  // A deadline already past: the call fails as timed out, and the session is over.
  const auto late =
      (*session)->call("Target.getTargets", Json::object(), std::chrono::steady_clock::now());
  REQUIRE_FALSE(late);
  CHECK(late.error().kind == CdpFailure::Kind::TimedOut);
  const auto after = (*session)->call("Target.getTargets", Json::object(), cdp_test_deadline());
  REQUIRE_FALSE(after);
  CHECK(after.error().kind == CdpFailure::Kind::TimedOut);

  const auto refused = http_get({"127.0.0.1", 1}, "/json/list", cdp_test_deadline(), {});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == CdpFailure::Kind::Unreachable);
  const auto no_address = http_get({"not-an-address", 80}, "/json/list", cdp_test_deadline(), {});
  REQUIRE_FALSE(no_address);
  CHECK(no_address.error().kind == CdpFailure::Kind::Unreachable);
  process::CancelSource source;
  source.cancel();
  const auto cancelled = http_get(endpoint, "/json/list", cdp_test_deadline(), source.token());
  REQUIRE_FALSE(cancelled);
  CHECK(cancelled.error().kind == CdpFailure::Kind::Cancelled);
}
