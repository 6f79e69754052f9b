// query, swipe, drag, toast, --strict / --container-* and snapshot --compact through the
// built binary without a device: the execution each builds (--validate-only) and every flag
// error with its code and exit code.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

json built(std::vector<std::string> args) {
  args.push_back("--validate-only");
  CAPTURE(args);
  const RunResult result = run_binary(kBinary, args);
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 0);
  REQUIRE(document["validated"] == true);
  return document["execution"];
}

void refused(const std::vector<std::string>& args, const std::string& code, int exit_code,
             const std::string& message_part) {
  CAPTURE(args);
  const json document = expect_error(run_binary(kBinary, args), code, exit_code);
  CHECK(document["message"].get<std::string>().find(message_part) != std::string::npos);
}

}  // namespace

TEST_CASE("query builds query_ui from its flags", "[cli][query]") {
  const json plain = built({"query"});
  CHECK(std::regex_match(plain["commandId"].get<std::string>(), std::regex("query-[0-9a-f]{32}")));
  CHECK(plain["taskId"] == plain["commandId"]);
  CHECK(plain["source"] == "clawperator-action");
  CHECK(plain["mode"] == "direct");
  CHECK(plain["actions"][0] == json({{"id", "query"}, {"type", "query_ui"}}));
  const json full = built({"query", "--id", "android:id/title", "--text-contains", "Wi",
                           "--visibility", "all", "--limit", "7"});
  CHECK(full["actions"][0]["params"] ==
        json::parse(R"({"matcher":{"textContains":"Wi","resourceId":"android:id/title"},)"
                    R"("visibility":"all","limit":7})"));
  const json by_json = built({"query", "--matcher-json", R"({"role":"switch"})"});
  CHECK(by_json["actions"][0]["params"]["matcher"] == json({{"role", "switch"}}));
  CHECK(built({"query", "--timeout", "5000"})["timeoutMs"] == 5000);
}

TEST_CASE("query flag errors", "[cli][query]") {
  refused({"query", "--visibility", "everything"}, "USAGE", 2, "--visibility must be");
  refused({"query", "--visibility", "all", "--visibility", "all"}, "USAGE", 2,
          "--visibility must not appear more than once");
  refused({"query", "--limit", "0"}, "USAGE", 2, "--limit must be an integer from 1 to 1000");
  refused({"query", "--limit", "1001"}, "USAGE", 2, "--limit must be");
  refused({"query", "--limit", "2.5"}, "USAGE", 2, "--limit must be");
  refused({"query", "--limit", "5", "--limit", "5"}, "USAGE", 2, "more than once");
  refused({"query", "--limit"}, "USAGE", 2, "--limit requires a value");
  refused({"query", "--matcher-json", "{nope"}, "EXECUTION_VALIDATION_FAILED", 2,
          "must be valid JSON");
  refused({"query", "--matcher-json", "{}"}, "EXECUTION_VALIDATION_FAILED", 2,
          "run query without a matcher");
  refused({"query", "--matcher-json", R"({"role":"x"})", "--text", "a"},
          "EXECUTION_VALIDATION_FAILED", 2, "not both");
  refused({"query", "--matcher-json", R"({"role":"x"})", "--selector", R"({"role":"x"})"},
          "EXECUTION_VALIDATION_FAILED", 2, "not both");
  refused({"query", "--matcher-json", R"({"ancestor":{}})"}, "EXECUTION_VALIDATION_FAILED", 2,
          "Predicate must have at least one nonblank field");
}

TEST_CASE("swipe and drag build their gestures", "[cli][gesture]") {
  const json swipe =
      built({"swipe", "--start", "540", "1800", "--end", "540", "600", "--duration-ms", "300"});
  CHECK(std::regex_match(swipe["commandId"].get<std::string>(), std::regex("swipe-[0-9a-f]{32}")));
  CHECK(swipe["mode"] == "direct");
  CHECK(swipe["actions"][0]["params"] ==
        json::parse(R"({"start":{"x":540,"y":1800},"end":{"x":540,"y":600},"durationMs":300})"));
  CHECK(built({"swipe", "--start", "1", "2", "--end", "3", "4", "--duration-ms", "5", "--timeout",
               "9000"})["timeoutMs"] == 9000);
  const json drag = built({"drag", "--start", "1", "2", "--end", "3", "4", "--hold-duration-ms",
                           "600", "--move-duration-ms", "400"});
  CHECK(drag["actions"][0]["id"] == "drag");
  CHECK(drag["actions"][0]["params"]["holdDurationMs"] == 600);
  CHECK(drag["actions"][0]["params"]["moveDurationMs"] == 400);
}

TEST_CASE("swipe and drag flag errors", "[cli][gesture]") {
  const std::string V = "EXECUTION_VALIDATION_FAILED";
  refused({"swipe", "--end", "3", "4", "--duration-ms", "5"}, V, 2, "--start <x> <y> is required");
  refused({"swipe", "--start", "1", "2", "--duration-ms", "5"}, V, 2, "--end <x> <y> is required");
  refused({"swipe", "--start", "1", "2", "--end", "3", "4"}, V, 2,
          "--duration-ms <ms> is required");
  refused({"swipe", "--start", "1", "--end", "3", "4", "--duration-ms", "5"}, V, 2,
          "--start requires two non-negative integers");
  refused({"swipe", "--start", "-1", "2", "--end", "3", "4", "--duration-ms", "5"}, V, 2,
          "--start requires two non-negative integers");
  refused(
      {"swipe", "--start", "1", "2", "--start", "1", "2", "--end", "3", "4", "--duration-ms", "5"},
      V, 2, "--start must not appear more than once");
  refused({"swipe", "--start", "1", "2", "--end", "3", "4", "--duration-ms", "x"}, V, 2,
          "whole number of milliseconds");
  refused(
      {"swipe", "--start", "1", "2", "--end", "3", "4", "--duration-ms", "5", "--duration-ms", "5"},
      V, 2, "more than once");
  refused({"swipe", "--start", "1", "2", "--end", "1", "2", "--duration-ms", "5"}, V, 2,
          "swipe start and end must differ");
  refused({"swipe", "--start", "1", "2", "--end", "3", "4", "--duration-ms", "10001"}, V, 2,
          "swipe params.durationMs must be an integer in [1, 10000]");
  refused({"drag", "--start", "1", "2", "--end", "3", "4", "--move-duration-ms", "5"}, V, 2,
          "--hold-duration-ms <ms> is required");
  refused({"drag", "--start", "1", "2", "--end", "3", "4", "--hold-duration-ms", "0",
           "--move-duration-ms", "5"},
          V, 2, "drag params.holdDurationMs must be an integer in [1, 10000]");
}

TEST_CASE("toast builds show_toast and cancel_toast", "[cli][toast]") {
  const json shown = built({"toast", "  Hello\n", "--duration", "long"});
  CHECK(std::regex_match(shown["commandId"].get<std::string>(),
                         std::regex("toast-show-[0-9a-f]{32}")));
  CHECK(shown["taskId"] == "cli-toast-show");
  CHECK(shown["source"] == "clawperator-cli");
  CHECK(shown["actions"][0] == json::parse(R"({"id":"a1","type":"show_toast",)"
                                           R"("params":{"text":"  Hello\n","duration":"long"}})"));
  const json cancelled = built({"toast", "--cancel"});
  CHECK(cancelled["taskId"] == "cli-toast-cancel");
  CHECK(cancelled["actions"][0] == json({{"id", "a1"}, {"type", "cancel_toast"}}));
  refused({"toast"}, "MISSING_ARGUMENT", 2, "toast requires the text");
  refused({"toast", "--cancel", "hi"}, "USAGE", 2, "toast --cancel takes no text");
  refused({"toast", "--cancel", "--duration", "long"}, "USAGE", 2, "toast --cancel takes no text");
  refused({"toast", "hi", "--duration", "medium"}, "USAGE", 2, "--duration must be short or long");
  refused({"toast", "  "}, "EXECUTION_VALIDATION_FAILED", 2, "show_toast requires params.text");
}

TEST_CASE("--strict and --container-* on the element commands", "[cli][strict]") {
  const json click = built({"click", "--text", "OK", "--strict", "--container-id", "list"});
  CHECK(click["actions"][0]["params"] ==
        json::parse(R"({"matcher":{"textEquals":"OK"},"container":{"resourceId":"list"},)"
                    R"("strict":true})"));
  CHECK(built({"type", "x", "--id", "f", "--strict"})["actions"][0]["params"]["strict"] == true);
  CHECK(built({"read", "--id", "f", "--strict"})["actions"][0]["params"]["strict"] == true);
  CHECK(built({"wait", "--id", "f", "--container-text",
               "Row"})["actions"][0]["params"]["container"] == json({{"textEquals", "Row"}}));
  CHECK(built({"scroll", "down", "--strict"})["actions"][0]["params"]["strict"] == true);
  CHECK(built({"scroll-until", "--text", "a", "--strict"})["actions"][0]["params"]["strict"] ==
        true);
  CHECK(built({"scroll-and-click", "--text", "a", "--strict"})["actions"][0]["params"]["strict"] ==
        true);
  refused({"click", "--coordinate", "1", "2", "--strict"}, "EXECUTION_VALIDATION_FAILED", 2,
          "click params.coordinate cannot use strict or container");
  refused({"click", "--text", "a", "--container-text", " "}, "EXECUTION_VALIDATION_FAILED", 2,
          "--container-text value must not be blank");
}

TEST_CASE("snapshot --compact options are checked before anything is sent", "[cli][compact]") {
  refused({"snapshot", "--max-nodes", "5"}, "USAGE", 2,
          "--max-nodes requires --compact and an integer from 1 to 1000");
  refused({"snapshot", "--compact", "--max-nodes", "0"}, "USAGE", 2, "--max-nodes requires");
  refused({"snapshot", "--compact", "--max-nodes", "1001"}, "USAGE", 2, "--max-nodes requires");
  refused({"snapshot", "--compact", "--max-text-chars", "4097"}, "USAGE", 2,
          "--max-text-chars requires --compact and an integer from 1 to 4096");
  refused({"snapshot", "--compact", "--max-text-chars", "1.5"}, "USAGE", 2,
          "--max-text-chars requires");
  refused({"snapshot", "--compact", "--raw-path", " "}, "USAGE", 2, "--raw-path requires");
  refused({"snapshot", "--raw-path", "/tmp/x.xml"}, "USAGE", 2, "--raw-path requires --compact");
  CHECK(built({"snapshot", "--compact", "--max-nodes", "5"})["actions"][0]["type"] == "snapshot");
}
