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

TEST_CASE("adb's own log-format lines stay out of messages, not out of details",
          "[adb][messages]") {
  using clawperator::process::Completion;
  Completion completion;
  completion.status = Completion::Status::Exited;
  completion.exit_code = 1;
  const std::string log_line =
      "adb W 12-01 14:52:07  4242  4242 network.cpp:150] odd reply from the server";
  clawperator::adb::AdbSettings settings;
  SECTION("a plain line after it is the message") {
    completion.err = log_line + "\nsomething odd happened\n";
    const auto status = clawperator::adb::adb_call_failure(completion, settings, "adb shell",
                                                           "DEVICE_SHELL_UNAVAILABLE");
    REQUIRE_FALSE(status);
    const auto& error = status.error();
    CHECK(error.code == "DEVICE_SHELL_UNAVAILABLE");
    CHECK(error.message == "adb shell failed (exit 1): something odd happened");
    CHECK(error.details["stderr"] == completion.err);
  }
  SECTION("alone, it gives its text without the prefix") {
    completion.err = log_line + "\n";
    const auto status = clawperator::adb::adb_call_failure(completion, settings, "adb shell",
                                                           "DEVICE_SHELL_UNAVAILABLE");
    REQUIRE_FALSE(status);
    const auto& error = status.error();
    CHECK(error.message == "adb shell failed (exit 1): odd reply from the server");
    CHECK(error.details["stderr"] == completion.err);
  }
}
