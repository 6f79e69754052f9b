// The video session's lock name (src/evidence/video_state.cpp): the device key the execution
// lock uses, fixed in the session record at start, and the name an older record implies.
#include "evidence/video_state.hpp"

#include <catch2/catch.hpp>

#include "clawperator/adb/server_endpoint.hpp"
#include "scripted_device.hpp"

using namespace clawperator;
namespace video = clawperator::evidence::video;

namespace {

adb::AdbSettings server(std::string host, int port) {
  adb::AdbSettings settings;
  settings.server_host = std::move(host);
  settings.server_port = port;
  return settings;
}

video::SessionRecord record_for(const adb::AdbSettings& settings) {
  video::SessionRecord record;
  record.session_id = "0e708990-1abd-4d9e-b2f9-16313db7629e";
  record.serial = "emulator-5554";
  record.bundle_dir = "/tmp/bundle";
  record.duration_seconds = 5;
  record.adb = settings;
  record.lock = video::lock_name(settings, record.serial);
  return record;
}

}  // namespace

TEST_CASE("one recorder per device: the video lock is named by the device key",
          "[evidence][video][lock]") {
  const std::string expected = "evidence-video-lock-" +
                               adb::device_key(server("127.0.0.1", 6001), "emulator-5554") +
                               ".json";
  CHECK(expected == "evidence-video-lock-tcp%3Aloopback%3A6001+emulator-5554.json");
  for (const char* host : {"127.0.0.1", "localhost", "::1", "LOCALHOST"}) {
    CAPTURE(host);
    CHECK(video::lock_name(server(host, 6001), "emulator-5554") == expected);
  }
  CHECK(video::lock_name(server("localhost", 6002), "emulator-5554") != expected);
  CHECK(video::lock_name(server("localhost", 6001), "emulator-5556") != expected);
}

TEST_CASE("the session record keeps its lock's name", "[evidence][video][lock]") {
  testing::TemporaryDirectory dir("video-state");
  const io::StateSelection state = test::private_state(dir.path());
  const video::SessionRecord record = record_for(server("localhost", 6001));
  REQUIRE(video::write_record(*state.directory, record));
  const auto read = video::read_record(*state.directory, record.session_id);
  REQUIRE(read);
  CHECK(read->lock == "evidence-video-lock-tcp%3Aloopback%3A6001+emulator-5554.json");

  SECTION("a record an older version wrote names the lock that version made") {
    // Without "lockName": the lock was "<--adb-server host>:<port>-<serial>", escaped.
    const std::string text =
        R"({"sessionId":"0e708990-1abd-4d9e-b2f9-16313db7629e","serial":"emulator-5554",)"
        R"("bundleDir":"/tmp/bundle","durationSeconds":5,)"
        R"("adb":{"executable":"adb","serverHost":"localhost","serverPort":6001}})";
    REQUIRE(state.directory->replace_file(video::record_name(record.session_id), text));
    const auto old = video::read_record(*state.directory, record.session_id);
    REQUIRE(old);
    CHECK(old->lock == "evidence-video-lock-localhost%3A6001-emulator-5554.json");
    // And one without --adb-server.
    const std::string plain =
        R"({"sessionId":"0e708990-1abd-4d9e-b2f9-16313db7629e","serial":"emulator-5554",)"
        R"("bundleDir":"/tmp/bundle","durationSeconds":5,"adb":{"executable":"adb"}})";
    REQUIRE(state.directory->replace_file(video::record_name(record.session_id), plain));
    CHECK(video::read_record(*state.directory, record.session_id)->lock ==
          "evidence-video-lock-%3A-emulator-5554.json");
  }
}
