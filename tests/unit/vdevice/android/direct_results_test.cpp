// The Operator's side of the direct result transport, driven through the Device interface as
// the adb transport drives it: the prepare broadcast, a connection to the abstract socket
// (what `adb forward` opens), the frames, and the scenario faults.
#include "vdevice/android/operator/direct_results.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "android_test_support.hpp"
#include "clawperator/transport/sha256.hpp"
#include "vdevice/android/operator/result_frames.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const std::string kSocket = std::string(kOperatorPackage) + ".result.s-1";

std::string prepare_command(const Json& request) {
  return "am broadcast -a '" + std::string(kPrepareResultConnectionAction) + "' -p '" +
         kOperatorPackage + "' --es payload " + adb::quote_for_device_shell(dump_json(request)) +
         " --receiver-foreground";
}

Json prepare_request(const std::string& session = "s-1", int lifetime_ms = 20000) {
  return Json{{"protocol", 1},
              {"sessionId", session},
              {"commandId", "c-1"},
              {"taskId", "t-1"},
              {"lifetimeMs", lifetime_ms}};
}

std::string command_with_session(const std::string& payload_json, const std::string& session) {
  return adb::broadcast_command(kOperatorPackage, payload_json) + " --es result_session " + session;
}

std::string frame_of(const Json& object) {
  std::string out;
  append_frame(out, dump_json(object));
  return out;
}

// The host's end of one forwarded connection.
struct Client {
  std::unique_ptr<RecordingOutput> output = std::make_unique<RecordingOutput>();
  std::unique_ptr<vdevice::ServiceSession> session;
  FrameDecoder frames{kMaxResultFrame + 1024};
  std::size_t fed = 0;

  bool refused() const { return session == nullptr; }
  bool closed() const { return output->exit_code.has_value(); }
  void send(const Json& object) { session->on_input(frame_of(object)); }
  // Every frame received since the last call.
  std::vector<std::string> read() {
    frames.feed(std::string_view(output->out).substr(fed));
    fed = output->out.size();
    std::vector<std::string> out;
    while (auto frame = frames.next()) out.push_back(*frame);
    return out;
  }
};

Client connect(Harness& harness, const std::string& name = kSocket) {
  Client client;
  client.session = harness.device->open_local_abstract(name, *client.output);
  return client;
}

Json json_of(const std::string& frame) {
  return Json::parse(frame);
}

Scenario with_direct_fault(DirectFault fault) {
  Scenario scenario = quiet_scenario();
  scenario.faults.direct = fault;
  return scenario;
}

std::string sleep_payload(const std::string& id) {
  return payload(id, Json::array({action("nap", "sleep", Json{{"durationMs", 10}})}));
}

// Prepares, connects and reads `ready`: the state every fault test starts from.
Client ready_client(Harness& harness) {
  REQUIRE(harness.shell(prepare_command(prepare_request())).status == 0);
  Client client = connect(harness);
  REQUIRE_FALSE(client.refused());
  return client;
}

}  // namespace

TEST_CASE("frames: a big-endian length, then the bytes", "[vdevice][android][direct]") {
  std::string wire;
  append_frame(wire, "{\"type\":\"ping\"}");
  CHECK(wire.substr(0, 4) == std::string("\0\0\0\x0f", 4));
  append_frame(wire, "", 7);  // a lying length, for the faults
  CHECK(wire.substr(19) == std::string("\0\0\0\x07", 4));

  FrameDecoder decoder;
  for (const char c : wire.substr(0, 19)) decoder.feed(std::string_view(&c, 1));
  CHECK(decoder.next() == std::optional<std::string>("{\"type\":\"ping\"}"));
  CHECK_FALSE(decoder.next());
  decoder.feed(std::string("\0\0\x10\x01", 4));  // 4097 bytes: over the control limit
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error());
  FrameDecoder large(kMaxResultFrame);
  large.feed(std::string("\0\0\x10\x01", 4));
  CHECK_FALSE(large.next());
  CHECK_FALSE(large.error());
}

TEST_CASE("direct results: ready, ping/pong, the result, ack, timing",
          "[vdevice][android][direct]") {
  Harness harness;
  // Nothing listens before the prepare broadcast.
  CHECK(connect(harness).refused());
  const ShellResult prepared = harness.shell(prepare_command(prepare_request()));
  CHECK(prepared.status == 0);
  CHECK(prepared.out.find("Broadcast completed: result=0") != std::string::npos);

  Client client = connect(harness);
  REQUIRE_FALSE(client.refused());
  std::vector<std::string> frames = client.read();
  REQUIRE(frames.size() == 1);
  const Json ready = json_of(frames[0]);
  CHECK(ready == Json{{"type", "ready"},
                      {"protocol", 1},
                      {"sessionId", "s-1"},
                      {"operatorPackage", kOperatorPackage},
                      {"commandId", "c-1"},
                      {"taskId", "t-1"}});
  // One connection per session.
  Client second = connect(harness);
  REQUIRE_FALSE(second.refused());
  CHECK(second.closed());
  CHECK(second.read().empty());

  client.send(Json{{"type", "ping"}});
  frames = client.read();
  REQUIRE(frames.size() == 1);
  CHECK(json_of(frames[0]) == Json{{"type", "pong"}, {"sessionId", "s-1"}});

  ResultCapture logcat(harness, "c-1", "c-1");
  CHECK(harness.shell(command_with_session(sleep_payload("c-1"), "s-1")).status == 0);
  harness.advance(milliseconds(500));
  frames = client.read();
  REQUIRE(frames.size() == 2);
  const Json header = json_of(frames[0]);
  CHECK(header["type"] == "result");
  CHECK(header["sessionId"] == "s-1");
  CHECK(header["commandId"] == "c-1");
  CHECK(header["taskId"] == "c-1");
  const std::string& line = frames[1];
  CHECK(header["byteLength"] == line.size());
  CHECK(header["sha256"] == transport::sha256_hex(line));
  REQUIRE(line.starts_with("[Clawperator-Result] {"));
  CHECK(json_of(line.substr(21))["status"] == "success");
  // Written to the socket only.
  logcat.wait(milliseconds(200));
  CHECK_FALSE(logcat.decoder().settled());
  CHECK_FALSE(client.closed());

  harness.advance(milliseconds(7));
  client.send(Json{{"type", "ack"}, {"sessionId", "s-1"}});
  frames = client.read();
  REQUIRE(frames.size() == 1);
  const Json timing = json_of(frames[0]);
  CHECK(timing["type"] == "timing");
  CHECK(timing["androidResultWriteMs"] == 0);  // the connection was there when it finished
  CHECK(timing["androidResultAckRoundTripMs"].get<long long>() >= 7);
  CHECK(client.closed());
  // The session is over: its socket no longer listens.
  CHECK(connect(harness).refused());
  const std::string log = harness.shell("logcat -d").out;
  CHECK(log.find("listening on @" + kSocket + " for 20000 ms") != std::string::npos);
  CHECK(log.find("result_session=s-1") != std::string::npos);
}

TEST_CASE("direct results: a result that is ready before the host connects waits for it",
          "[vdevice][android][direct]") {
  Harness harness;
  REQUIRE(harness.shell(prepare_command(prepare_request())).status == 0);
  CHECK(harness.shell(command_with_session(sleep_payload("early"), "s-1")).status == 0);
  harness.advance(milliseconds(500));
  Client client = connect(harness);
  const std::vector<std::string> frames = client.read();
  REQUIRE(frames.size() == 3);
  CHECK(json_of(frames[0])["type"] == "ready");
  CHECK(json_of(frames[1])["commandId"] == "early");
  CHECK(frames[2].starts_with("[Clawperator-Result] "));
}

TEST_CASE("direct results: lifetime, unknown sessions, bad requests, an older Operator",
          "[vdevice][android][direct]") {
  SECTION("the socket stops listening when the lifetime ends, and a connection is closed") {
    Harness harness;
    REQUIRE(harness.shell(prepare_command(prepare_request("s-1", 1000))).status == 0);
    Client client = connect(harness);
    CHECK(client.read().size() == 1);
    harness.advance(milliseconds(999));
    CHECK_FALSE(client.closed());
    harness.advance(milliseconds(2));
    CHECK(client.closed());
    CHECK(connect(harness).refused());
    // A command for the expired session: the result goes nowhere, not to logcat either.
    ResultCapture logcat(harness, "late", "late");
    harness.shell(command_with_session(sleep_payload("late"), "s-1"));
    logcat.wait(milliseconds(500));
    CHECK_FALSE(logcat.decoder().settled());
    CHECK(harness.shell("logcat -d").out.find("result session s-1 is not open") !=
          std::string::npos);
  }
  SECTION("a lifetime is at most 150 s") {
    Harness harness;
    REQUIRE(harness.shell(prepare_command(prepare_request("s-1", 900000))).status == 0);
    harness.advance(milliseconds(149999));
    CHECK_FALSE(connect(harness).refused());
  }
  SECTION("the host's connection closing before the result ends the session") {
    Harness harness;
    Client client = ready_client(harness);
    client.session->on_host_close();
    CHECK(connect(harness).refused());
  }
  SECTION("a frame without a type, or too long, closes the connection") {
    Harness harness;
    Client client = ready_client(harness);
    client.session->on_input(frame_of(Json::array({1})));
    CHECK(client.closed());
    Harness other;
    Client greedy = ready_client(other);
    greedy.session->on_input(std::string("\0\x01\0\0", 4));
    CHECK(greedy.closed());
  }
  SECTION("invalid prepare requests are logged and ignored") {
    Harness harness;
    for (const Json& request :
         {Json{{"protocol", 2},
               {"sessionId", "a"},
               {"commandId", "c"},
               {"taskId", "t"},
               {"lifetimeMs", 1000}},
          Json{{"protocol", 1},
               {"sessionId", "a b"},
               {"commandId", "c"},
               {"taskId", "t"},
               {"lifetimeMs", 1000}},
          Json{{"protocol", 1}, {"sessionId", "a"}, {"taskId", "t"}, {"lifetimeMs", 1000}},
          Json{{"protocol", 1},
               {"sessionId", "a"},
               {"commandId", "c"},
               {"taskId", "t"},
               {"lifetimeMs", -5}}}) {
      CHECK(harness.shell(prepare_command(request)).status == 0);
    }
    CHECK(harness
              .shell("am broadcast -a " + std::string(kPrepareResultConnectionAction) +
                     " --es payload 'not json'")
              .status == 0);
    CHECK(connect(harness, std::string(kOperatorPackage) + ".result.a").refused());
    const std::string log = harness.shell("logcat -d").out;
    CHECK(log.find("Rejected result connection request: protocol must be 1") != std::string::npos);
    CHECK(log.find("Rejected result connection request: sessionId must be") != std::string::npos);
    CHECK(log.find("Rejected result connection request: commandId and taskId") !=
          std::string::npos);
    CHECK(log.find("Rejected result connection request: lifetimeMs") != std::string::npos);
    CHECK(log.find("Rejected result connection request: the payload is not a JSON object") !=
          std::string::npos);
  }
  SECTION("an Operator without direct support ignores both extras and logs its result") {
    Scenario scenario = quiet_scenario();
    scenario.operator_behavior.direct_transport = false;
    Harness harness(scenario);
    REQUIRE(harness.shell(prepare_command(prepare_request())).status == 0);
    CHECK(connect(harness).refused());
    ResultCapture logcat(harness, "old", "old");
    harness.shell(command_with_session(sleep_payload("old"), "s-1"));
    CHECK(logcat.complete().envelope.status == "success");
  }
}

TEST_CASE("direct faults", "[vdevice][android][direct]") {
  SECTION("refuseConnection: accepted and closed before ready") {
    Harness harness(with_direct_fault(DirectFault::RefuseConnection));
    Client client = ready_client(harness);
    CHECK(client.closed());
    CHECK(client.read().empty());
  }
  SECTION("neverReady: open, silent, deaf") {
    Harness harness(with_direct_fault(DirectFault::NeverReady));
    Client client = ready_client(harness);
    client.send(Json{{"type", "ping"}});
    harness.shell(command_with_session(sleep_payload("c-1"), "s-1"));
    harness.advance(milliseconds(1000));
    CHECK(client.read().empty());
    CHECK_FALSE(client.closed());
  }

  // The faults that hit the result: ready, then the command.
  const auto run = [](Harness& harness, Client& client) {
    REQUIRE(client.read().size() == 1);
    harness.shell(command_with_session(sleep_payload("c-1"), "s-1"));
    harness.advance(milliseconds(500));
  };
  SECTION("badSha256") {
    Harness harness(with_direct_fault(DirectFault::BadSha256));
    Client client = ready_client(harness);
    run(harness, client);
    const auto frames = client.read();
    REQUIRE(frames.size() == 2);
    CHECK(json_of(frames[0])["byteLength"] == frames[1].size());
    CHECK(json_of(frames[0])["sha256"] != transport::sha256_hex(frames[1]));
  }
  SECTION("shortFrame: half the declared bytes, then the socket closes") {
    Harness harness(with_direct_fault(DirectFault::ShortFrame));
    Client client = ready_client(harness);
    run(harness, client);
    const auto frames = client.read();
    REQUIRE(frames.size() == 1);
    const std::size_t length = json_of(frames[0])["byteLength"];
    CHECK(client.frames.buffered_bytes() == 4 + length / 2);
    CHECK(client.closed());
  }
  SECTION("oversizedFrame: the result frame is longer than byteLength") {
    Harness harness(with_direct_fault(DirectFault::OversizedFrame));
    Client client = ready_client(harness);
    run(harness, client);
    const auto frames = client.read();
    REQUIRE(frames.size() == 2);
    const std::size_t length = json_of(frames[0])["byteLength"];
    CHECK(frames[1].size() == length + 64);
    CHECK(json_of(frames[0])["sha256"] == transport::sha256_hex(frames[1].substr(0, length)));
  }
  SECTION("dropMidResult: half the result, then every connection drops") {
    Harness harness(with_direct_fault(DirectFault::DropMidResult));
    Client client = ready_client(harness);
    run(harness, client);
    CHECK(client.read().size() == 1);
    CHECK(client.frames.buffered_bytes() > 4);
    CHECK(harness.transport.drops == 1);
  }
  SECTION("noTiming: the ack goes unanswered until the lifetime ends") {
    Harness harness(with_direct_fault(DirectFault::NoTiming));
    Client client = ready_client(harness);
    run(harness, client);
    CHECK(client.read().size() == 2);
    client.send(Json{{"type", "ack"}});
    harness.advance(milliseconds(5000));
    CHECK(client.read().empty());
    CHECK_FALSE(client.closed());
    harness.advance(milliseconds(20000));
    CHECK(client.closed());
  }
  SECTION("closeBeforeAck: the socket closes right after the result") {
    Harness harness(with_direct_fault(DirectFault::CloseBeforeAck));
    Client client = ready_client(harness);
    run(harness, client);
    CHECK(client.read().size() == 2);
    CHECK(client.closed());
  }
  SECTION("count: only the first sessions are hit") {
    Scenario scenario = with_direct_fault(DirectFault::RefuseConnection);
    scenario.faults.count = 1;
    Harness harness(scenario);
    CHECK(ready_client(harness).closed());
    REQUIRE(harness.shell(prepare_command(prepare_request("s-2"))).status == 0);
    Client second = connect(harness, std::string(kOperatorPackage) + ".result.s-2");
    CHECK_FALSE(second.closed());
    CHECK(second.read().size() == 1);
  }
}
