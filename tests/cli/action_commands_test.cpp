// The device-interaction commands through the built binary: the execution each
// one builds (seen with --validate-only and --dry-run, no device), and the
// original's error for each flag rule, with exit 2.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

std::vector<std::string> with(std::vector<std::string> args, const std::string& flag) {
  args.push_back(flag);
  return args;
}

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& arg : args) out += (out.empty() ? "" : " ") + arg;
  return out;
}

// The one-step execution a command builds, with the ids it must carry.
struct Expected {
  std::vector<std::string> args;
  std::string id;       // regex of commandId
  std::string task_id;  // exact; empty when it is the commandId
  std::string source;
  bool direct = false;  // mode "direct"
  double timeout_ms = 30000;
  std::string action;  // the action, as JSON
};

void check_built(const Expected& expected) {
  CAPTURE(joined(expected.args));
  const RunResult validated = run_binary(kBinary, with(expected.args, "--validate-only"));
  const json document = single_document(validated);
  CHECK(validated.exit_code == 0);
  REQUIRE(document["validated"] == true);
  const json& execution = document["execution"];
  const std::string command_id = execution["commandId"];
  CHECK(std::regex_match(command_id, std::regex(expected.id)));
  CHECK(execution["taskId"] == (expected.task_id.empty() ? command_id : expected.task_id));
  CHECK(execution["source"] == expected.source);
  CHECK(execution["expectedFormat"] == "android-ui-automator");
  CHECK(execution["timeoutMs"] == expected.timeout_ms);
  CHECK(execution.contains("mode") == expected.direct);
  if (expected.direct) CHECK(execution["mode"] == "direct");
  REQUIRE(execution["actions"].size() == 1);
  CHECK(execution["actions"][0] == json::parse(expected.action));

  const RunResult dry = run_binary(kBinary, with(expected.args, "--dry-run"));
  const json plan = single_document(dry)["plan"];
  CHECK(dry.exit_code == 0);
  CHECK(std::regex_match(plan["commandId"].get<std::string>(), std::regex(expected.id)));
  CHECK(plan["timeoutMs"] == expected.timeout_ms);
  CHECK(plan["actionCount"] == 1);
  CHECK(plan["actions"][0] == json::parse(expected.action));
}

const std::string kStamped = R"(-[0-9a-f]{32})";

std::string stamped(const std::string& prefix) {
  return prefix + kStamped;
}

// A flag rule: the error, its code and message, exit 2, nothing sent.
struct Misuse {
  std::vector<std::string> args;
  std::string code;
  std::string message;
};

void check_misuse(const Misuse& misuse, const std::string& phase = "usage") {
  CAPTURE(joined(misuse.args));
  const json document = expect_error(run_binary(kBinary, misuse.args), misuse.code, 2);
  CHECK(document["message"] == misuse.message);
  CHECK(document["details"]["phase"] == phase);
}

const std::string kSelectorChoices =
    "  --text <text>           Exact visible text\n"
    "  --text-contains <text>  Partial text match\n"
    "  --id <resource-id>      Android resource ID\n"
    "  --desc <text>           Content description\n"
    "  --desc-contains <text>  Partial content description\n"
    "  --role <role>           Element role\n";

std::string missing_selector(const std::string& command, bool coordinate) {
  return command + " requires a selector.\n\nUse one of:\n" + kSelectorChoices +
         (coordinate ? "  --coordinate <x> <y>    Exact coordinates (pixels)\n" : "") +
         "  --selector <json>       Raw JSON (advanced)\n\nExamples:\n  clawperator " + command +
         " --text \"Wi-Fi\"\n  clawperator " + command + " --id \"button_submit\"";
}

RunOptions fake_adb_environment(const std::string& dir) {
  RunOptions options;
  options.extra_env = {{"ADB", FAKE_ADB},
                       {"FAKE_ADB_DIR", dir},
                       {"CLAWPERATOR_STATE_DIR", dir + "/state"},
                       {"CLAWPERATOR_LOG_DIR", dir + "/logs"}};
  return options;
}

}  // namespace

TEST_CASE("snapshot and screenshot build observe executions", "[cli][actions]") {
  check_built({{"snapshot"},
               stamped("snapshot"),
               "",
               "clawperator-observe",
               true,
               30000,
               R"({"id":"snap","type":"snapshot"})"});
  // The global --timeout overrides the snapshot's execution timeout.
  check_built({{"snapshot", "--timeout", "9000"},
               stamped("snapshot"),
               "",
               "clawperator-observe",
               true,
               9000,
               R"({"id":"snap","type":"snapshot"})"});
  check_built({{"screenshot"},
               stamped("screenshot"),
               "",
               "clawperator-observe",
               false,
               30000,
               R"({"id":"snap","type":"take_screenshot","params":{}})"});
  check_built({{"screenshot", "--path", "/tmp/s.png", "--timeout", "5000"},
               stamped("screenshot"),
               "",
               "clawperator-observe",
               false,
               5000,
               R"({"id":"snap","type":"take_screenshot","params":{"path":"/tmp/s.png"}})"});
}

TEST_CASE("click and tap build a click", "[cli][actions]") {
  const auto click = [](std::vector<std::string> args, const std::string& params) {
    check_built({std::move(args), stamped("click"), "", "clawperator-action", true, 30000,
                 R"({"id":"click","type":"click","params":)" + params + "}"});
  };
  click({"click", "--text", "OK"}, R"({"matcher":{"textEquals":"OK"}})");
  click({"tap", "--coordinate", "540", "1200", "--long"},
        R"({"coordinate":{"x":540,"y":1200},"clickType":"long_click"})");
  click({"click", "--selector", R"({"resourceId":"a:id/b"})", "--focus"},
        R"({"matcher":{"resourceId":"a:id/b"},"clickType":"focus"})");
  click({"click", "--role", "button", "--desc-contains", "Wi"},
        R"({"matcher":{"role":"button","contentDescContains":"Wi"}})");
}

TEST_CASE("open builds open_app or open_uri", "[cli][actions]") {
  check_built(
      {{"open", "com.android.settings"},
       R"(open_app_[0-9a-f]{32})",
       "cli-action-open-app",
       "clawperator-cli",
       false,
       15000,
       R"({"id":"a1","type":"open_app","params":{"applicationId":"com.android.settings"}})"});
  check_built({{"open-url", "--app", "https://example.com"},
               R"(open_uri_[0-9a-f]{32})",
               "cli-action-open-uri",
               "clawperator-cli",
               false,
               15000,
               R"({"id":"a1","type":"open_uri","params":{"uri":"https://example.com"}})"});
  // A leading scheme: is a URI too (a package never holds ':'); the original opened an app.
  check_built({{"open-uri", "tel:123"},
               R"(open_uri_[0-9a-f]{32})",
               "cli-action-open-uri",
               "clawperator-cli",
               false,
               15000,
               R"({"id":"a1","type":"open_uri","params":{"uri":"tel:123"}})"});
}

TEST_CASE("open of any scheme: target opens a URI", "[cli][actions]") {
  for (const char* target : {"tel:123", "mailto:a@b.c", "geo:0,0?q=cafe", "https://example.com"}) {
    CAPTURE(target);
    const RunResult result = run_binary(kBinary, {"open", target, "--validate-only"});
    CHECK(result.exit_code == 0);
    const json action = single_document(result)["execution"]["actions"][0];
    CHECK(action["type"] == "open_uri");
    CHECK(action["params"]["uri"] == target);
  }
  const json app = single_document(
      run_binary(kBinary, {"open", "com.android.settings", "--validate-only"}))["execution"];
  CHECK(app["actions"][0]["type"] == "open_app");
}

TEST_CASE("type and fill build enter_text", "[cli][actions]") {
  check_built({{"type", "hello world", "--role", "textfield", "--submit"},
               stamped("type"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"type","type":"enter_text","params":{"matcher":{"role":"textfield"},
                   "text":"hello world","submit":true,"clear":false}})"});
  // --text is the text, not a selector.
  check_built({{"fill", "--text", "hi", "--text-contains", "Search", "--clear"},
               stamped("type"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"type","type":"enter_text","params":{"matcher":{"textContains":"Search"},
                   "text":"hi","submit":false,"clear":true}})"});
}

TEST_CASE("read, wait and read-value build their reads", "[cli][actions]") {
  check_built({{"read", "--id", "a:id/b", "--container-text", "Box", "--all", "--json"},
               stamped("read"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"read","type":"read_text","params":{"matcher":{"resourceId":"a:id/b"},
                   "container":{"textEquals":"Box"},"all":true}})"});
  check_built(
      {{"wait", "--text", "Done"},
       stamped("wait"),
       "",
       "clawperator-action",
       true,
       30000,
       R"({"id":"wait","type":"wait_for_node","params":{"matcher":{"textEquals":"Done"}}})"});
  // For wait, --timeout is the wait; the execution gets 5 s more.
  check_built({{"wait", "--desc", "Spinner", "--timeout", "40000"},
               stamped("wait"),
               "",
               "clawperator-action",
               true,
               45000,
               R"({"id":"wait","type":"wait_for_node",
                   "params":{"matcher":{"contentDescEquals":"Spinner"},"timeoutMs":40000}})"});
  check_built({{"read-value", "--label", "Battery", "--label-id", "a:id/l"},
               stamped("read-value"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"read-value","type":"read_key_value_pair",
                   "params":{"labelMatcher":{"textEquals":"Battery","resourceId":"a:id/l"}}})"});
  check_built(
      {{"read-kv", "--label-desc", "Temp", "--all", "--output", "json", "--timeout", "9000"},
       stamped("read-value"),
       "",
       "clawperator-action",
       true,
       9000,
       R"({"id":"read-value","type":"read_key_value_pair",
                   "params":{"labelMatcher":{"contentDescEquals":"Temp"},"all":true}})"});
}

TEST_CASE("wait-for-nav builds wait_for_navigation", "[cli][actions]") {
  check_built({{"wait-for-nav", "--app", "com.x", "--timeout", "5000"},
               stamped("wait-for-nav"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"wait-for-nav","type":"wait_for_navigation",
                   "params":{"expectedPackage":"com.x","timeoutMs":5000}})"});
  check_built({{"wait-for-navigation", "--text", "Home", "--timeout", "30000"},
               stamped("wait-for-nav"),
               "",
               "clawperator-action",
               true,
               35000,
               R"({"id":"wait-for-nav","type":"wait_for_navigation",
                   "params":{"expectedNode":{"textEquals":"Home"},"timeoutMs":30000}})"});
}

TEST_CASE("press, back and close build key presses and force-stops", "[cli][actions]") {
  const auto key = [](std::vector<std::string> args, const std::string& name) {
    check_built({std::move(args), R"(press_key_[0-9a-f]{32})", "cli-action-press-key",
                 "clawperator-cli", false, 10000,
                 R"({"id":"a1","type":"press_key","params":{"key":")" + name + R"("}})"});
  };
  key({"press", "home"}, "home");
  key({"press-key", "--key", "recents"}, "recents");
  key({"back"}, "back");
  // The global --timeout is the budget of press too (the original ignored it).
  check_built({{"press", "back", "--timeout", "50000"},
               R"(press_key_[0-9a-f]{32})",
               "cli-action-press-key",
               "clawperator-cli",
               false,
               50000,
               R"({"id":"a1","type":"press_key","params":{"key":"back"}})"});

  check_built({{"close", "com.x"},
               stamped("close"),
               "",
               "clawperator-cli",
               false,
               30000,
               R"({"id":"close","type":"close_app","params":{"applicationId":"com.x"}})"});
  check_built({{"close-app", "--app", "com.x", "--timeout", "5000"},
               stamped("close"),
               "",
               "clawperator-cli",
               false,
               5000,
               R"({"id":"close","type":"close_app","params":{"applicationId":"com.x"}})"});
}

TEST_CASE("sleep gives the execution room for the pause", "[cli][actions]") {
  const auto sleep = [](std::vector<std::string> args, double timeout, const std::string& ms) {
    check_built({std::move(args), stamped("sleep"), "", "clawperator-cli", false, timeout,
                 R"({"id":"sleep","type":"sleep","params":{"durationMs":)" + ms + "}}"});
  };
  sleep({"sleep", "2000"}, 30000, "2000");
  sleep({"sleep", "60000"}, 65000, "60000");
  sleep({"sleep", "60000", "--timeout", "90000"}, 90000, "60000");
  sleep({"sleep", "0"}, 30000, "0");
}

TEST_CASE("scroll, scroll-until and scroll-and-click", "[cli][actions]") {
  check_built({{"scroll", "down"},
               stamped("scroll"),
               "cli-action-scroll",
               "clawperator-cli",
               false,
               30000,
               R"({"id":"a1","type":"scroll","params":{"direction":"down"}})"});
  check_built({{"scroll", "--direction", "up", "--container-id", "list", "--timeout", "7000"},
               stamped("scroll"),
               "cli-action-scroll",
               "clawperator-cli",
               false,
               7000,
               R"({"id":"a1","type":"scroll",
                   "params":{"direction":"up","container":{"resourceId":"list"}}})"});
  check_built({{"scroll-until", "--text", "About"},
               stamped("scroll-until"),
               "",
               "clawperator-cli",
               false,
               30000,
               R"({"id":"a1","type":"scroll_until",
                   "params":{"direction":"down","matcher":{"textEquals":"About"}}})"});
  check_built({{"scroll-until", "up", "--text", "About", "--click", "--container-role", "list",
                "--timeout", "8000"},
               stamped("scroll-until"),
               "",
               "clawperator-cli",
               false,
               8000,
               R"({"id":"a1","type":"scroll_and_click",
                   "params":{"direction":"up","matcher":{"textEquals":"About"},
                             "container":{"role":"list"},"clickAfter":true}})"});
  check_built({{"scroll-and-click", "--direction", "left", "--id", "a:id/x"},
               stamped("scroll-until"),
               "",
               "clawperator-cli",
               false,
               30000,
               R"({"id":"a1","type":"scroll_and_click",
                   "params":{"direction":"left","matcher":{"resourceId":"a:id/x"},
                             "clickAfter":true}})"});
}

TEST_CASE("selector flag rules", "[cli][actions][usage]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  for (const Misuse& misuse : std::vector<Misuse>{
           {{"click"}, "MISSING_SELECTOR", missing_selector("click", true)},
           {{"read"}, "MISSING_SELECTOR", missing_selector("read", false)},
           {{"wait"}, "MISSING_SELECTOR", missing_selector("wait", false)},
           {{"scroll-until"}, "MISSING_SELECTOR", missing_selector("scroll-until", false)},
           {{"scroll-and-click", "up"},
            "MISSING_SELECTOR",
            missing_selector("scroll-and-click", false)},
           {{"click", "--text"}, invalid, "--text requires a value"},
           {{"click", "--role", "--long"}, invalid, "--role requires a value"},
           {{"click", "--text", "-5"}, invalid, "--text requires a value"},
           {{"click", "--text", "a", "--text", "b"},
            invalid,
            "--text must not appear more than once"},
           {{"click", "--id", ""}, invalid, "--id value must not be blank"},
           {{"click", "--selector", R"({"textEquals":"x"})", "--role", "b"},
            invalid,
            "use --selector OR the simple flags, not both"},
           {{"click", "--selector", " "}, invalid, "--selector value must not be blank"},
           {{"click", "--selector", "{"}, invalid, "--selector must be valid JSON"},
           {{"click", "--selector", "[]"}, invalid, "--selector must be a JSON object"},
           {{"read", "--text", "a", "--container-selector", "{}", "--container-id", "l"},
            invalid,
            "use --container-selector OR the --container-* flags, not both"},
           {{"read", "--text", "a", "--container-text", ""},
            invalid,
            "--container-text value must not be blank"},
           {{"scroll", "down", "--container-role"}, invalid, "--container-role requires a value"},
           {{"scroll-until", "--text", "a", "--container-id", "x", "--container-id", "y"},
            invalid,
            "--container-id must not appear more than once"},
       }) {
    check_misuse(misuse);
  }
}

TEST_CASE("click, open and type flag rules", "[cli][actions][usage]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  for (const Misuse& misuse : std::vector<Misuse>{
           {{"click", "--coordinate", "1", "2", "--coordinate", "3", "4"},
            invalid,
            "--coordinate must not appear more than once"},
           {{"click", "--coordinate", "5"},
            invalid,
            "--coordinate requires two non-negative integers (x y)"},
           {{"click", "--coordinate", "5", "-1"},
            invalid,
            "--coordinate requires two non-negative integers (x y)"},
           {{"click", "--coordinate", "1.5", "2"},
            invalid,
            "--coordinate requires two non-negative integers (x y)"},
           {{"click", "--coordinate", "1", "2", "--text", "a"},
            invalid,
            "use --coordinate OR a selector, not both"},
           {{"click", "--text", "a", "--long", "--focus"},
            invalid,
            "--long and --focus are mutually exclusive.\n\nUse --long for a long press, or "
            "--focus to set input focus."},
           {{"click", "--coordinate", "1", "2", "--focus"},
            invalid,
            "--focus is not supported with --coordinate"},
           {{"open"},
            "MISSING_ARGUMENT",
            "open requires a target.\n\nUsage:\n"
            "  clawperator open <package-id>       Open an Android app\n"
            "  clawperator open <url>              Open a URL in browser\n"
            "  clawperator open <uri>              Open a deep link\n\n"
            "Examples:\n  clawperator open com.android.settings\n"
            "  clawperator open https://example.com"},
           {{"open", "--app", "a", "b"},
            invalid,
            "open: pass the target as a positional argument or via --app, not both.\n\nSee: "
            "clawperator open --help"},
           {{"open", "--app", "a", "--app", "b"}, invalid, "--app must not appear more than once"},
           {{"type", "hello", "--text", "hi", "--id", "x"},
            invalid,
            "type: pass text as a positional argument or via --text, not both.\n\nSee: "
            "clawperator type --help"},
           {{"type", "--id", "x"},
            "MISSING_ARGUMENT",
            "type requires text to type. Pass text as a positional argument or via --text "
            "<text>."},
           {{"type", "hello", "--text-contains"}, invalid, "--text-contains requires a value"},
           {{"type", "hello"},
            "MISSING_SELECTOR",
            "type requires a selector.\nUse one of:\n"
            "  --id <resource-id>      Android resource ID\n"
            "  --desc <text>           Content description\n"
            "  --desc-contains <text>  Partial content description\n"
            "  --role <role>           Element role\n"
            "  --text-contains <text>  Partial text match\n"
            "  --selector <json>       Raw JSON (advanced)\n"
            "Example:\n  clawperator type \"hello\" --role textfield"},
       }) {
    check_misuse(misuse);
  }
}

// The output is JSON in every format (pretty indents it), so --all needs no format asked for.
TEST_CASE("read --all and read-value --all work with the default output", "[cli][actions]") {
  check_built({{"read", "--text", "Price", "--all"},
               stamped("read"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"read","type":"read_text",
                   "params":{"matcher":{"textEquals":"Price"},"all":true}})"});
  check_built({{"read-value", "--label", "Battery", "--all"},
               stamped("read-value"),
               "",
               "clawperator-action",
               true,
               30000,
               R"({"id":"read-value","type":"read_key_value_pair",
                   "params":{"labelMatcher":{"textEquals":"Battery"},"all":true}})"});
  for (const std::string& command : {std::string("read"), std::string("read-value")}) {
    const std::string flag = command == "read" ? "--text" : "--label";
    const RunResult pretty =
        run_binary(kBinary, {command, flag, "X", "--all", "--output", "pretty", "--validate-only"});
    CAPTURE(command, pretty.out);
    CHECK(pretty.exit_code == 0);
    const json document = json::parse(pretty.out, nullptr, false);
    REQUIRE(document.is_object());
    CHECK(document["execution"]["actions"][0]["params"]["all"] == true);
  }
}

// Blank is JavaScript's white space too (NBSP, U+3000, ...), and a blank matcher field is
// refused, not sent for the Operator to ignore (docs/payload.md §3).
TEST_CASE("blank flag values and matcher fields are refused", "[cli][actions][blank]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  const std::string nbsp = "\xc2\xa0";
  const std::string ideographic = "\xe3\x80\x80";
  check_misuse({{"click", "--text", nbsp}, invalid, "--text value must not be blank"});
  check_misuse({{"read", "--id", "a:id/b", "--container-desc", ideographic},
                invalid,
                "--container-desc value must not be blank"});
  check_misuse({{"read-value", "--label", nbsp + ideographic},
                invalid,
                "read-value --label value must not be empty"});
  const json document = expect_error(
      run_binary(kBinary, {"click", "--selector", R"({"role":"button","textEquals":" \u3000"})"}),
      invalid, 2);
  CHECK(document["message"] == "textEquals must not be blank: omit it to leave it open");
  CHECK(document["details"]["path"] == "actions.0.params.matcher.textEquals");
  CHECK(document["details"]["phase"] == "validation");
  const json toast =
      expect_error(run_binary(kBinary, {"toast", nbsp + "\n" + ideographic}), invalid, 2);
  CHECK(toast["message"] == "show_toast requires params.text");
}

TEST_CASE("wait and wait-for-nav --timeout rules", "[cli][actions][usage]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  for (const char* timeout : {"0", "-5", "soon"}) {
    check_misuse({{"wait", "--text", "a", "--timeout", timeout},
                  invalid,
                  "--timeout must be a positive number of milliseconds when specified. Omit "
                  "--timeout to use the default wait cap."});
  }
  const std::string usage =
      "\n\nUsage:\n  clawperator wait-for-nav --app <package> --timeout <ms>\n"
      "  clawperator wait-for-nav --text <text> --timeout <ms>\n\nExample:\n"
      "  clawperator wait-for-nav --app com.google.home --timeout 5000";
  for (const Misuse& misuse : std::vector<Misuse>{
           {{"wait-for-nav", "--app", "com.x"},
            "MISSING_ARGUMENT",
            "wait-for-nav requires --timeout <ms>." + usage},
           {{"wait-for-nav", "--timeout", "5000"},
            "MISSING_ARGUMENT",
            "wait-for-nav requires --app or a selector, and --timeout." + usage},
           {{"wait-for-nav", "--app", " ", "--timeout", "5000"},
            invalid,
            "wait-for-nav --app requires a non-empty package id.\n\nExample:\n  clawperator "
            "wait-for-nav --app com.android.settings --timeout 5000"},
           {{"wait-for-nav", "--timeout", "5000", "--app"},
            invalid,
            "wait-for-nav --app requires a non-empty package id.\n\nExample:\n  clawperator "
            "wait-for-nav --app com.android.settings --timeout 5000"},
           {{"wait-for-nav", "--app", "com.x", "--timeout", "0"},
            invalid,
            "wait-for-nav --timeout must be a positive number of milliseconds"},
           {{"wait-for-nav", "--app", "com.x", "--timeout", "30001"},
            invalid,
            "wait-for-nav --timeout must not exceed 30000ms"},
       }) {
    check_misuse(misuse);
  }
}

TEST_CASE("press, close, sleep and scroll argument rules", "[cli][actions][usage]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  for (const Misuse& misuse : std::vector<Misuse>{
           {{"press"},
            "MISSING_ARGUMENT",
            "press requires a key name.\n\nValid keys: back, home, recents\n\nExample:\n"
            "  clawperator press back"},
           {{"press", "back", "--key", "home"},
            invalid,
            "press: pass the key as a positional argument or via --key, not both.\n\nSee: "
            "clawperator press --help"},
           {{"close"},
            "MISSING_ARGUMENT",
            "close requires a package name.\n\nUsage:\n  clawperator close <package>\n"
            "  clawperator close --app <package>\n\nExamples:\n"
            "  clawperator close com.android.settings\n"
            "  clawperator close com.google.android.apps.chromecast.app --json"},
           {{"close", "a", "--app", "b"},
            invalid,
            "close: pass the package as a positional argument or via --app, not both.\n\nSee: "
            "clawperator close --help"},
           {{"sleep"},
            "MISSING_ARGUMENT",
            "sleep requires a duration in milliseconds.\n\nUsage:\n  clawperator sleep <ms>\n\n"
            "Example:\n  clawperator sleep 2000"},
           {{"sleep", "-5"}, invalid, "Duration must be a non-negative number (got: -5)"},
           {{"sleep", "abc"}, invalid, "Duration must be a non-negative number (got: abc)"},
           {{"sleep", "1e6"}, invalid, "Duration must be <= 120000ms (got: 1000000ms)"},
           {{"sleep", "120000.5"}, invalid, "Duration must be <= 120000ms (got: 120000.5ms)"},
           {{"scroll"},
            "MISSING_ARGUMENT",
            "scroll requires a direction.\n\nValid directions: down, up, left, right\n\n"
            "Examples:\n  clawperator scroll down\n  clawperator scroll up"},
           // A direction that was given is invalid, not missing.
           {{"scroll", "Down"},
            invalid,
            "Invalid scroll direction 'Down'.\n\nValid directions: down, up, left, right\n\n"
            "Examples:\n  clawperator scroll down\n  clawperator scroll up"},
           {{"scroll", "sideways"},
            invalid,
            "Invalid scroll direction 'sideways'.\n\nValid directions: down, up, left, right\n\n"
            "Examples:\n  clawperator scroll down\n  clawperator scroll up"},
           {{"scroll", "down", "--direction", "up"},
            invalid,
            "scroll: pass direction as a positional argument or via --direction, not both.\n\n"
            "See: clawperator scroll --help"},
           {{"scroll-until", "--text", "a", "--direction"},
            invalid,
            "scroll-until --direction requires a value.\n\nSee: clawperator scroll-until --help"},
           {{"scroll-and-click", "--text", "a", "--direction", "-1"},
            invalid,
            "scroll-and-click --direction requires a value.\n\nSee: clawperator "
            "scroll-and-click --help"},
           {{"scroll-until", "down", "--text", "a", "--direction", "up"},
            invalid,
            "scroll-until: pass direction as a positional argument or via --direction, not "
            "both.\n\nSee: clawperator scroll-until --help"},
           {{"scroll-until", "sideways", "--text", "a"},
            invalid,
            "Invalid direction: sideways. Valid directions: down, up, left, right"},
           {{"scroll-and-click", "--direction", "diagonal", "--text", "a"},
            invalid,
            "Invalid direction: diagonal. Valid directions: down, up, left, right"},
           {{"read-value"},
            "MISSING_ARGUMENT",
            "read-value requires a label selector.\n\nUsage:\n  clawperator read-value --label "
            "<text> --json\n\nExample:\n  clawperator read-value --label \"Battery\" --json"},
           {{"read-value", "--label", " "}, invalid, "read-value --label value must not be empty"},
           {{"read-value", "--label-id", ""},
            invalid,
            "read-value --label-id value must not be empty"},
           {{"screenshot", "--path"}, "USAGE", "--path requires a value"},
       }) {
    check_misuse(misuse);
  }
}

TEST_CASE("global --timeout checks where a command uses it", "[cli][actions][usage]") {
  const std::string invalid = "EXECUTION_VALIDATION_FAILED";
  for (const char* command : {"snapshot", "screenshot"}) {
    check_misuse({{command, "--timeout", "nope"}, invalid, "timeoutMs must be a finite number"},
                 "validation");
  }
  check_misuse(
      {{"close", "com.x", "--timeout", "soon"}, invalid, "timeoutMs must be a finite number"},
      "validation");
  check_misuse({{"scroll", "down", "--timeout", "x"}, invalid, "timeoutMs must be a finite number"},
               "validation");
  // click, like every device command, no longer ignores it.
  check_misuse({{"click", "--text", "OK", "--timeout", "nope"},
                invalid,
                "timeoutMs must be a finite number"},
               "validation");
  check_misuse({{"sleep", "10", "--timeout", "x"}, invalid, "timeoutMs must be a finite number"},
               "validation");
  check_misuse(
      {{"snapshot", "--timeout", "500"}, invalid, "timeoutMs must be between 1000 and 120000"},
      "validation");
  check_misuse({{"read-value", "--label", "X", "--timeout", "999999"},
                invalid,
                "timeoutMs must be between 1000 and 120000"},
               "validation");
}

TEST_CASE("--timeout is the budget of every device command", "[cli][actions][timeout]") {
  const std::vector<std::vector<std::string>> commands = {
      {"click", "--text", "OK"},
      {"type", "hi", "--id", "x"},
      {"read", "--id", "x"},
      {"open", "com.android.settings"},
      {"press", "back"},
      {"back"},
      {"close", "com.x"},
      {"scroll", "down"},
      {"snapshot"},
      {"read-value", "--label", "Model"},
      {"wait", "--text", "Done", "--wait", "2000"},
      {"wait-for-nav", "--app", "com.x", "--wait", "2000"},
  };
  for (std::vector<std::string> args : commands) {
    args.insert(args.end(), {"--timeout", "7000", "--validate-only"});
    CAPTURE(args);
    const RunResult result = run_binary(kBinary, args);
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["execution"]["timeoutMs"] == 7000);
  }
  SECTION("wait and wait-for-nav: --wait is the wait, --timeout still is without it") {
    const json with_wait = single_document(run_binary(
        kBinary, {"wait", "--text", "Done", "--wait", "2000", "--validate-only"}))["execution"];
    CHECK(with_wait["actions"][0]["params"]["timeoutMs"] == 2000);
    CHECK(with_wait["timeoutMs"] == 30000);
    const json compat = single_document(run_binary(
        kBinary, {"wait", "--text", "Done", "--timeout", "40000", "--validate-only"}))["execution"];
    CHECK(compat["actions"][0]["params"]["timeoutMs"] == 40000);
    CHECK(compat["timeoutMs"] == 45000);
    const json bad = expect_error(
        run_binary(kBinary, {"wait-for-nav", "--app", "com.x", "--wait", "0", "--dry-run"}),
        "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(bad["message"] == "wait-for-nav --wait must be a positive number of milliseconds");
    CHECK(bad["details"]["flag"] == "--wait");
  }
  SECTION("refused where it cannot apply, never ignored") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"errors", "--timeout", "1000"}, {"devices", "--timeout", "1000"}}) {
      CAPTURE(args);
      const json document = expect_error(run_binary(kBinary, args), "USAGE", 2);
      CHECK(document["details"]["flag"] == "--timeout");
      CHECK(document["message"].get<std::string>().find("does not take it") != std::string::npos);
    }
  }
}

TEST_CASE("the payload validator has the last word", "[cli][actions][validation]") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
    std::string path;
  };
  for (const Case& c : std::vector<Case>{
           {{"press", "banana"},
            "press_key params.key must be one of: back, home, recents",
            "actions.0.params.key"},
           {{"screenshot", "--path", ""},
            "take_screenshot params.path must be a non-empty string",
            "actions.0.params.path"},
           {{"close", "com.x", "--timeout", "500"},
            "Number must be greater than or equal to 1000",
            "timeoutMs"},
           {{"click", "--selector", R"({"bogus":"x"})"},
            "Unrecognized key(s) in object: 'bogus'",
            "actions.0.params.matcher"},
       }) {
    CAPTURE(joined(c.args));
    for (const char* mode : {"--dry-run", "--validate-only"}) {
      const json document =
          expect_error(run_binary(kBinary, with(c.args, mode)), "EXECUTION_VALIDATION_FAILED", 2);
      CHECK(document["message"] == c.message);
      CHECK(document["details"]["path"] == c.path);
      CHECK(document["details"]["phase"] == "validation");
    }
  }
}

TEST_CASE("every action command documents its flags", "[cli][actions][help]") {
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"snapshot", {}},
      {"screenshot", {"--path"}},
      {"click",
       {"--selector", "--text", "--text-contains", "--id", "--desc", "--desc-contains", "--role",
        "--coordinate", "--long", "--focus"}},
      {"type", {"--text", "--id", "--role", "--selector", "--submit", "--clear"}},
      {"read",
       {"--text", "--all", "--container-selector", "--container-text", "--container-text-contains",
        "--container-id", "--container-desc", "--container-desc-contains", "--container-role"}},
      {"wait", {"--text", "--selector"}},
      {"open", {"--app"}},
      {"press", {"--key"}},
      {"back", {}},
      {"close", {"--app"}},
      {"sleep", {}},
      {"scroll", {"--direction", "--container-id"}},
      {"scroll-until", {"--click", "--direction", "--text", "--container-id"}},
      {"scroll-and-click", {"--direction", "--text", "--container-id"}},
      {"wait-for-nav", {"--app", "--text"}},
      {"read-value", {"--label", "--label-id", "--label-desc", "--all"}},
  };
  const RunResult top = run_binary(kBinary, {"--help"});
  const std::string group = top.out.substr(top.out.find("Device Interaction:"));
  for (const auto& [command, flags] : commands) {
    CAPTURE(command);
    CHECK(group.find("  " + command) != std::string::npos);
    const RunResult help = run_binary(kBinary, {command, "--help"});
    CHECK(help.exit_code == 0);
    for (const std::string& flag : with(with(flags, "--validate-only"), "--dry-run")) {
      CAPTURE(flag);
      CHECK(help.out.find("  " + flag + " ") != std::string::npos);
    }
  }
  CHECK(run_binary(kBinary, {"type", "--help"}).out.find("The text to type") != std::string::npos);
}

TEST_CASE("extra arguments and unknown flags are usage errors", "[cli][actions][usage]") {
  const json extra = expect_error(run_binary(kBinary, {"press", "home", "back"}), "USAGE", 2);
  CHECK(extra["message"] == "unexpected argument 'back'");
  const json unknown = expect_error(run_binary(kBinary, {"click", "--txt", "a"}), "USAGE", 2);
  CHECK(unknown["suggestion"] == "--text");
}

TEST_CASE("pretty output of an action is indented JSON", "[cli][actions]") {
  const RunResult result =
      run_binary(kBinary, {"click", "--text", "OK", "--dry-run", "--output", "pretty"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("\n  \"dryRun\": true") != std::string::npos);
  CHECK(json::parse(result.out)["plan"]["actions"][0]["type"] == "click");
}

TEST_CASE("actions run through the exec path", "[cli][actions][adb]") {
  const TemporaryDirectory dir("actions-test");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"snapshot"}, {"click", "--text", "OK"}}) {
    CAPTURE(joined(args));
    const RunResult result = run_binary(kBinary, args, fake_adb_environment(dir.path()));
    const json document = single_document(result);
    CHECK(result.exit_code == 0);
    CHECK(document["ok"] == true);
    CHECK(document["deviceId"] == "fake-1");
    CHECK(document["envelope"]["status"] == "success");
    CHECK(document["terminalSource"] == "clawperator_result");
  }
}
