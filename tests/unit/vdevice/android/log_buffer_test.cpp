#include "clawperator/vdevice/android/log_buffer.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/logcat_line.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

// 2024-02-19 12:34:56.789 UTC
constexpr std::int64_t kWhen = 1708346096789;

LogEntry entry(std::string tag, std::string message, char level = 'I') {
  LogEntry out;
  out.epoch_ms = kWhen;
  out.pid = 1234;
  out.tid = 5678;
  out.level = level;
  out.tag = std::move(tag);
  out.message = std::move(message);
  return out;
}

}  // namespace

TEST_CASE("logcat formats an entry exactly as logcat does", "[vdevice][android]") {
  const LogEntry line = entry("ActivityManager", "Start proc");
  CHECK(format_log_entry(line, LogFormat::Time) ==
        "02-19 12:34:56.789 I/ActivityManager( 1234): Start proc\n");
  CHECK(format_log_entry(line, LogFormat::ThreadTime) ==
        "02-19 12:34:56.789  1234  5678 I ActivityManager: Start proc\n");
  CHECK(format_log_entry(line, LogFormat::Brief) == "I/ActivityManager( 1234): Start proc\n");
  CHECK(format_log_entry(line, LogFormat::Tag) == "I/ActivityManager: Start proc\n");
  CHECK(format_log_entry(line, LogFormat::Raw) == "Start proc\n");
  CHECK(format_log_entry(line, LogFormat::Process) == "I( 1234) Start proc  (ActivityManager)\n");
  // Short tags are padded to 8 columns; a multi-line message repeats the prefix.
  CHECK(format_log_entry(entry("Tag", "a\nb", 'W'), LogFormat::Brief) ==
        "W/Tag     ( 1234): a\nW/Tag     ( 1234): b\n");
}

TEST_CASE("the CLI's logcat parser reads every format back", "[vdevice][android]") {
  const LogEntry line = entry("ClawperatorResult", "[Clawperator-Result] {\"x\":1}");
  for (const LogFormat format : {LogFormat::Time, LogFormat::ThreadTime, LogFormat::Brief}) {
    std::string text = format_log_entry(line, format);
    text.pop_back();
    const auto parsed = clawperator::transport::parse_logcat_line(text);
    CHECK(parsed.level == 'I');
    CHECK(parsed.tag == "ClawperatorResult");
    CHECK(parsed.message == line.message);
  }
}

TEST_CASE("the log buffer is bounded and cuts oversized messages", "[vdevice][android]") {
  LogBuffer buffer(3);
  for (int i = 0; i < 5; ++i) buffer.append(kWhen, 1, 1, 'I', "T", std::to_string(i));
  CHECK(buffer.size() == 3);
  CHECK(buffer.first_seq() == 3);
  CHECK(buffer.end_seq() == 6);
  CHECK(buffer.at(3).message == "2");
  buffer.clear();
  CHECK(buffer.size() == 0);
  CHECK(buffer.first_seq() == buffer.end_seq());

  // A cut never splits a UTF-8 character.
  // The room left for the message: the payload minus priority, "Tag" and two NULs.
  const std::size_t room = kMaxLogPayloadBytes - 6;
  std::string long_message(room - 1, 'x');
  long_message += "\xe2\x98\x95";
  const LogEntry& stored = buffer.append(kWhen, 1, 1, 'I', "Tag", long_message);
  CHECK(stored.message == std::string(room - 1, 'x'));
}

TEST_CASE("logcat filterspecs", "[vdevice][android]") {
  LogFilter filter;
  REQUIRE(filter.add("ActivityManager:W *:S"));
  CHECK(filter.accepts(entry("ActivityManager", "x", 'E')));
  CHECK_FALSE(filter.accepts(entry("ActivityManager", "x", 'I')));
  CHECK_FALSE(filter.accepts(entry("Other", "x", 'F')));
  LogFilter adb_default;
  REQUIRE(adb_default.add("''"));  // what `adb logcat` exports as ANDROID_LOG_TAGS
  CHECK(adb_default.accepts(entry("Any", "x", 'V')));
  CHECK_FALSE(LogFilter().add("Tag:Q"));
}

TEST_CASE("logcat -d, -t, -c and formats on the device", "[vdevice][android]") {
  Harness harness;
  harness.shell("logcat -c");
  CHECK(harness.shell("logcat -d").out.empty());
  harness.shell("am force-stop com.android.settings");
  const auto dump = harness.shell("logcat -d -v brief");
  CHECK(dump.out.rfind("--------- beginning of main\n", 0) == 0);
  CHECK(dump.out.find("I/ActivityManager(  612): Force stopping com.android.settings") !=
        std::string::npos);
  CHECK(dump.status == 0);
  harness.shell("am force-stop com.android.chrome");
  const auto tail = harness.shell("logcat -t 1 -v tag");
  CHECK(tail.out ==
        "--------- beginning of main\n"
        "I/ActivityManager: Force stopping com.android.chrome appid=1000 user=0: from pid 0 "
        "(am force-stop)\n");
  const auto silent = harness.shell("logcat -d -s Nobody:V");
  CHECK(silent.out.empty());
  const auto bad = harness.shell("logcat -v fancy");
  CHECK(bad.status == 1);
  CHECK(bad.err.find("fancy") != std::string::npos);
}

TEST_CASE("logcat -T 1 prints the newest line, then only new ones", "[vdevice][android]") {
  Harness harness;
  harness.shell("am force-stop com.android.settings");
  auto follower = harness.open("export ANDROID_LOG_TAGS=\"''\"; exec logcat '-v' 'time' '-T' '1'");
  harness.advance(milliseconds(5));
  const std::string first = follower.output->out;
  CHECK(first.rfind("--------- beginning of main\n", 0) == 0);
  CHECK(first.find("Force stopping com.android.settings") != std::string::npos);
  CHECK(std::count(first.begin(), first.end(), '\n') == 2);

  harness.shell("am force-stop com.android.chrome");
  harness.advance(milliseconds(5));
  const std::string added = follower.output->out.substr(first.size());
  CHECK(std::count(added.begin(), added.end(), '\n') == 1);
  CHECK(added.find("Force stopping com.android.chrome") != std::string::npos);
  CHECK(added.rfind("02-19 12:", 0) == 0);
  CHECK_FALSE(follower.ended());

  // The host goes away: nothing more is written.
  follower.session->on_host_close();
  harness.shell("am force-stop com.android.settings");
  harness.advance(milliseconds(5));
  CHECK(follower.output->out.size() == first.size() + added.size());
  CHECK_FALSE(follower.output->misuse);
}

TEST_CASE("background noise interleaves other apps' lines", "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.logcat.noise_lines_per_second = 20;
  Harness harness(scenario);
  auto follower = harness.open("logcat -v threadtime -T 1");
  harness.advance(milliseconds(2000));
  const std::string& out = follower.output->out;
  const auto lines = std::count(out.begin(), out.end(), '\n');
  CHECK(lines > 15);
  CHECK(lines < 80);
}
