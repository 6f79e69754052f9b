#include "vdevice/android/system/log_buffer.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/logcat_line.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

// 2024-02-19 12:34:56.789 UTC
constexpr std::int64_t kWhen = 1708346096789;

LogEntry entry(std::string tag, std::string message, char level = 'I', int uid = -1) {
  LogEntry out;
  out.epoch_ms = kWhen;
  out.pid = 1234;
  out.tid = 5678;
  out.uid = uid;
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

TEST_CASE("-v uid puts the writer's uid before the pid, as logprint does", "[vdevice][android]") {
  const LogEntry app = entry("Clawperator-Result", "msg", 'I', 10123);
  CHECK(format_log_entry(app, LogFormat::Time, true) ==
        "02-19 12:34:56.789 I/Clawperator-Result(10123: 1234): msg\n");
  CHECK(format_log_entry(app, LogFormat::Brief, true) ==
        "I/Clawperator-Result(10123: 1234): msg\n");
  CHECK(format_log_entry(app, LogFormat::Process, true) ==
        "I(10123: 1234) msg  (Clawperator-Result)\n");
  // threadtime gives the uid a column of its own: no colon.
  CHECK(format_log_entry(app, LogFormat::ThreadTime, true) ==
        "02-19 12:34:56.789 10123  1234  5678 I Clawperator-Result: msg\n");
  // tag and raw have no room for it.
  CHECK(format_log_entry(app, LogFormat::Tag, true) == "I/Clawperator-Result: msg\n");
  CHECK(format_log_entry(app, LogFormat::Raw, true) == "msg\n");

  // A uid with a short AID name prints the name, right-aligned.
  const LogEntry shell = entry("Probe", "hello", 'I', 2000);
  CHECK(format_log_entry(shell, LogFormat::Time, true) ==
        "02-19 12:34:56.789 I/Probe   (shell: 1234): hello\n");
  CHECK(format_log_entry(shell, LogFormat::Brief, true) == "I/Probe   (shell: 1234): hello\n");
  CHECK(format_log_entry(shell, LogFormat::Process, true) == "I(shell: 1234) hello  (Probe)\n");
  CHECK(format_log_entry(shell, LogFormat::ThreadTime, true) ==
        "02-19 12:34:56.789 shell  1234  5678 I Probe   : hello\n");
  CHECK(format_log_entry(shell, LogFormat::Tag, true) == "I/Probe   : hello\n");
  CHECK(format_log_entry(shell, LogFormat::Raw, true) == "hello\n");

  // An unknown uid leaves six blanks where the uid would be.
  const LogEntry unknown = entry("Probe", "hello", 'W', -1);
  CHECK(format_log_entry(unknown, LogFormat::Time, true) ==
        "02-19 12:34:56.789 W/Probe   (       1234): hello\n");
  CHECK(format_log_entry(unknown, LogFormat::Brief, true) == "W/Probe   (       1234): hello\n");
  CHECK(format_log_entry(unknown, LogFormat::Process, true) == "W(       1234) hello  (Probe)\n");
  CHECK(format_log_entry(unknown, LogFormat::ThreadTime, true) ==
        "02-19 12:34:56.789        1234  5678 W Probe   : hello\n");
  CHECK(format_log_entry(unknown, LogFormat::Tag, true) == "W/Probe   : hello\n");
  CHECK(format_log_entry(unknown, LogFormat::Raw, true) == "hello\n");

  // Without the modifier nothing changes, whatever the uid.
  CHECK(format_log_entry(app, LogFormat::Time) ==
        "02-19 12:34:56.789 I/Clawperator-Result( 1234): msg\n");
  CHECK(format_log_entry(shell, LogFormat::ThreadTime) ==
        "02-19 12:34:56.789  1234  5678 I Probe   : hello\n");
  // A multi-line message repeats the whole prefix, uid included.
  CHECK(format_log_entry(entry("T", "a\nb", 'D', 10123), LogFormat::Brief, true) ==
        "D/T       (10123: 1234): a\nD/T       (10123: 1234): b\n");
}

TEST_CASE("the uid column: short AID names, else numbers, else blanks", "[vdevice][android]") {
  CHECK(uid_column(2000) == "shell:");
  CHECK(uid_column(0) == " root:");
  CHECK(uid_column(1010) == " wifi:");
  CHECK(uid_column(1036) == " logd:");
  // "system" and "bluetooth" are longer than 5 characters, so logcat prints the number.
  CHECK(uid_column(1000) == " 1000:");
  CHECK(uid_column(1002) == " 1002:");
  CHECK(uid_column(10123) == "10123:");
  CHECK(uid_column(-1) == "      ");
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
  for (int i = 0; i < 5; ++i) buffer.append(kWhen, 10001, 1, 1, 'I', "T", std::to_string(i));
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
  const LogEntry& stored = buffer.append(kWhen, 10001, 1, 1, 'I', "Tag", long_message);
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

TEST_CASE("logcat -v uid shows which uid wrote each line", "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.logcat.foreign_results = true;
  scenario.logcat.noise_lines_per_second = 50;
  Harness harness(scenario);
  harness.shell("logcat -c");
  harness.shell("am force-stop com.android.settings");
  CHECK(harness.shell("logcat -d -v brief -v uid")
            .out.find("I/ActivityManager( 1000:  612): Force stopping com.android.settings") !=
        std::string::npos);

  // The Operator's lines carry its package's uid, as `pm list packages -U` shows it.
  const std::string listed = harness.shell("pm list packages -U com.clawperator.operator").out;
  REQUIRE(listed.starts_with("package:com.clawperator.operator uid:"));
  const std::string operator_uid = listed.substr(listed.find("uid:") + 4, 5);
  harness.broadcast(payload("ping", Json::array({action("p", "doctor_ping")})));
  harness.advance(milliseconds(500));
  const std::string operator_pid = std::to_string(scenario.operator_behavior.pid);
  CHECK(harness.shell("logcat -d -v brief -v uid -s ClawperatorResult")
            .out.find("I/ClawperatorResult(" + operator_uid + ":" + operator_pid +
                      "): [Clawperator-Result] ") != std::string::npos);

  // Other commands' result lines in the noise come from another app's uid.
  harness.shell("logcat -c");
  harness.advance(milliseconds(2000));
  const std::string noise = harness.shell("logcat -d -v brief -v uid -s ClawperatorResult").out;
  CHECK(noise.find("I/ClawperatorResult(10087: 2011): [Clawperator-Result] ") != std::string::npos);
  CHECK(noise.find("(" + operator_uid + ":") == std::string::npos);
}

TEST_CASE("logcat.showUids false: a logd that records no uid", "[vdevice][android]") {
  const Scenario scenario = quiet_example_scenario("no-log-uids");
  Harness harness(scenario);
  harness.shell("logcat -c");
  harness.shell("am force-stop com.android.settings");
  harness.broadcast(payload("ping", Json::array({action("p", "doctor_ping")})));
  harness.advance(milliseconds(500));
  const std::string log = harness.shell("logcat -d -v time -v uid").out;
  CHECK(log.find("I/ActivityManager(        612): Force stopping com.android.settings") !=
        std::string::npos);
  REQUIRE(scenario.operator_behavior.pid >= 10000);  // five digits: no padding of its own
  CHECK(log.find("I/ClawperatorResult(      " + std::to_string(scenario.operator_behavior.pid) +
                 "): [Clawperator-Result] ") != std::string::npos);
  // No line names a uid.
  CHECK(log.find(":  612)") == std::string::npos);
  CHECK(log.find("(10") == std::string::npos);
  CHECK(harness.shell("logcat -d -v brief").out.find("I/ActivityManager(  612): Force stopping") !=
        std::string::npos);
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
