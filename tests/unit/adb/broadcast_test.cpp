// classify_broadcast over adb 29's real answers (docs/vdevice.md, "The transport packet"):
// adb's own refusals of an over-long request are not deliveries; the same words after a
// request that fits may be.
#include "clawperator/adb/broadcast.hpp"

#include <catch2/catch.hpp>
#include <cerrno>

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
