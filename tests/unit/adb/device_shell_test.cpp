// The exit-status marker appended to device shell commands.
#include "clawperator/adb/device_shell.hpp"

#include <catch2/catch.hpp>

using clawperator::adb::split_exit_marker;
using clawperator::adb::with_exit_marker;

TEST_CASE("the exit marker separates output from the device's exit status", "[adb][marker]") {
  CHECK(with_exit_marker("pm list packages") == "pm list packages; echo clawperator-exit:$?");
  const auto ok = split_exit_marker("package:a\npackage:b\nclawperator-exit:0\n");
  CHECK(ok.text == "package:a\npackage:b\n");
  CHECK(ok.exit_code == 0);
  CHECK(split_exit_marker("clawperator-exit:127\n").exit_code == 127);
  // A dropped stream: no marker, no status.
  const auto dropped = split_exit_marker("package:a\n");
  CHECK(dropped.text == "package:a\n");
  CHECK_FALSE(dropped.exit_code);
  // The marker only counts at the start of a line.
  CHECK_FALSE(split_exit_marker("xclawperator-exit:0\n").exit_code);
  // Not a shell status: absent rather than wrapped around (found by fuzz_adb_output).
  CHECK_FALSE(split_exit_marker("clawperator-exit:5555555555555555555555\n").exit_code);
  CHECK_FALSE(split_exit_marker("clawperator-exit:256\n").exit_code);
  CHECK_FALSE(split_exit_marker("clawperator-exit:-1\n").exit_code);
  CHECK_FALSE(split_exit_marker("clawperator-exit:\n").exit_code);
}
