// `clawperator webview …` through the real adb, the virtual device and the real headless
// Chromium behind its WebView (examples/scenarios/webview-login.json): the sockets found with one
// shell call, the page forwarded, and every subcommand acting in the page as its own
// JavaScript sees it; no forward is left behind by any of them (issue 50).
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "at_terminal.hpp"
#include "farm_fixture.hpp"
#include "skip.hpp"

using namespace clawperator::testing;
using nlohmann::json;

namespace {

bool webview_commands_have_chromium() {
  const char* configured = std::getenv("CLAWPERATOR_VDEVICE_CHROMIUM");
  const std::string program = configured != nullptr && *configured ? configured : "chromium";
  return run_binary("/bin/sh", {"-c", "command -v \"$0\" >/dev/null", program}).exit_code == 0;
}

// The forwards adb holds (`adb forward --list`): none to a localabstract socket once a webview
// command returned (the farm's own adb server may hold others; direct_transport_test.cpp).
std::string webview_commands_forwards(const Farm& farm) {
  return farm.adb({"forward", "--list"}).out;
}

json webview_command_ok(const Farm& farm, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"webview"};
  argv.insert(argv.end(), args.begin(), args.end());
  const RunResult result = farm.clawperator(argv);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const std::string forwards = webview_commands_forwards(farm);
  CAPTURE(forwards);
  CHECK(forwards.find("localabstract") == std::string::npos);
  return single_document(result);
}

}  // namespace

TEST_CASE("webview commands: list, query, type, click, eval, wait and screenshot in a real page",
          "[integration][webview][chromium][may-skip]") {
  if (!webview_commands_have_chromium())
    SKIP_TEST("no Chromium (scripts/install-deps.sh --browser)");
  Farm farm({"webview-login"});

  const json listed = webview_command_ok(farm, {"list"});
  REQUIRE(listed["sockets"].size() == 1);  // the notes app's WebView is not debuggable
  const json& socket = listed["sockets"][0];
  CHECK(socket["package"] == "com.example.shop");
  CHECK(socket["name"] == "webview_devtools_remote_" + std::to_string(socket["pid"].get<int>()));
  REQUIRE(socket["pages"].size() == 1);
  CHECK(socket["pages"][0]["title"] == "Shop login");

  const json query = webview_command_ok(farm, {"query", "input"});
  CHECK(query["count"] == 2);
  // On the screen: inside the WebView's bounds ([0,136][1080,2274] in the scenario).
  for (const json& match : query["matches"]) {
    CHECK(match["bounds"]["screen"]["y"].get<double>() >= 136);
    CHECK(match["bounds"]["screen"]["x"].get<double>() >= 0);
  }

  webview_command_ok(farm, {"type", "#user", "ann"});
  CHECK(webview_command_ok(farm, {"eval", "document.getElementById('user').value"})["value"] ==
        "ann");
  // The page's own click handler ran.
  webview_command_ok(farm, {"click", "#login"});
  CHECK(webview_command_ok(farm,
                           {"eval", "document.getElementById('status').textContent"})["value"] ==
        "Welcome ann");

  // #offers appears and #spinner goes 1.5 s after the load.
  CHECK(webview_command_ok(farm, {"wait", "#offers", "--timeout", "10000"})["count"] == 1);
  webview_command_ok(farm, {"wait", "#spinner", "--gone", "--timeout", "10000"});

  const TemporaryDirectory dir("webview-shot");
  const std::string path = (dir.path() / "page.png").string();
  webview_command_ok(farm, {"screenshot", "--path", path});
  std::ifstream png(path, std::ios::binary);
  std::string head(8, '\0');
  png.read(head.data(), 8);
  CHECK(head == "\x89PNG\r\n\x1a\n");
}

TEST_CASE("webview commands: what is not there is named, with its code and disposition",
          "[integration][webview][chromium][may-skip]") {
  if (!webview_commands_have_chromium())
    SKIP_TEST("no Chromium (scripts/install-deps.sh --browser)");
  Farm farm({"webview-login"});
  // A WebView that is not debuggable has no socket: the hint says how to make it reachable.
  const RunResult notes = farm.clawperator({"webview", "query", "p", "--app", "com.example.notes"});
  const json not_found = expect_error(notes, "WEBVIEW_NOT_FOUND", 3);
  CHECK(not_found["disposition"]["retry"] == "safe");
  CHECK(not_found["hint"].get<std::string>().find("setWebContentsDebuggingEnabled") !=
        std::string::npos);
  // ps, read in the same shell call, tells a running app without one from an app not running.
  CHECK(not_found["details"]["appRunning"] == true);
  CHECK(expect_error(farm.clawperator({"webview", "query", "p", "--app", "com.not.installed"}),
                     "WEBVIEW_NOT_FOUND", 3)["details"]["appRunning"] == false);

  const json missing = expect_error(farm.clawperator({"webview", "click", "#nothing-here"}),
                                    "WEBVIEW_ELEMENT_NOT_FOUND", 1);
  CHECK(missing["disposition"]["delivery"] == "not_delivered");
  expect_error(farm.clawperator({"webview", "click", "input"}), "WEBVIEW_ELEMENT_AMBIGUOUS", 1);
  expect_error(farm.clawperator({"webview", "query", "#x", "--page", "no-such-page"}),
               "WEBVIEW_PAGE_NOT_FOUND", 1);
  // The expression ran up to its exception: delivered, not safe to repeat blindly.
  const RunResult threw =
      farm.clawperator({"webview", "eval", "(() => { throw new Error('boom'); })()"});
  const json thrown = single_document(threw);
  CHECK(threw.exit_code == 1);
  CHECK(thrown["code"] == "WEBVIEW_EVALUATION_FAILED");
  CHECK(thrown["disposition"]["delivery"] == "delivered_verified");
  CHECK(thrown["disposition"]["retry"] == "unsafe");
  CHECK(thrown["details"]["exception"].get<std::string>().find("boom") != std::string::npos);
  expect_error(farm.clawperator({"webview", "wait", "#never", "--timeout", "500"}),
               "WEBVIEW_WAIT_TIMEOUT", 1);
  CHECK(webview_commands_forwards(farm).find("localabstract") == std::string::npos);
}

namespace {

// Deny taps on the shop's "Log in"; ask before typing into anything labelled password.
const char* const kWebviewPolicy = R"({"schemaVersion": 1, "rules": [
  {"id": "no-login", "decision": "deny", "effects": ["tap"], "packages": ["com.example.shop"],
   "labels": ["log in"], "reason": "signing in is a person's call"},
  {"id": "confirm-password", "decision": "confirm", "effects": ["type"],
   "labels": ["password*"], "reason": "typing a password"}]})";

// What the page holds now, read with no policy in the way.
std::string webview_page_value(const Farm& farm, const std::string& expression) {
  const json read = webview_command_ok(farm, {"eval", expression});
  return read["value"].is_string() ? read["value"].get<std::string>() : read["value"].dump();
}

}  // namespace

TEST_CASE("webview commands: the policy judges a click, type or eval by the element's words",
          "[integration][webview][policy][chromium][may-skip]") {
  if (!webview_commands_have_chromium())
    SKIP_TEST("no Chromium (scripts/install-deps.sh --browser)");
  Farm farm({"webview-login"});
  const TemporaryDirectory root("webview-policy");
  const std::string policy = (root.path() / "policy.json").string();
  write_file(policy, kWebviewPolicy);
  const auto guarded = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "webview");
    args.insert(args.end(), {"--policy", policy});
    return args;
  };

  // The button's text, read in the page: denied, and the page's handler never ran.
  const json denied =
      expect_error(farm.clawperator(guarded({"click", "#login"})), "POLICY_DENIED", 3);
  CHECK(denied["details"]["ruleId"] == "no-login");
  CHECK(denied["details"]["step"]["actionType"] == "click");
  CHECK(denied["details"]["step"]["package"] == "com.example.shop");
  const json labels = denied["details"]["step"]["labels"];
  CHECK(std::find(labels.begin(), labels.end(), json("Log in")) != labels.end());
  CHECK(denied["disposition"]["delivery"] == "not_delivered");
  CHECK(webview_page_value(farm, "document.getElementById('status').textContent") == "");
  // An eval could click it too: judged as a tap and a typing on an unknown target.
  expect_error(farm.clawperator(guarded({"eval", "document.title"})), "POLICY_DENIED", 3);

  // Typing elsewhere is allowed; into the password field, a person must confirm.
  CHECK(farm.clawperator(guarded({"type", "#user", "ann"})).exit_code == 0);
  const json asked = expect_error(farm.clawperator(guarded({"type", "#password", "s3cret"})),
                                  "CONFIRMATION_REQUIRED", 3);
  CHECK(asked["details"]["ruleId"] == "confirm-password");
  const std::string id = asked["details"]["approvalId"];
  CHECK(webview_page_value(farm, "document.getElementById('password').value") == "");

  // A person approves at a terminal; the identical call then runs once.
  AtTerminal approved = at_terminal(farm, {"approve", id}, {"y"});
  INFO(approved.terminal);
  REQUIRE(approved.run.exit_code == 0);
  CHECK(approved.terminal.find("enter_text on") != std::string::npos);
  std::vector<std::string> confirmed = guarded({"type", "#password", "s3cret"});
  confirmed.insert(confirmed.end(), {"--confirm", id});
  CHECK(farm.clawperator(confirmed).exit_code == 0);
  CHECK(webview_page_value(farm, "document.getElementById('password').value") == "s3cret");
  expect_error(farm.clawperator(confirmed), "CONFIRMATION_UNKNOWN", 3);

  // A person at this command's own terminal is asked there; no answers "no".
  AtTerminal declined = at_terminal(farm, guarded({"type", "#password", "x", "--clear"}), {"n"});
  expect_error(declined.run, "CONFIRMATION_DECLINED", 3);
  CHECK(declined.terminal.find("Rule confirm-password: typing a password") != std::string::npos);
  CHECK(webview_page_value(farm, "document.getElementById('password').value") == "s3cret");
  CHECK(webview_commands_forwards(farm).find("localabstract") == std::string::npos);
}

TEST_CASE("webview commands: a page that closes mid-call, and Ctrl-C mid-wait, leave no forward",
          "[integration][webview][chromium][may-skip]") {
  if (!webview_commands_have_chromium())
    SKIP_TEST("no Chromium (scripts/install-deps.sh --browser)");
  Farm farm({"webview-login"});
  farm.set_env("CLAWPERATOR_LOG_LEVEL", "debug");

  // Ctrl-C while the wait polls the page: signalled once adb made the forward (its completion in
  // the run's log) and the wait had a moment to attach.
  RunOptions interrupted = farm.environment();
  interrupted.signal = SIGINT;
  interrupted.signal_after_ms = 20000;
  std::optional<std::chrono::steady_clock::time_point> forwarded;
  interrupted.signal_when = [&](const std::string&) {
    if (!forwarded && farm.logged_count("adb.complete", "localabstract:") > 0)
      forwarded = std::chrono::steady_clock::now();
    return forwarded && std::chrono::steady_clock::now() - *forwarded > std::chrono::seconds(1);
  };
  const auto started = std::chrono::steady_clock::now();
  const RunResult cancelled =
      run_binary(kBinary, {"webview", "wait", "#never", "--timeout", "60000"}, interrupted);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  CHECK(forwarded.has_value());
  const json stopped = expect_error(cancelled, "RESULT_TRANSPORT_CANCELLED", 130);
  CHECK(stopped["disposition"]["retry"] == "safe");  // a wait only read the page
  CHECK(webview_commands_forwards(farm).find("localabstract") == std::string::npos);

  // The page closes itself while an evaluation waits for its promise: the call ends at once with
  // the disconnection, whose click or type may have happened, and forwards nothing more.
  const auto closing = std::chrono::steady_clock::now();
  const RunResult gone = farm.clawperator(
      {"webview", "eval", "new Promise(() => setTimeout(() => window.close(), 300))", "--timeout",
       "60000"});
  CHECK(std::chrono::steady_clock::now() - closing < std::chrono::seconds(20));
  const json disconnected = single_document(gone);
  CHECK(disconnected["code"] == "WEBVIEW_DISCONNECTED");
  CHECK(gone.exit_code == 4);
  CHECK(disconnected["disposition"]["delivery"] == "delivery_uncertain");
  CHECK(disconnected["disposition"]["retry"] == "unsafe");
  CHECK(webview_commands_forwards(farm).find("localabstract") == std::string::npos);

  // The socket is still there, with no page: the next call says so, and how to get one.
  const json listed = webview_command_ok(farm, {"list"});
  REQUIRE(listed["sockets"].size() == 1);
  CHECK(listed["sockets"][0]["pages"].empty());
  const json none =
      expect_error(farm.clawperator({"webview", "query", "input"}), "WEBVIEW_PAGE_NOT_FOUND", 1);
  CHECK(none["hint"].get<std::string>().find("shows no page") != std::string::npos);
  CHECK(webview_commands_forwards(farm).find("localabstract") == std::string::npos);
}
