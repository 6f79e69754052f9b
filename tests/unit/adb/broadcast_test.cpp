// classify_broadcast over adb 29's real answers (docs/vdevice.md, "The transport packet"):
// adb's own refusals of an over-long request are not deliveries; the same words after a
// request that fits may be.
#include "clawperator/adb/broadcast.hpp"

#include <catch2/catch.hpp>
#include <cerrno>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/process/scripted_runner.hpp"

using clawperator::adb::BroadcastVerdict;
using clawperator::adb::classify_broadcast;
using clawperator::adb::kMaxServiceStringBytes;
using clawperator::adb::kOldDevicePacketCommandBytes;
using clawperator::process::Completion;
using clawperator::process::ScriptedRunner;

namespace {

Completion failed_with(int exit_code, const std::string& err) {
  return ScriptedRunner::exited(exit_code, "", err);
}

}  // namespace

TEST_CASE("adb's refusals of an over-long request are not sent", "[adb][broadcast]") {
  SECTION("over the device's packet: the server aborts before writing it") {
    const auto verdict = classify_broadcast(
        failed_with(1, "error: protocol fault (couldn't read status): Success\n"),
        kOldDevicePacketCommandBytes + 1);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.refusal.find("transport packet") != std::string::npos);
    CHECK(verdict.detail == "error: protocol fault (couldn't read status): Success");
  }
  SECTION("exec-out's status for the same") {
    const auto verdict = classify_broadcast(
        failed_with(255, "error: protocol fault (couldn't read status): Success\n"), 5000);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
  }
  SECTION("over 65535 bytes: the length prefix overflows") {
    const auto verdict =
        classify_broadcast(failed_with(1, "error: closed\n"), kMaxServiceStringBytes + 1);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.refusal.find("65535") != std::string::npos);
  }
  SECTION("over 1 MiB: the client refuses it itself") {
    const auto verdict =
        classify_broadcast(failed_with(1, "error: bad service name length (1048700)\n"), 1048690);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.detail == "error: bad service name length (1048700)");
  }
  SECTION("one argument over 128 KiB: adb never starts") {
    Completion spawn;
    spawn.status = Completion::Status::SpawnFailed;
    spawn.spawn_errno = E2BIG;
    const auto verdict = classify_broadcast(spawn, 200000);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.detail == "Argument list too long");
    CHECK(!verdict.refusal.empty());
  }
}

TEST_CASE("the same words after a request that fits may mean it arrived", "[adb][broadcast]") {
  // The server can die, or the device close the stream, after the shell started.
  CHECK(classify_broadcast(
            failed_with(1, "error: protocol fault (couldn't read status): Success\n"), 300)
            .verdict == BroadcastVerdict::Uncertain);
  CHECK(classify_broadcast(failed_with(1, "error: closed\n"), 300).verdict ==
        BroadcastVerdict::Uncertain);
  CHECK(classify_broadcast(failed_with(1, "error: closed\n"), kMaxServiceStringBytes).verdict ==
        BroadcastVerdict::Uncertain);
  // The server version check comes before any device is asked for.
  CHECK(classify_broadcast(failed_with(1,
                                       "adb: failed to check server version: protocol fault "
                                       "(couldn't read status): Connection reset by peer\n"),
                           300)
            .verdict == BroadcastVerdict::NotSent);
  // A successful call is never a refusal, whatever its length.
  CHECK(classify_broadcast(ScriptedRunner::exited(0, "Broadcast completed: result=0\n"), 100000)
            .verdict == BroadcastVerdict::Acknowledged);
}

TEST_CASE("adb's usage errors and its client's refusals are not sent", "[adb][broadcast]") {
  // adb 29's words for a command line it cannot read (docs/wire-protocol.md §2.6).
  for (const char* text : {"adb: unknown command shell-x\n", "adb: -s requires an argument\n",
                           "adb: forward takes two arguments\n",
                           "adb: usage: adb exec-out command\n", "adb: invalid transport id\n",
                           "Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\nInstalled "
                           "as /usr/bin/adb\n"}) {
    CAPTURE(text);
    const auto verdict = classify_broadcast(failed_with(1, text), 300);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.refusal.rfind("adb refused its own command line (", 0) == 0);
    CHECK(clawperator::adb::adb_usage_error(text).has_value());
  }
  // The server's refusals before any device service: the device named is not there, or it
  // cannot be opened.
  for (const char* text : {"error: no device with transport id '99'\n",
                           "error: insufficient permissions for device: user in plugdev group; "
                           "are your udev rules wrong?\n"}) {
    CAPTURE(text);
    const auto verdict = classify_broadcast(failed_with(1, text), 300);
    CHECK(verdict.verdict == BroadcastVerdict::NotSent);
    CHECK(verdict.refusal.empty());
  }
  // Words of the device's own commands are not adb's.
  for (const char* text : {"Unknown command: broadcst\n", "Error: requires an argument\n",
                           "usage: am [subcommand]\n", "/system/bin/sh: adb: takes arguments\n"}) {
    CAPTURE(text);
    CHECK_FALSE(clawperator::adb::adb_usage_error(text).has_value());
    CHECK(classify_broadcast(failed_with(255, text), 300).verdict == BroadcastVerdict::Uncertain);
  }
  // A successful call is never one, whatever it printed.
  CHECK(classify_broadcast(ScriptedRunner::exited(0, "Broadcast completed: result=0\n",
                                                  "adb: unknown command x\n"),
                           300)
            .verdict == BroadcastVerdict::Acknowledged);
}
