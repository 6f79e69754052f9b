// `clawperator webview …` through the built binary, without a device: the usage rules, each
// refused before any adb call (docs/webview.md §4). The operations themselves:
// tests/unit/service/webview_test.cpp (a real headless Chromium).
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "headless_chromium.hpp"
#include "run_binary.hpp"
#include "skip.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using nlohmann::json;

namespace {

// An adb that cannot run: a usage error must come first, and anything past it says so.
RunOptions webview_without_adb() {
  RunOptions options;
  options.extra_env = {{"ADB", "/nonexistent/adb"}};
  return options;
}

json webview_usage(std::vector<std::string> words) {
  words.insert(words.begin(), "webview");
  return expect_error(run_binary(kBinary, words, webview_without_adb()), "USAGE", 2);
}

}  // namespace

TEST_CASE("webview: a missing or unknown word is a usage error", "[cli][webview]") {
  CHECK(webview_usage({})["message"] ==
        "webview needs one of list|query|click|type|eval|wait|screenshot");
  const json unknown = webview_usage({"tap"});
  CHECK(unknown["details"]["argument"] == "tap");
  CHECK(unknown["message"].get<std::string>().find("not 'tap'") != std::string::npos);
}

TEST_CASE("webview: each word's arguments are counted", "[cli][webview]") {
  for (const char* word : {"query", "click", "wait", "eval"}) {
    INFO(word);
    CHECK(webview_usage({word})["message"].get<std::string>().rfind("Missing argument: webview ",
                                                                    0) == 0);
  }
  CHECK(webview_usage({"type", "#email"})["message"] ==
        "Missing argument: webview type CSS TEXT [--clear]");
  CHECK(webview_usage({"query", "a", "b"})["details"]["argument"] == "b");
  CHECK(webview_usage({"list", "extra"})["details"]["argument"] == "extra");
  CHECK(webview_usage({"screenshot", "x.png"})["details"]["argument"] == "x.png");
  CHECK(webview_usage({"click", "  "})["message"].get<std::string>().find("blank") !=
        std::string::npos);
}

TEST_CASE("webview: a flag of another word, or both choices of a page, is refused by name",
          "[cli][webview]") {
  CHECK(webview_usage({"query", "a", "--page", "P", "--url", "x"})["details"]["flag"] == "--url");
  CHECK(webview_usage({"click", "a", "--clear"})["details"]["flag"] == "--clear");
  CHECK(webview_usage({"query", "a", "--gone"})["details"]["flag"] == "--gone");
  CHECK(webview_usage({"eval", "1", "--path", "x.png"})["details"]["flag"] == "--path");
  CHECK(webview_usage({"list", "--page", "P"})["details"]["flag"] == "--page");
  CHECK(webview_usage({"list", "--app", ""})["details"]["flag"] == "--app");
  CHECK(webview_usage({"wait", "a", "--timeout", "0"})["details"]["flag"] == "--timeout");
  CHECK(webview_usage({"wait", "a", "--timeout", "soon"})["details"]["flag"] == "--timeout");
}

TEST_CASE("webview: past the usage rules it needs adb", "[cli][webview]") {
  // Every check above came before any adb call; a valid command reaches adb, here missing.
  const json missing = expect_error(run_binary(kBinary, {"webview", "list"}, webview_without_adb()),
                                    "ADB_NOT_FOUND", 3);
  CHECK(missing["details"]["phase"] == "readiness");
  CHECK(expect_error(run_binary(kBinary, {"webview", "wait", ".x", "--gone", "--timeout", "500"},
                                webview_without_adb()),
                     "ADB_NOT_FOUND", 3)["ok"] == false);
}

namespace {

// An adb that lists one debuggable WebView (com.example.shop, pid 4321) and forwards its socket
// to a headless Chromium's port, keeping a record of each forward made and removed: the whole
// adb path of the binary, with a real DevTools endpoint behind it.
constexpr const char* kWebviewAdb = R"(#!/bin/sh
echo "$*" >> "$FAKE_WEBVIEW_DIR/adb.log"
if [ "$1" = "-s" ]; then shift 2; fi
case "$1" in
  shell)
    printf 'Num       RefCount Protocol Flags    Type St Inode Path\n'
    printf '0000000000000000: 00000002 00000000 00010000 0001 01 81234 @webview_devtools_remote_4321\n'
    printf '  PID NAME\n 4321 com.example.shop\n'
    printf 'clawperator-exit:0\n' ;;
  forward)
    if [ "$2" = "--remove" ]; then echo "$3" >> "$FAKE_WEBVIEW_DIR/removed"; exit 0; fi
    echo "$2 $3" >> "$FAKE_WEBVIEW_DIR/forwarded"
    if [ -n "$FAKE_WEBVIEW_FORWARD_DELAY" ]; then sleep "$FAKE_WEBVIEW_FORWARD_DELAY"; fi
    echo "$FAKE_WEBVIEW_PORT"
    : > "$FAKE_WEBVIEW_DIR/port-given" ;;
  *) echo "unexpected: $*" >&2; exit 1 ;;
esac
)";

constexpr const char* kShopPage =
    "<!doctype html><title>Shop</title><p class=item>one</p><p class=item>two</p>"
    "<script>document.body.dataset.ready = 'yes';</script>";

struct WebviewDevice {
  clawperator::testing::TemporaryDirectory dir{"webview-cli"};
  std::unique_ptr<clawperator::testing::HeadlessChromium> browser;
  RunOptions options;
  WebviewDevice() {
    clawperator::testing::write_file(dir.path() / "shop.html", kShopPage);
    clawperator::testing::write_file(dir.path() / "adb", kWebviewAdb);
    std::filesystem::permissions(dir.path() / "adb", std::filesystem::perms::owner_all);
    browser = std::make_unique<clawperator::testing::HeadlessChromium>(
        "file://" + (dir.path() / "shop.html").string());
    if (!browser->available()) return;
    options.extra_env = {{"ADB", (dir.path() / "adb").string()},
                         {"FAKE_WEBVIEW_DIR", dir.path().string()},
                         {"FAKE_WEBVIEW_PORT", std::to_string(browser->port())}};
  }
  std::string read(const char* name) const {
    return clawperator::testing::read_whole_file(dir.path() / name);
  }
  std::string port_word() const { return "tcp:" + std::to_string(browser->port()); }
};

}  // namespace

TEST_CASE("webview through adb: the socket listed, forwarded and the forward removed",
          "[cli][webview][chromium][may-skip]") {
  WebviewDevice device;
  if (!device.browser->available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
  const auto loaded = run_binary(
      kBinary, {"webview", "wait", "body[data-ready=yes]", "--device", "FAKE1"}, device.options);
  REQUIRE(loaded.exit_code == 0);

  const auto queried = run_binary(
      kBinary, {"webview", "query", "p.item", "--device", "FAKE1", "--app", "com.example.shop"},
      device.options);
  INFO(queried.out << queried.err);
  REQUIRE(queried.exit_code == 0);
  const json document = json::parse(queried.out);
  CHECK(document["count"] == 2);
  CHECK(document["deviceId"] == "FAKE1");
  CHECK(document["socket"]["package"] == "com.example.shop");
  CHECK(document["socket"]["pid"] == 4321);
  CHECK(document["page"]["title"] == "Shop");
  // One forward per call, each removed.
  CHECK(device.read("forwarded") ==
        "tcp:0 localabstract:webview_devtools_remote_4321\n"
        "tcp:0 localabstract:webview_devtools_remote_4321\n");
  CHECK(device.read("removed") == device.port_word() + "\n" + device.port_word() + "\n");

  const auto listed = run_binary(kBinary, {"webview", "list", "--device", "FAKE1"}, device.options);
  REQUIRE(listed.exit_code == 0);
  const json sockets = json::parse(listed.out)["sockets"];
  REQUIRE(sockets.size() == 1);
  CHECK(sockets[0]["name"] == "webview_devtools_remote_4321");
  CHECK(sockets[0]["pages"].is_array());

  // Another app: nothing to forward.
  const json missing = expect_error(
      run_binary(kBinary, {"webview", "query", "p", "--device", "FAKE1", "--app", "com.other"},
                 device.options),
      "WEBVIEW_NOT_FOUND", 3);
  CHECK(missing["details"]["sockets"][0]["package"] == "com.example.shop");
  CHECK(missing["hint"].get<std::string>().find("setWebContentsDebuggingEnabled") !=
        std::string::npos);
  // The wait, the query and the list each removed theirs; the refused call forwarded nothing.
  CHECK(device.read("removed") ==
        device.port_word() + "\n" + device.port_word() + "\n" + device.port_word() + "\n");
}

TEST_CASE("webview through adb: Ctrl-C or SIGTERM mid-wait still removes the forward",
          "[cli][webview][chromium][may-skip]") {
  // Mid-wait: the port was given. Mid-forward: adb has made the forward and not yet printed its
  // port; the call runs to its end (AdbClient::forward_abstract), so the port is known to remove.
  struct Moment {
    const char* name;
    const char* marker;
    const char* forward_delay;
  };
  for (const Moment moment :
       {Moment{"mid-wait", "port-given", ""}, Moment{"mid-forward", "forwarded", "1"}}) {
    for (const auto& [signal, exit_code] : {std::pair{SIGINT, 130}, std::pair{SIGTERM, 143}}) {
      INFO(moment.name << ", signal " << signal);
      WebviewDevice device;
      if (!device.browser->available()) SKIP_TEST("no headless Chromium at /usr/bin/chromium");
      RunOptions interrupted = device.options;
      interrupted.extra_env["FAKE_WEBVIEW_FORWARD_DELAY"] = moment.forward_delay;
      interrupted.signal = signal;
      interrupted.signal_when_exists = (device.dir.path() / moment.marker).string();
      interrupted.signal_after_ms = 10000;
      const auto started = std::chrono::steady_clock::now();
      const auto result = run_binary(
          kBinary, {"webview", "wait", "#never", "--device", "FAKE1", "--timeout", "30000"},
          interrupted);
      CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(15));
      CHECK(result.exit_code == exit_code);
      const json document = json::parse(result.out);
      CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
      CHECK(device.read("removed") == device.port_word() + "\n");
    }
  }
}
