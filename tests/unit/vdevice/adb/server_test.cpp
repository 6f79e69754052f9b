// The server over real loopback sockets, with a hand-driven host: socket-level behaviour that
// the real adb never provokes on purpose (tiny reads, full socket buffers, garbage, drops).
#include "vdevice/adb/server.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <system_error>
#include <thread>

#include "adb_test_support.hpp"

namespace {

using namespace clawperator::vdevice;
using namespace clawperator::vdevice::adb;
using namespace clawperator::vdevice::adb::test;

// OPEN, then the device's OKAY: returns the device's stream id (0 on failure). Output of
// other streams arriving meanwhile is dropped unacknowledged.
std::uint32_t open_stream(FakeHost& host, std::uint32_t host_id, std::string_view text) {
  host.send(kOpen, host_id, 0, service(text));
  while (const std::optional<Message> reply = host.receive()) {
    if (reply->arg1 != host_id) continue;
    return reply->command == kOkay ? reply->arg0 : 0;
  }
  return 0;
}

}  // namespace

TEST_CASE("the server reads messages arriving one byte at a time", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost host(server.port());
  REQUIRE(host.connected());
  std::string wire;
  append_message(wire, kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
  append_message(wire, kOpen, 1, 0, service("shell,v2,TERM=xterm,raw:echo hi"));
  for (const char byte : wire) {
    host.send_bytes(std::string_view(&byte, 1));
    // A pause after each byte, so that each arrives in a read of its own.
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  const std::optional<Message> cnxn = host.receive();
  REQUIRE(cnxn);
  CHECK(cnxn->command == kCnxn);
  CHECK(cnxn->payload == device.banner());
  const std::optional<Message> okay = host.receive();
  REQUIRE(okay);
  REQUIRE(okay->command == kOkay);
  const ShellResult result = collect_shell_v2(host, 1, okay->arg0);
  CHECK(result.out == "hi\n");
  CHECK(result.exit_code == 0);
  CHECK(result.closed);
  CHECK(server.stop());
}

TEST_CASE("a host that reads slowly gets every byte while others are served", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost slow(server.port(), 4096);
  REQUIRE(slow.handshake());
  const std::uint32_t big = open_stream(slow, 1, "shell,v2,TERM=xterm,raw:bigout");
  REQUIRE(big != 0);
  // The first 1 MiB WRTE is now stuck in a full socket (once it has begun to arrive): the loop
  // must not be.
  REQUIRE(eventually([&] { return slow.unread_bytes() > 0; }, 10000ms));
  {
    FakeHost quick(server.port());
    REQUIRE(quick.handshake());
    const std::uint32_t echo = open_stream(quick, 1, "shell,v2,TERM=xterm,raw:echo hi");
    REQUIRE(echo != 0);
    const ShellResult quick_result = collect_shell_v2(quick, 1, echo);
    CHECK(quick_result.out == "hi\n");
  }
  const ShellResult result = collect_shell_v2(slow, 1, big);
  CHECK(result.out.size() == kBigOutputSize);
  CHECK(result.out == big_output());
  CHECK(result.exit_code == 0);
  CHECK(result.closed);
  CHECK(result.largest_write <= kMaxPayload);
  CHECK(result.largest_write > 4096);
}

TEST_CASE("WRTE payloads respect a host's smaller maxdata", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost host(server.port());
  const std::optional<Message> cnxn = host.handshake(8192);
  REQUIRE(cnxn);
  CHECK(cnxn->arg1 == 8192);
  const std::uint32_t big = open_stream(host, 1, "shell,v2,TERM=xterm,raw:bigout");
  REQUIRE(big != 0);
  const ShellResult result = collect_shell_v2(host, 1, big);
  CHECK(result.out == big_output());
  CHECK(result.largest_write == 8192);
}

TEST_CASE("garbage from one host closes that connection only", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost good(server.port());
  REQUIRE(good.handshake());
  const std::uint32_t stream = open_stream(good, 1, "shell,v2,raw:stream");
  REQUIRE(stream != 0);

  SECTION("not adb at all") {
    FakeHost bad(server.port());
    bad.send_bytes("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK(bad.closed_by_server());
  }
  SECTION("a payload over the limit") {
    FakeHost bad(server.port());
    REQUIRE(bad.handshake(4096));
    bad.send(kWrte, 1, 1, std::string(5000, 'x'));
    CHECK(bad.closed_by_server());
  }
  SECTION("a reset in the middle of a message") {
    auto bad = std::make_unique<FakeHost>(server.port());
    CHECK(eventually([&] { return server.connections() == 2; }));
    std::string wire;
    append_message(wire, kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
    bad->send_bytes(wire.substr(0, 30));
    bad.reset();
  }
  // The good host's stream keeps ticking.
  int ticks = 0;
  while (ticks < 3) {
    const std::optional<Message> message = good.receive();
    REQUIRE(message);
    if (message->command != kWrte) continue;
    ++ticks;
    good.send(kOkay, 1, stream);
  }
  CHECK(eventually([&] { return server.connections() == 1; }));
}

TEST_CASE("drop_all_connections closes every connection and ends the sessions", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost first(server.port());
  FakeHost second(server.port());
  REQUIRE(first.handshake());
  REQUIRE(second.handshake());
  REQUIRE(open_stream(first, 1, "shell,v2,raw:stream") != 0);
  REQUIRE(open_stream(second, 1, "shell,v2,raw:stream") != 0);
  REQUIRE(eventually([&] { return device.live_sessions() == 2; }));

  SECTION("from a timer") {
    device.request_drop();
    CHECK(first.closed_by_server());
  }
  SECTION("from inside open_shell") {
    FakeHost third(server.port());
    REQUIRE(third.handshake());
    third.send(kOpen, 1, 0, service("shell,v2,raw:drop"));
    CHECK(third.closed_by_server());
    CHECK(first.closed_by_server());
  }
  CHECK(second.closed_by_server());
  CHECK(eventually([&] { return device.live_sessions() == 0; }));
  CHECK(device.host_closes() >= 2);
  CHECK(eventually([&] { return server.connections() == 0; }));

  // Still listening: a dropped cable, not a dead device.
  FakeHost again(server.port());
  REQUIRE(again.handshake());
  const std::uint32_t echo = open_stream(again, 1, "shell,v2,raw:echo hi");
  REQUIRE(echo != 0);
  CHECK(collect_shell_v2(again, 1, echo).out == "hi\n");
}

TEST_CASE("a host that goes away ends its sessions", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  {
    FakeHost host(server.port());
    REQUIRE(host.handshake());
    REQUIRE(open_stream(host, 1, "shell,v2,raw:stream") != 0);
    REQUIRE(open_stream(host, 2, "shell:cat") != 0);
    REQUIRE(eventually([&] { return device.live_sessions() == 2; }));
  }
  CHECK(eventually([&] { return device.live_sessions() == 0; }));
  CHECK(device.host_closes() == 2);
}

TEST_CASE("run returns promptly after stop and closes the connections", "[vdevice][adb]") {
  TestDevice device;
  ServerThread server(device);
  FakeHost host(server.port());
  REQUIRE(host.handshake());
  REQUIRE(open_stream(host, 1, "shell,v2,raw:stream") != 0);
  const Clock::time_point start = Clock::now();
  CHECK(server.stop());
  CHECK(Clock::now() - start < 500ms);
  CHECK(host.closed_by_server());
  CHECK(device.live_sessions() == 0);
  CHECK(device.host_closes() == 1);
}

TEST_CASE("the server refuses to start where it cannot listen", "[vdevice][adb]") {
  TestDevice device;
  CHECK_THROWS_AS(AdbDeviceServer(device, "localhost", 0), std::system_error);
  AdbDeviceServer first(device, "127.0.0.1", 0);
  CHECK(first.port() != 0);
  CHECK_THROWS_AS(AdbDeviceServer(device, "127.0.0.1", first.port()), std::system_error);
}
