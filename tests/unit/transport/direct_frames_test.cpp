// The host's reading of the direct transport's frames (docs/wire-protocol.md §11): the
// sequence, the checks, and what each broken stream says.
#include "clawperator/transport/direct_frames.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "clawperator/transport/sha256.hpp"

using clawperator::transport::direct_result;
using clawperator::transport::DirectFrameReader;
using clawperator::transport::encode_frame;
using clawperator::transport::sha256_hex;
using nlohmann::json;
using Stage = DirectFrameReader::Stage;

namespace {

std::string frame(const json& control) {
  return encode_frame(control.dump());
}

const std::string kLine =
    R"([Clawperator-Result] {"commandId":"c1","taskId":"t1","status":"success","stepResults":[],"error":null})";

std::string ready() {
  return frame({{"type", "ready"},
                {"protocol", 1},
                {"sessionId", "s1"},
                {"operatorPackage", "pkg"},
                {"commandId", "c1"},
                {"taskId", "t1"}});
}
std::string pong() {
  return frame({{"type", "pong"}, {"sessionId", "s1"}});
}
std::string header(std::size_t length, const std::string& sha) {
  return frame({{"type", "result"},
                {"sessionId", "s1"},
                {"commandId", "c1"},
                {"taskId", "t1"},
                {"byteLength", length},
                {"sha256", sha}});
}

DirectFrameReader set_up() {
  DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
  reader.feed(ready());
  REQUIRE(reader.ready_received());
  reader.ping_sent();
  reader.feed(pong());
  REQUIRE(reader.stage() == Stage::ResultHeader);
  return reader;
}

}  // namespace

TEST_CASE("direct frames: the whole exchange, one byte at a time", "[transport][direct]") {
  DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
  std::string stream = ready();
  for (const char c : stream) reader.feed(std::string_view(&c, 1));
  CHECK(reader.stage() == Stage::Ready);
  reader.ping_sent();
  CHECK(reader.stage() == Stage::Pong);
  stream = pong() + header(kLine.size(), sha256_hex(kLine)) + encode_frame(kLine) +
           frame({{"type", "timing"},
                  {"sessionId", "s1"},
                  {"androidResultWriteMs", 4},
                  {"androidResultAckRoundTripMs", 2}});
  for (const char c : stream) reader.feed(std::string_view(&c, 1));
  CHECK(reader.stage() == Stage::Done);
  CHECK(reader.android_write_ms() == 4);
  CHECK(reader.android_ack_round_trip_ms() == 2);
  auto result = direct_result(reader.take_result_line(), "c1", "t1");
  REQUIRE(result);
  CHECK(result->envelope.status == "success");
}

TEST_CASE("direct frames: each broken stream fails with its reason", "[transport][direct]") {
  SECTION("a bad hash") {
    auto reader = set_up();
    reader.feed(header(kLine.size(), std::string(64, '0')) + encode_frame(kLine));
    CHECK(reader.failed());
    CHECK(reader.failure().find("SHA-256") != std::string::npos);
  }
  SECTION("a short frame, then the close") {
    auto reader = set_up();
    reader.feed(header(kLine.size(), sha256_hex(kLine)) + encode_frame(kLine).substr(0, 30));
    CHECK(reader.stage() == Stage::ResultBytes);
    reader.end_of_stream();
    CHECK(reader.failure() ==
          "the connection closed after 26 of " + std::to_string(kLine.size()) + " result bytes");
  }
  SECTION("a frame larger than its header") {
    auto reader = set_up();
    reader.feed(header(kLine.size(), sha256_hex(kLine)) +
                encode_frame(kLine + std::string(64, 'x')));
    CHECK(reader.failure().find("declares " + std::to_string(kLine.size() + 64)) !=
          std::string::npos);
  }
  SECTION("a control frame over 4096 bytes") {
    DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
    reader.feed(encode_frame(std::string(5000, ' ')).substr(0, 10));
    CHECK(reader.failure() == "a control frame of 5000 bytes (at most 4096)");
  }
  SECTION("another session's ready") {
    DirectFrameReader reader({"s2", "pkg", "c1", "t1"});
    reader.feed(ready());
    CHECK(reader.failure() == R"(ready: sessionId is "s1", not "s2")");
  }
  SECTION("closed before ready") {
    DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
    reader.end_of_stream();
    CHECK(reader.failure() == "the connection closed before the ready frame");
  }
  SECTION("a result header before the pong") {
    DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
    reader.feed(ready() + header(kLine.size(), sha256_hex(kLine)));
    CHECK(reader.failure() == "a result header before the pong");
  }
  SECTION("not JSON") {
    DirectFrameReader reader({"s1", "pkg", "c1", "t1"});
    reader.feed(encode_frame("ready"));
    CHECK(reader.failure() == "a control frame that is not a JSON object");
  }
}

TEST_CASE("direct frames: the close after a verified result is the end", "[transport][direct]") {
  auto reader = set_up();
  reader.feed(frame({{"type", "future-type"}}));  // ignored
  reader.feed(header(kLine.size(), sha256_hex(kLine)) + encode_frame(kLine));
  CHECK(reader.stage() == Stage::Timing);
  reader.end_of_stream();
  CHECK(reader.stage() == Stage::Done);
  CHECK(reader.take_result_line() == kLine);
  CHECK_FALSE(direct_result(kLine, "c2", "t1"));
  CHECK_FALSE(direct_result("no prefix", "c1", "t1"));
}
