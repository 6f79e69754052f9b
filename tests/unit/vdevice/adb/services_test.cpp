// The streams adb opens besides shells: `sync:` and `localabstract:NAME` (adb forward), and the
// device's own packet limit in the handshake.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "adb_test_support.hpp"
#include "vdevice/adb/connection.hpp"

namespace {

using namespace clawperator::vdevice;
using namespace clawperator::vdevice::adb;
using namespace clawperator::vdevice::adb::test;

// Echoes what it gets; "bye" makes it close its end.
struct EchoSocket final : ServiceSession {
  explicit EchoSocket(ServiceOutput& output) : out(output) {}
  void on_input(std::string_view bytes) override {
    if (bytes == "bye") {
      out.exit(0);
      return;
    }
    out.write_stdout(bytes);
  }
  ServiceOutput& out;
};

class SocketDevice final : public Device {
 public:
  std::optional<std::size_t> limit;
  std::vector<std::string> opened;
  std::string banner() const override { return "device::features=shell_v2"; }
  ConnectionMode connection_mode() const override { return ConnectionMode::Normal; }
  void attach_transport(TransportControl*) override {}
  std::unique_ptr<ServiceSession> open_shell(const std::string&, ServiceOutput&) override {
    return nullptr;
  }
  std::unique_ptr<ServiceSession> open_exec(const std::string&, ServiceOutput&) override {
    return nullptr;
  }
  std::unique_ptr<ServiceSession> open_sync(ServiceOutput& out) override {
    opened.push_back("sync");
    return std::make_unique<EchoSocket>(out);
  }
  std::unique_ptr<ServiceSession> open_local_abstract(const std::string& name,
                                                      ServiceOutput& out) override {
    opened.push_back("localabstract:" + name);
    if (name != "echo") return nullptr;
    return std::make_unique<EchoSocket>(out);
  }
  std::optional<std::size_t> max_payload() const override { return limit; }
  void tick(Clock::time_point) override {}
  std::optional<Clock::time_point> next_deadline() const override { return std::nullopt; }
};

struct Host {
  explicit Host(Device& device) : connection(device) {}
  void send(std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
            std::string_view payload = {}) {
    std::string wire;
    append_message(wire, command, arg0, arg1, payload);
    connection.on_bytes(wire);
  }
  std::vector<Message> received() {
    connection.pump();
    decoder.feed(connection.output());
    connection.consume_output(connection.output().size());
    std::vector<Message> messages;
    while (auto message = decoder.next()) messages.push_back(*message);
    return messages;
  }
  AdbConnection connection;
  MessageDecoder decoder{std::size_t{2} << 20};
};

}  // namespace

TEST_CASE("services: sync and localabstract are recognised", "[vdevice][adb]") {
  CHECK(parse_service("sync:").kind == ServiceKind::Sync);
  const ServiceRequest socket = parse_service("localabstract:com.x.result.abc");
  CHECK(socket.kind == ServiceKind::LocalAbstract);
  CHECK(socket.command == "com.x.result.abc");
  CHECK(parse_service("localabstract:").kind == ServiceKind::Unknown);
  CHECK(parse_service("sync:extra").kind == ServiceKind::Unknown);
  CHECK(parse_service("localfilesystem:/x").kind == ServiceKind::Unknown);
}

TEST_CASE("localabstract: refused with CLSE when nothing listens, raw bytes both ways",
          "[vdevice][adb]") {
  SocketDevice device;
  Host host(device);
  host.send(kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
  REQUIRE(host.received().size() == 1);

  host.send(kOpen, 5, 0, std::string("localabstract:nobody") + '\0');
  std::vector<Message> reply = host.received();
  REQUIRE(reply.size() == 1);
  CHECK(reply[0].command == kClse);
  CHECK(reply[0].arg0 == 0);
  CHECK(reply[0].arg1 == 5);

  host.send(kOpen, 6, 0, std::string("localabstract:echo") + '\0');
  reply = host.received();
  REQUIRE(reply.size() == 1);
  REQUIRE(reply[0].command == kOkay);
  const std::uint32_t id = reply[0].arg0;
  host.send(kWrte, 6, id, std::string("\0\0\0\x02{}", 6));
  reply = host.received();
  REQUIRE(reply.size() == 2);
  CHECK(reply[0].command == kOkay);  // the host's WRTE acknowledged
  CHECK(reply[1].command == kWrte);
  CHECK(reply[1].payload == std::string("\0\0\0\x02{}", 6));  // unframed, byte for byte
  host.send(kOkay, 6, id);
  host.send(kWrte, 6, id, "bye");
  reply = host.received();
  REQUIRE(reply.size() == 2);
  CHECK(reply[1].command == kClse);  // the device's end closed
  CHECK(device.opened == std::vector<std::string>{"localabstract:nobody", "localabstract:echo"});

  host.send(kOpen, 7, 0, std::string("sync:") + '\0');
  reply = host.received();
  REQUIRE(reply.size() == 1);
  CHECK(reply[0].command == kOkay);
  CHECK(device.opened.back() == "sync");
}

TEST_CASE("the device's packet limit: CNXN maxdata and the largest message accepted",
          "[vdevice][adb]") {
  SocketDevice device;
  device.limit = 4096;
  Host host(device);
  host.send(kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
  const std::vector<Message> reply = host.received();
  REQUIRE(reply.size() == 1);
  CHECK(reply[0].arg1 == 4096);
  CHECK(host.connection.max_payload() == 4096);
  SECTION("a host offering even less sets the limit") {
    Host small(device);
    small.send(kCnxn, kProtocolVersion, 2048, kHostBanner);
    CHECK(small.received()[0].arg1 == 2048);
  }
  SECTION("a message over the limit breaks the connection, as on an old adbd") {
    host.send(kOpen, 1, 0, std::string(5000, 'x'));
    CHECK(host.connection.wants_close());
  }
}
