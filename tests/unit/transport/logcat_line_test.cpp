#include "clawperator/transport/logcat_line.hpp"

#include <catch2/catch.hpp>
#include <string>

using clawperator::transport::LogcatLine;
using clawperator::transport::parse_logcat_line;

namespace {

void check_line(std::string_view line, char level, std::string_view tag, std::string_view message) {
  INFO("line: " << std::string(line));
  const LogcatLine parsed = parse_logcat_line(line);
  CHECK(parsed.level == level);
  CHECK(std::string(parsed.tag) == std::string(tag));
  CHECK(std::string(parsed.message) == std::string(message));
}

}  // namespace

TEST_CASE("logcat -v time lines", "[transport][logcat]") {
  check_line("02-19 12:00:00.000 I/Clawperator( 1234): [Clawperator-Result] {}", 'I', "Clawperator",
             "[Clawperator-Result] {}");
  check_line("12-31 23:59:59.999 W/ActivityManager(  567): Slow operation", 'W', "ActivityManager",
             "Slow operation");
  // `%-8s` pads short tags before the pid.
  check_line("01-01 00:00:00.001 D/Tag     (   42): padded", 'D', "Tag", "padded");
  check_line("01-01 00:00:00.001 E/Tag(42): no padding", 'E', "Tag", "no padding");
  check_line("01-01 00:00:00.001 I/Tag( 42):  two spaces kept one", 'I', "Tag",
             " two spaces kept one");
  check_line("01-01 00:00:00.001 I/Tag( 42):", 'I', "Tag", "");
  check_line("01-01 00:00:00.001 I/Tag( 42): msg: with (9): colons", 'I', "Tag",
             "msg: with (9): colons");
  check_line("2024-01-01 00:00:00.001 I/Year( 42): with year", 'I', "Year", "with year");
  check_line("01-01 00:00:00.001234 I/Usec( 42): microseconds", 'I', "Usec", "microseconds");
  check_line("01-01 00:00:00.001 I/Multi word tag( 42): spaces in tag", 'I', "Multi word tag",
             "spaces in tag");
}

TEST_CASE("logcat -v threadtime lines", "[transport][logcat]") {
  check_line("02-19 12:00:00.000  1234  5678 I Clawperator: [Clawperator-Result] {}", 'I',
             "Clawperator", "[Clawperator-Result] {}");
  check_line("02-19 12:00:00.000 1 2 E T: tight", 'E', "T", "tight");
  check_line("02-19 12:00:00.000 12345 12399 D Tag     : padded tag", 'D', "Tag", "padded tag");
  check_line("02-19 12:00:00.000  1234  5678 V chromium: [INFO:x.cc(12)] a: b", 'V', "chromium",
             "[INFO:x.cc(12)] a: b");
  check_line("02-19 12:00:00.000  1234  5678 F Tag:", 'F', "Tag", "");
}

TEST_CASE("logcat -v brief and -v tag lines", "[transport][logcat]") {
  check_line("I/Clawperator( 1234): hello", 'I', "Clawperator", "hello");
  check_line("W/Tag     (  99): padded", 'W', "Tag", "padded");
  check_line("I/Clawperator: tag format", 'I', "Clawperator", "tag format");
  check_line("E/Tag     : padded tag format", 'E', "Tag", "padded tag format");
  check_line("I/TaskScope: [TaskScope] UI Hierarchy [commandId=c1]: <?xml", 'I', "TaskScope",
             "[TaskScope] UI Hierarchy [commandId=c1]: <?xml");
}

TEST_CASE("anything else is the trimmed line with no tag", "[transport][logcat]") {
  check_line("--------- beginning of main", 0, "", "--------- beginning of main");
  check_line("  \t<node text=\"x\"/>  \t", 0, "", "<node text=\"x\"/>");
  check_line("", 0, "", "");
  check_line("   ", 0, "", "");
  check_line("X/NotALevel: message", 0, "", "X/NotALevel: message");
  check_line("I/NoColonHere", 0, "", "I/NoColonHere");
  check_line("[Clawperator-Result] {\"a\":1}", 0, "", "[Clawperator-Result] {\"a\":1}");
  // A timestamp followed by nothing recognisable.
  check_line("02-19 12:00:00.000 garbage here", 0, "", "02-19 12:00:00.000 garbage here");
  check_line("02-19 12:00:00.000  1234  5678 Q Tag: bad level", 0, "",
             "02-19 12:00:00.000  1234  5678 Q Tag: bad level");
  check_line("02-19 12:00", 0, "", "02-19 12:00");
}

TEST_CASE("parsed views point into the line", "[transport][logcat]") {
  const std::string line = "I/Tag( 1): message";
  const LogcatLine parsed = parse_logcat_line(line);
  CHECK(parsed.message.data() == line.data() + 11);
  CHECK(parsed.tag.data() == line.data() + 2);
}

TEST_CASE("logcat -v uid: the writer's uid", "[transport][logcat]") {
  const auto uid_of = [](std::string_view line) {
    return std::string(parse_logcat_line(line).uid);
  };
  // liblog's logprint.cpp: "%5d:" for a number, "%5s:" for a name of five letters at most.
  const std::string app =
      "12-05 02:30:00.123 I/Clawperator-Result(10123: 4567): [Clawperator-Result] {}";
  check_line(app, 'I', "Clawperator-Result", "[Clawperator-Result] {}");
  CHECK(uid_of(app) == "10123");
  check_line("12-05 02:30:00.123 I/Probe   (shell:  812): hello", 'I', "Probe", "hello");
  CHECK(uid_of("12-05 02:30:00.123 I/Probe   (shell:  812): hello") == "shell");
  CHECK(uid_of("12-05 02:30:00.123 W/Tag     ( root:    1): x") == "root");
  CHECK(uid_of("12-05 02:30:00.123 W/Tag     ( 1000:  612): x") == "1000");
  // A second user's app uid is wider than five digits.
  CHECK(uid_of("12-05 02:30:00.123 I/Tag(1010123:  4567): x") == "1010123");
  // logd without the uid: six blanks where it would be.
  check_line("12-05 02:30:00.123 I/Tag     (       4567): no uid", 'I', "Tag", "no uid");
  CHECK(uid_of("12-05 02:30:00.123 I/Tag     (       4567): no uid").empty());
  CHECK(uid_of("I/Tag(10123: 4567): brief") == "10123");
  check_line("I/Tag(10123: 4567): brief", 'I', "Tag", "brief");
  // Without the modifier nothing is made up.
  CHECK(uid_of("02-19 12:00:00.000 I/Clawperator( 1234): x").empty());
  CHECK(uid_of("I/Clawperator: tag format").empty());
  // A message that holds "(n: m):" text is not a header.
  check_line("I/Tag: text (10123: 4567): more", 'I', "Tag", "text (10123: 4567): more");
  CHECK(uid_of("I/Tag: text (10123: 4567): more").empty());
  // threadtime: the uid's ':' becomes a blank.
  const std::string threadtime = "12-05 02:30:00.123 10123  4567  4590 I Clawperator: msg";
  check_line(threadtime, 'I', "Clawperator", "msg");
  CHECK(uid_of(threadtime) == "10123");
  check_line("12-05 02:30:00.123 shell   812   812 I Probe   : hi", 'I', "Probe", "hi");
  CHECK(uid_of("12-05 02:30:00.123 shell   812   812 I Probe   : hi") == "shell");
  CHECK(uid_of("02-19 12:00:00.000  1234  5678 I Clawperator: x").empty());
}
