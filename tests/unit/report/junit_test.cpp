#include <catch2/catch.hpp>

#include "clawperator/report/report.hpp"
#include "xml_tree.hpp"

using namespace clawperator;
using clawperator::testing::parse_xml;
using clawperator::testing::XmlElement;
using report::Case;
using report::Suite;
using report::Verdict;

namespace {

Suite sample_suite(std::string name = "c1") {
  Suite suite;
  suite.name = std::move(name);
  suite.timestamp = "2026-11-30T12:00:00";
  suite.seconds = 0.4126;
  suite.properties = {{"deviceId", "emulator-5554"}, {"exitCode", "1"}};
  Case passed{"open (open_app)", "clawperator.exec", Verdict::Passed, "", "", "", std::nullopt};
  Case failed{"tap (click)",    "clawperator.exec",   Verdict::Failed,
              "NODE_NOT_FOUND", "No node matches OK", "No node matches OK\ndata: {}",
              std::nullopt};
  Case skipped{"snap (snapshot)",
               "clawperator.exec",
               Verdict::Skipped,
               "",
               "not run: step tap (click) failed before it",
               "",
               std::nullopt};
  suite.cases = {passed, failed, skipped};
  return suite;
}

XmlElement parsed(const std::string& text) {
  auto tree = parse_xml(text);
  INFO(text);
  if (!tree) FAIL(tree.error());
  return *tree;
}

}  // namespace

TEST_CASE("a JUnit document: the suite in a <testsuites> root, counts on both", "[report]") {
  CHECK(report::junit_document(sample_suite()) ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"clawperator\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" "
        "time=\"0.413\">\n"
        "  <testsuite name=\"c1\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" "
        "time=\"0.413\" timestamp=\"2026-11-30T12:00:00\">\n"
        "    <properties>\n"
        "      <property name=\"deviceId\" value=\"emulator-5554\"/>\n"
        "      <property name=\"exitCode\" value=\"1\"/>\n"
        "    </properties>\n"
        "    <testcase name=\"open (open_app)\" classname=\"clawperator.exec\"/>\n"
        "    <testcase name=\"tap (click)\" classname=\"clawperator.exec\">\n"
        "      <failure message=\"No node matches OK\" type=\"NODE_NOT_FOUND\">No node matches "
        "OK\ndata: {}</failure>\n"
        "    </testcase>\n"
        "    <testcase name=\"snap (snapshot)\" classname=\"clawperator.exec\">\n"
        "      <skipped message=\"not run: step tap (click) failed before it\"/>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
}

TEST_CASE("an error, a case's time and the script's output", "[report]") {
  Suite suite;
  suite.name = "com.test.skill";
  suite.seconds = 2;
  suite.cases = {Case{"com.test.skill", "clawperator.skills.run", Verdict::Errored,
                      "SKILL_NOT_FOUND", "not found", "not found", 2.0}};
  suite.system_out = "out\n";
  suite.system_err = "err\n";
  const XmlElement root = parsed(report::junit_document(suite));
  const XmlElement& element = *root.all("testsuite").at(0);
  CHECK(element.attribute("errors") == "1");
  CHECK(element.attribute("timestamp") == "<absent>");
  const XmlElement& test = *element.all("testcase").at(0);
  CHECK(test.attribute("time") == "2.000");
  CHECK(test.all("error").at(0)->attribute("type") == "SKILL_NOT_FOUND");
  CHECK(element.all("system-out").at(0)->text == "out\n");
  CHECK(element.all("system-err").at(0)->text == "err\n");
}

TEST_CASE("everything is escaped; what XML 1.0 cannot hold becomes U+FFFD", "[report]") {
  const std::string hostile =
      "a]]>b <c> & \"d\" 'e' \t|\n|\r| \x01\x1b[31m\x7f caf\xc3\xa9 \xff\xfe bad \xef\xbf\xbe "
      "\xf0\x9f\x98\x80 \xed\xa0\x80";
  // XML reads back: TAB, LF, CR kept (as references in attributes); each byte that begins no
  // UTF-8 sequence (0xFF, 0xFE, the surrogate's three) and the control characters become U+FFFD.
  const std::string expected =
      "a]]>b <c> & \"d\" 'e' \t|\n|\r| \xef\xbf\xbd\xef\xbf\xbd[31m\x7f caf\xc3\xa9 "
      "\xef\xbf\xbd\xef\xbf\xbd bad \xef\xbf\xbd \xf0\x9f\x98\x80 "
      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd";
  Suite suite;
  suite.name = hostile;
  suite.timestamp = hostile;
  suite.properties = {{hostile, hostile}};
  suite.cases = {Case{hostile, hostile, Verdict::Failed, hostile, hostile, hostile, std::nullopt},
                 Case{hostile, hostile, Verdict::Skipped, "", hostile, "", std::nullopt}};
  suite.system_out = hostile;
  const std::string text = report::junit_document(suite);
  CHECK(text.find("]]>") == std::string::npos);
  const XmlElement root = parsed(text);
  const XmlElement& element = *root.all("testsuite").at(0);
  CHECK(element.attribute("name") == expected);
  CHECK(element.attribute("timestamp") == expected);
  const XmlElement& property = *element.all("properties").at(0)->all("property").at(0);
  CHECK(property.attribute("name") == expected);
  CHECK(property.attribute("value") == expected);
  const XmlElement& failed = *element.all("testcase").at(0);
  CHECK(failed.attribute("name") == expected);
  CHECK(failed.attribute("classname") == expected);
  const XmlElement& failure = *failed.all("failure").at(0);
  CHECK(failure.attribute("message") == expected);
  CHECK(failure.attribute("type") == expected);
  CHECK(failure.text == expected);
  CHECK(element.all("testcase").at(1)->all("skipped").at(0)->attribute("message") == expected);
  CHECK(element.all("system-out").at(0)->text == expected);
}

TEST_CASE("appending: the earlier suites kept byte for byte, the root's counts summed",
          "[report]") {
  const std::string first = report::junit_document(sample_suite("first"));
  Suite second = sample_suite("second");
  second.seconds = 1;
  second.cases.pop_back();
  second.cases.push_back(Case{"x", "clawperator.exec", Verdict::Errored, "E", "m", "t", 1.0});
  const auto appended = report::junit_append(first, second);
  REQUIRE(appended);
  const std::string& text = *appended;
  const std::size_t first_suite = first.find("  <testsuite ");
  const std::size_t first_end = first.find("</testsuites>");
  CHECK(text.find(first.substr(first_suite, first_end - first_suite)) != std::string::npos);
  const XmlElement root = parsed(text);
  CHECK(root.name == "testsuites");
  CHECK(root.attribute("tests") == "6");
  CHECK(root.attribute("failures") == "2");
  CHECK(root.attribute("errors") == "1");
  CHECK(root.attribute("skipped") == "1");
  CHECK(root.attribute("time") == "1.413");
  const auto suites = root.all("testsuite");
  REQUIRE(suites.size() == 2);
  CHECK(suites[0]->attribute("name") == "first");
  CHECK(suites[1]->attribute("name") == "second");

  // And a third: the counts of both earlier suites are read back.
  const auto third = report::junit_append(text, sample_suite("third"));
  REQUIRE(third);
  const XmlElement three = parsed(*third);
  CHECK(three.all("testsuite").size() == 3);
  CHECK(three.attribute("tests") == "9");
  CHECK(three.attribute("skipped") == "2");
}

TEST_CASE("appending to another tool's report or an empty root", "[report]") {
  const auto to_empty = report::junit_append("<testsuites/>\n", sample_suite());
  REQUIRE(to_empty);
  CHECK(parsed(*to_empty).all("testsuite").size() == 1);
  CHECK(parsed(*to_empty).attribute("tests") == "3");

  const std::string other =
      "<?xml version=\"1.0\"?>\n<!-- pytest -->\n<testsuites><testsuite name=\"py\" tests=\"2\" "
      "failures=\"1\" errors=\"x\" time=\"1.5\"><testcase name=\"t\"/></testsuite></testsuites>";
  const auto to_other = report::junit_append(other, sample_suite());
  REQUIRE(to_other);
  CHECK(to_other->rfind("<?xml version=\"1.0\"?>\n<!-- pytest -->\n<testsuites name=", 0) == 0);
  const XmlElement root = parsed(*to_other);
  CHECK(root.attribute("tests") == "5");
  CHECK(root.attribute("failures") == "2");
  CHECK(root.attribute("errors") == "0");  // "x" counts nothing
  CHECK(root.attribute("time") == "1.913");
  CHECK(root.all("testsuite").size() == 2);
}

TEST_CASE("what cannot be appended to is refused, never replaced", "[report]") {
  for (const std::string& text :
       {std::string("not xml at all"), std::string("<testsuite name=\"one\"></testsuite>"),
        std::string("<testsuites><testsuite>"), std::string("<testsuites></testsuites><x/>"),
        std::string("<?xml version=\"1.0\"?><!DOCTYPE testsuites [<!ENTITY a \"aaaa\">]>"
                    "<testsuites>&a;</testsuites>"),
        std::string("<testsuites>\xff</testsuites>")}) {
    CAPTURE(text);
    const auto appended = report::junit_append(text, sample_suite());
    REQUIRE_FALSE(appended);
    CHECK(appended.error().message.rfind("the file is not a JUnit report: ", 0) == 0);
  }
  // An empty file (mktemp, touch) is no earlier run: a new document.
  const auto fresh = report::append(report::Format::JUnit, " \n", sample_suite());
  REQUIRE(fresh);
  CHECK(*fresh == report::junit_document(sample_suite()));
}

TEST_CASE("times: three decimals, never negative", "[report]") {
  Suite suite = sample_suite();
  suite.seconds = -1;
  CHECK(parsed(report::junit_document(suite)).attribute("time") == "0.000");
  suite.seconds = 1e300;
  CHECK(parsed(report::junit_document(suite)).attribute("time").size() == 305);
}
