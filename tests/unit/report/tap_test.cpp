#include <catch2/catch.hpp>

#include "clawperator/report/report.hpp"

using namespace clawperator;
using report::Case;
using report::Suite;
using report::Verdict;

namespace {

Suite tap_suite(std::string name) {
  Suite suite;
  suite.name = std::move(name);
  suite.timestamp = "2026-11-30T12:00:00";
  suite.seconds = 0.5;
  suite.properties = {{"deviceId", "emulator-5554"}};
  suite.cases = {
      Case{"open (open_app)", "clawperator.exec", Verdict::Passed, "", "", "", std::nullopt},
      Case{"tap (click)", "clawperator.exec", Verdict::Failed, "NODE_NOT_FOUND", "No node \"OK\"",
           "", std::nullopt},
      Case{"snap (snapshot)", "clawperator.exec", Verdict::Skipped, "", "not run", "",
           std::nullopt}};
  return suite;
}

}  // namespace

TEST_CASE("TAP 13: a line per case, a failure's YAML block, the plan last", "[report]") {
  CHECK(report::tap_document(tap_suite("c1")) ==
        "TAP version 13\n"
        "# c1: tests 3, failures 1, errors 0, skipped 1, time 0.500 s, started "
        "2026-11-30T12:00:00 UTC\n"
        "# deviceId: emulator-5554\n"
        "ok 1 - open (open_app)\n"
        "not ok 2 - tap (click)\n"
        "  ---\n"
        "  severity: fail\n"
        "  type: \"NODE_NOT_FOUND\"\n"
        "  message: \"No node \\\"OK\\\"\"\n"
        "  ...\n"
        "ok 3 - snap (snapshot) # SKIP not run\n"
        "1..3\n");
}

TEST_CASE("TAP: appended runs are numbered on, the plan written again", "[report]") {
  const auto appended = report::tap_append(report::tap_document(tap_suite("c1")), tap_suite("c2"));
  REQUIRE(appended);
  CHECK(appended->find("1..3\n") == std::string::npos);
  CHECK(appended->find("# c2: tests 3") != std::string::npos);
  CHECK(appended->find("ok 4 - open (open_app)\nnot ok 5 - tap (click)\n") != std::string::npos);
  CHECK(appended->size() > 7);
  CHECK(appended->substr(appended->size() - 5) == "1..6\n");
  CHECK(appended->rfind("TAP version 13\n", 0) == 0);
  CHECK(appended->find("TAP version 13", 1) == std::string::npos);
}

TEST_CASE("TAP: what is not a TAP report of this CLI is refused", "[report]") {
  for (const std::string& text :
       {std::string("ok 1 - x\n1..1\n"), std::string("TAP version 13\n1..1\nok 1 - x\n"),
        std::string("TAP version 13\nok 1 - x\n1..x\n")}) {
    CAPTURE(text);
    const auto appended = report::tap_append(text, tap_suite("c2"));
    REQUIRE_FALSE(appended);
    CHECK(appended.error().message.rfind("the file is not a TAP report of this CLI: ", 0) == 0);
  }
}

TEST_CASE("TAP: a description stays one line, and '#' cannot start a directive", "[report]") {
  Suite suite;
  suite.name = "line\none";
  suite.cases = {
      Case{"a # SKIP\nb\\c", "x", Verdict::Failed, "T\x01", "m\n\xff", "", std::nullopt}};
  CHECK(report::tap_document(suite) ==
        "TAP version 13\n"
        "# line one: tests 1, failures 1, errors 0, skipped 0, time 0.000 s\n"
        "not ok 1 - a \\# SKIP b\\\\c\n"
        "  ---\n"
        "  severity: fail\n"
        "  type: \"T\\u0001\"\n"
        "  message: \"m\\u000A\xef\xbf\xbd\"\n"
        "  ...\n"
        "1..1\n");
}
