// kill, the shell's builtin and toybox's, against the device's running commands.
#include <catch2/catch.hpp>
#include <string>

#include "android_test_support.hpp"
#include "vdevice/android/system/process_table.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

std::string pid_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE("kill: unknown pids, bad signals, usage", "[vdevice][android][kill]") {
  Harness harness;
  ShellResult result = harness.shell("kill -INT 31337");
  CHECK(result.err == "/system/bin/sh: kill: 31337: No such process\n");
  CHECK(result.status == 1);
  result = harness.shell("kill -FOO 31337");
  CHECK(result.err == "/system/bin/sh: kill: bad signal 'FOO'\n");
  CHECK(result.status == 1);
  result = harness.shell("kill abc");
  CHECK(result.err == "/system/bin/sh: kill: abc: arguments must be jobs or process IDs\n");
  result = harness.shell("kill");
  CHECK(result.status == 1);
  CHECK(result.err.rfind("usage:\tkill [-s signame | -signum | -signame]", 0) == 0);
  result = harness.shell("/system/bin/kill -s INT 31337");
  CHECK(result.err == "kill: unknown pid '31337'\n");
  CHECK(result.status == 1);
  result = harness.shell("/system/bin/kill -BOGUS 31337");
  CHECK(result.err == "kill: Unknown signal 'BOGUS'\n");
  CHECK(result.status == 1);
  CHECK(signal_number("SIGINT") == 2);
  CHECK(signal_number("int") == 2);
  CHECK(signal_number("15") == 15);
  CHECK(signal_number("0") == 0);
  CHECK_FALSE(signal_number("32"));
  CHECK_FALSE(signal_number("NOPE"));
}

TEST_CASE("kill: a following logcat dies of SIGINT, the shell reports 130",
          "[vdevice][android][kill]") {
  Harness harness;
  Stream logcat = harness.open("echo $$; exec logcat");
  harness.advance(milliseconds(10));
  const std::string pid = pid_line(logcat.output->out);
  CHECK(harness.shell("kill -INT " + pid).status == 0);
  harness.finish(logcat, milliseconds(100));
  REQUIRE(logcat.ended());
  CHECK(*logcat.output->exit_code == 130);
}
