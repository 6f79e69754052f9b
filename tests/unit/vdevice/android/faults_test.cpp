#include <catch2/catch.hpp>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/adb/broadcast.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

Scenario with_faults(void (*set)(FaultSpec&)) {
  Scenario scenario = quiet_scenario();
  set(scenario.faults);
  return scenario;
}

std::string snapshot_payload(const std::string& id) {
  return payload(id, Json::array({action("snap", "snapshot")}));
}

// A result short enough for one line.
std::string small_payload(const std::string& id) {
  return payload(id, Json::array({action("nap", "sleep", Json{{"durationMs", 10}})}));
}

const transport::MalformedResult& malformed(ResultCapture& capture) {
  const auto& status = capture.wait();
  const auto* result = std::get_if<transport::MalformedResult>(&status);
  REQUIRE(result != nullptr);
  return *result;
}

process::Completion completion_of(const ShellResult& result) {
  process::Completion completion;
  completion.status = process::Completion::Status::Exited;
  completion.exit_code = result.status;
  completion.out = result.out;
  completion.err = result.err;
  return completion;
}

}  // namespace

TEST_CASE("fault neverAnswer: the command runs, no result is logged", "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.never_answer = true; }));
  ResultCapture capture(harness, "mute", "mute");
  harness.broadcast(snapshot_payload("mute"));
  capture.wait(milliseconds(10000));
  CHECK_FALSE(capture.decoder().settled());
  CHECK(harness.shell("logcat -d").out.find("[commandId=mute] finished: success") !=
        std::string::npos);
}

TEST_CASE("fault answerLateMs delays the result", "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.answer_late_ms = 3000; }));
  ResultCapture capture(harness, "late", "late");
  harness.broadcast(snapshot_payload("late"));
  capture.wait(milliseconds(2500));
  CHECK_FALSE(capture.decoder().settled());
  CHECK(capture.complete(milliseconds(1000)).envelope.status == "success");
}

TEST_CASE("fault malformedEnvelope", "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.malformed_envelope = true; }));
  ResultCapture capture(harness, "mal", "mal");
  harness.broadcast(small_payload("mal"));
  const auto& result = malformed(capture);
  CHECK_FALSE(result.chunk_failure);
}

TEST_CASE("chunk faults: each is caught by the CLI's reassembler", "[vdevice][android]") {
  struct Case {
    const char* name;
    void (*set)(FaultSpec&);
    transport::ChunkErrorKind kind;
  };
  const Case cases[] = {
      {"badChecksum", [](FaultSpec& f) { f.bad_checksum = true; },
       transport::ChunkErrorKind::ChecksumMismatch},
      {"reorderChunks", [](FaultSpec& f) { f.reorder_chunks = true; },
       transport::ChunkErrorKind::IndexOutOfOrder},
      {"duplicateChunk", [](FaultSpec& f) { f.duplicate_chunk = true; },
       transport::ChunkErrorKind::IndexOutOfOrder},
      {"dropChunk", [](FaultSpec& f) { f.drop_chunk = true; },
       transport::ChunkErrorKind::IndexOutOfOrder},
      {"malformedEnvelope, chunked", [](FaultSpec& f) { f.malformed_envelope = true; },
       transport::ChunkErrorKind::MalformedEnvelope},
  };
  for (const Case& fault : cases) {
    INFO(fault.name);
    Scenario scenario = with_faults(fault.set);
    scenario.faults.pad_snapshot_bytes = 20000;  // several chunks
    Harness harness(scenario);
    ResultCapture capture(harness, "chunky", "chunky");
    harness.broadcast(snapshot_payload("chunky"));
    const auto& result = malformed(capture);
    REQUIRE(result.chunk_failure);
    CHECK(*result.chunk_failure == fault.kind);
  }
}

TEST_CASE("fault closeStreamMidEnvelope ends live logcat sessions", "[vdevice][android]") {
  Scenario scenario = with_faults([](FaultSpec& f) { f.close_stream_mid_envelope = true; });
  scenario.faults.pad_snapshot_bytes = 20000;
  Harness harness(scenario);
  ResultCapture capture(harness, "cut", "cut");
  harness.broadcast(snapshot_payload("cut"));
  capture.wait(milliseconds(5000));
  REQUIRE(capture.logcat().ended());
  CHECK(*capture.logcat().output->exit_code == 1);
  CHECK(capture.logcat().output->err.rfind("logcat: Unexpected EOF!", 0) == 0);
  CHECK_FALSE(capture.decoder().settled());
  CHECK(capture.decoder().chunk_diagnostics().receivedChunks > 0);
  CHECK_FALSE(capture.logcat().output->misuse);
}

TEST_CASE("fault dropConnectionBeforeDispatch: no answer, no execution", "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.drop_connection_before_dispatch = true; }));
  ResultCapture capture(harness, "drop1", "drop1");
  auto broadcast =
      harness.open(adb::broadcast_command(kOperatorPackage, snapshot_payload("drop1")), true);
  CHECK(broadcast.output->out.empty());
  harness.advance(milliseconds(1));
  CHECK(harness.transport.drops == 1);
  CHECK_FALSE(broadcast.ended());  // cut, not answered
  CHECK_FALSE(broadcast.output->misuse);
  harness.advance(milliseconds(3000));
  CHECK(harness.shell("logcat -d").out.find("commandId=drop1") == std::string::npos);
}

TEST_CASE("fault dropConnectionAfterDispatch: acknowledged, then cut before the result",
          "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.drop_connection_after_dispatch = true; }));
  ResultCapture capture(harness, "drop2", "drop2");
  const auto broadcast = harness.broadcast(small_payload("drop2"));
  CHECK(broadcast.status == 0);
  CHECK(broadcast.out.find("Broadcast completed: result=0") != std::string::npos);
  capture.wait(milliseconds(3000));
  CHECK(harness.transport.drops == 1);
  CHECK_FALSE(capture.decoder().settled());
  // The Operator did answer, into a log nobody was reading any more.
  CHECK(harness.shell("logcat -d").out.find("[Clawperator-Result] {\"commandId\":\"drop2\"") !=
        std::string::npos);
}

TEST_CASE("fault broadcastRefused: the CLI reads it as a missing package", "[vdevice][android]") {
  Harness harness(with_faults([](FaultSpec& f) { f.broadcast_refused = true; }));
  const auto refused = harness.broadcast(snapshot_payload("no"));
  CHECK(refused.status == 255);
  CHECK(refused.out.empty());
  CHECK(refused.err == "Error: Target package not found: com.clawperator.operator\n");
  CHECK(adb::classify_broadcast(completion_of(refused)).verdict == adb::BroadcastVerdict::Refused);
}

TEST_CASE("faults unauthorized and offline set the connection mode", "[vdevice][android]") {
  using clawperator::vdevice::ConnectionMode;
  CHECK(Harness().device->connection_mode() == ConnectionMode::Normal);
  CHECK(Harness(with_faults([](FaultSpec& f) {
          f.unauthorized = true;
        })).device->connection_mode() == ConnectionMode::Unauthorized);
  CHECK(Harness(with_faults([](FaultSpec& f) { f.offline = true; })).device->connection_mode() ==
        ConnectionMode::Offline);
}

TEST_CASE("faults spare the readiness probe and honour count", "[vdevice][android]") {
  Scenario scenario = with_faults([](FaultSpec& f) { f.never_answer = true; });
  scenario.faults.count = 1;
  Harness harness(scenario);
  {
    ResultCapture probe(harness, "probe", "probe");
    harness.broadcast(payload("probe", Json::array({action("h1", "doctor_ping")})));
    CHECK(probe.complete().envelope.status == "success");
  }
  {
    ResultCapture first(harness, "first", "first");
    harness.broadcast(snapshot_payload("first"));
    first.wait(milliseconds(3000));
    CHECK_FALSE(first.decoder().settled());
  }
  ResultCapture second(harness, "second", "second");
  harness.broadcast(snapshot_payload("second"));
  CHECK(second.complete().envelope.status == "success");
}

TEST_CASE("the adb banner comes from the scenario's properties", "[vdevice][android]") {
  Harness harness;
  CHECK(harness.device->banner() ==
        "device::ro.product.name=vpixel;ro.product.model=Virtual Pixel;ro.product.device=vpixel;"
        "features=shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,"
        "fixed_push_symlink_timestamp,remount_shell,track_app,sendrecv_v2,"
        "sendrecv_v2_brotli,sendrecv_v2_lz4,sendrecv_v2_zstd,sendrecv_v2_dry_run_send,"
        "openscreen_mdns");
}
