#include "vdevice/adb/connection.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "adb_test_support.hpp"

namespace {

using namespace clawperator::vdevice;
using namespace clawperator::vdevice::adb;
using namespace clawperator::vdevice::adb::test;

// The host's view of one AdbConnection, without sockets.
struct Harness {
  explicit Harness(Device& target) : connection(target) {}

  void host(std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
            std::string_view payload = {}) {
    std::string wire;
    append_message(wire, command, arg0, arg1, payload);
    connection.on_bytes(wire);
  }
  // Runs the loop's pump and returns what the device sent since the last call.
  std::vector<Message> device_sent() {
    connection.pump();
    decoder.feed(connection.output());
    connection.consume_output(connection.output().size());
    std::vector<Message> messages;
    while (std::optional<Message> message = decoder.next()) messages.push_back(*message);
    return messages;
  }
  Message online(std::uint32_t max_data = kMaxPayload) {
    host(kCnxn, kProtocolVersion, max_data, kHostBanner);
    const std::vector<Message> reply = device_sent();
    REQUIRE(reply.size() == 1);
    return reply[0];
  }
  // OPEN, and the device's OKAY: returns the device's id for the stream.
  std::uint32_t open(std::uint32_t host_id, std::string_view text) {
    host(kOpen, host_id, 0, service(text));
    const std::vector<Message> reply = device_sent();
    REQUIRE(!reply.empty());
    REQUIRE(reply[0].command == kOkay);
    CHECK(reply[0].arg1 == host_id);
    CHECK(reply[0].arg0 != 0);
    pending.assign(reply.begin() + 1, reply.end());
    return reply[0].arg0;
  }

  AdbConnection connection;
  MessageDecoder decoder{std::size_t{16} << 20};
  std::vector<Message> pending;  // what came with the OKAY of the last open()
};

std::vector<ShellPacket> packets_of(const std::string& payload) {
  ShellPacketDecoder decoder;
  decoder.feed(payload);
  std::vector<ShellPacket> packets;
  while (std::optional<ShellPacket> packet = decoder.next()) packets.push_back(*packet);
  return packets;
}

// A device whose every hook the test chooses.
class HookDevice final : public Device {
 public:
  std::function<std::unique_ptr<ServiceSession>(ServiceOutput&)> on_open;
  std::string banner() const override { return "device::features=shell_v2"; }
  ConnectionMode connection_mode() const override { return ConnectionMode::Normal; }
  void attach_transport(TransportControl*) override {}
  std::unique_ptr<ServiceSession> open_shell(const std::string&, ServiceOutput& out) override {
    return on_open(out);
  }
  std::unique_ptr<ServiceSession> open_exec(const std::string&, ServiceOutput& out) override {
    return on_open(out);
  }
  void tick(Clock::time_point) override {}
  std::optional<Clock::time_point> next_deadline() const override { return std::nullopt; }
};

struct HookSession final : ServiceSession {
  std::function<void(std::string_view)> input;
  std::function<void()> input_closed;
  std::function<void()> host_close;
  void on_input(std::string_view bytes) override {
    if (input) input(bytes);
  }
  void on_input_closed() override {
    if (input_closed) input_closed();
  }
  void on_host_close() override {
    if (host_close) host_close();
  }
};

}  // namespace

TEST_CASE("CNXN is answered with the device banner and the smaller maxdata", "[vdevice][adb]") {
  TestDevice device;
  SECTION("adb 29's 1 MiB") {
    Harness h(device);
    const Message reply = h.online();
    CHECK(reply.command == kCnxn);
    CHECK(reply.arg0 == 0x01000001);
    CHECK(reply.arg1 == kMaxPayload);
    CHECK(reply.payload == device.banner());
    CHECK(h.connection.state() == AdbConnection::State::Online);
  }
  SECTION("a host offering less") {
    Harness h(device);
    CHECK(h.online(4096).arg1 == 4096);
    CHECK(h.connection.max_payload() == 4096);
  }
  SECTION("a host offering more") {
    Harness h(device);
    CHECK(h.online(std::uint32_t{4} << 20).arg1 == kMaxPayload);
  }
}

TEST_CASE("streams opened before the handshake are ignored", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.host(kOpen, 1, 0, service("shell:echo hi"));
  CHECK(h.device_sent().empty());
  CHECK(device.commands().empty());
  CHECK_FALSE(h.connection.wants_close());
}

TEST_CASE("an unauthorized device answers every signature with a new token", "[vdevice][adb]") {
  TestDevice device("shell_v2", ConnectionMode::Unauthorized);
  Harness h(device);
  h.host(kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
  std::vector<Message> sent = h.device_sent();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].command == kAuth);
  CHECK(sent[0].arg0 == kAuthToken);
  CHECK(sent[0].payload.size() == 20);
  const std::string first_token = sent[0].payload;

  h.host(kAuth, kAuthSignature, 0, std::string(256, 's'));
  sent = h.device_sent();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].command == kAuth);
  CHECK(sent[0].arg0 == kAuthToken);
  CHECK(sent[0].payload.size() == 20);
  CHECK(sent[0].payload != first_token);

  // The public key would raise a dialog on a phone: nobody answers it.
  h.host(kAuth, kAuthRsaPublicKey, 0, "QAAAAJ...key... user@host\0");
  CHECK(h.device_sent().empty());
  h.host(kOpen, 1, 0, service("shell:echo hi"));
  CHECK(h.device_sent().empty());
  CHECK(h.connection.state() == AdbConnection::State::Authenticating);
  CHECK_FALSE(h.connection.wants_close());
}

TEST_CASE("an offline device closes right after the host's CNXN", "[vdevice][adb]") {
  TestDevice device("shell_v2", ConnectionMode::Offline);
  Harness h(device);
  h.host(kCnxn, kProtocolVersion, kMaxPayload, kHostBanner);
  CHECK(h.connection.wants_close());
  CHECK(h.connection.close_reason() == "offline mode");
  CHECK(h.device_sent().empty());
}

TEST_CASE("a shell v2 command sends its output, its exit code, then CLSE", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  const std::uint32_t local = h.open(7, "shell,v2,TERM=xterm,raw:echo out; echo err >&2; exit 3");
  CHECK(device.commands() == std::vector<std::string>{"shell:echo out; echo err >&2; exit 3"});
  REQUIRE(h.pending.size() == 1);
  const Message& write = h.pending[0];
  CHECK(write.command == kWrte);
  CHECK(write.arg0 == local);
  CHECK(write.arg1 == 7);
  const std::vector<ShellPacket> packets = packets_of(write.payload);
  REQUIRE(packets.size() == 3);
  CHECK(packets[0].id == kShellStdout);
  CHECK(packets[0].payload == "out\n");
  CHECK(packets[1].id == kShellStderr);
  CHECK(packets[1].payload == "err\n");
  CHECK(packets[2].id == kShellExit);
  CHECK(packets[2].payload == std::string(1, '\x03'));
  // CLSE waits for the host's OKAY of the last WRTE.
  CHECK(h.device_sent().empty());
  CHECK(h.connection.stream_count() == 1);
  h.host(kOkay, 7, local);
  const std::vector<Message> end = h.device_sent();
  REQUIRE(end.size() == 1);
  CHECK(end[0].command == kClse);
  CHECK(end[0].arg0 == local);
  CHECK(end[0].arg1 == 7);
  CHECK(h.connection.stream_count() == 0);
  CHECK(device.live_sessions() == 0);
  CHECK(device.host_closes() == 0);
  // The host's answering CLSE refers to a stream that is gone.
  h.host(kClse, 7, local);
  CHECK(h.device_sent().empty());
}

TEST_CASE("output waits for the host's OKAY, one WRTE per stream at a time", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online(4096);
  const std::uint32_t local = h.open(3, "shell,v2,raw:bigout");
  std::vector<Message> sent = h.pending;
  std::string stream_bytes;
  int writes = 0;
  for (;;) {
    REQUIRE(sent.size() == 1);
    if (sent[0].command == kClse) break;
    REQUIRE(sent[0].command == kWrte);
    CHECK(sent[0].payload.size() <= 4096);
    stream_bytes += sent[0].payload;
    ++writes;
    CHECK(h.device_sent().empty());  // nothing more until acknowledged
    h.host(kOkay, 3, local);
    sent = h.device_sent();
  }
  CHECK(writes >= static_cast<int>(kBigOutputSize / 4096));
  std::string out;
  std::optional<int> code;
  for (const ShellPacket& packet : packets_of(stream_bytes)) {
    if (packet.id == kShellStdout) out += packet.payload;
    if (packet.id == kShellExit) code = static_cast<unsigned char>(packet.payload.at(0));
  }
  CHECK(out == big_output());
  CHECK(code == 0);
}

TEST_CASE("unknown services and interactive shells are refused with CLSE", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  for (const char* text : {"sync:", "shell,v2,TERM=xterm,pty:", "shell:", "reboot:"}) {
    INFO(text);
    h.host(kOpen, 11, 0, service(text));
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].command == kClse);
    CHECK(sent[0].arg0 == 0);
    CHECK(sent[0].arg1 == 11);
  }
  CHECK(device.commands().empty());
  h.host(kOpen, 0, 0, service("shell:echo hi"));  // id 0 is invalid
  CHECK(h.device_sent().empty());
}

TEST_CASE("a host CLSE ends the session and is answered", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  const std::uint32_t local = h.open(5, "shell,v2,TERM=xterm,raw:stream");
  CHECK(device.live_sessions() == 1);
  h.host(kClse, 5, local);
  const std::vector<Message> sent = h.device_sent();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].command == kClse);
  CHECK(sent[0].arg0 == local);
  CHECK(sent[0].arg1 == 5);
  CHECK(device.host_closes() == 1);
  CHECK(device.live_sessions() == 0);
  h.host(kClse, 5, 999);  // unknown stream: ignored
  CHECK(h.device_sent().empty());
}

TEST_CASE("stdin reaches the session: unwrapped for shell v2, as is for raw", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  SECTION("shell v2") {
    const std::uint32_t local = h.open(9, "shell,v2,raw:cat");
    std::string input;
    append_shell_packet(input, kShellWindowSize, "24x80,0x0");
    append_shell_packet(input, kShellStdin, "abc");
    append_shell_packet(input, kShellStdin, "def");
    append_shell_packet(input, kShellCloseStdin, {});
    // Split across two WRTEs in the middle of a packet header.
    h.host(kWrte, 9, local, input.substr(0, 15));
    h.host(kWrte, 9, local, input.substr(15));
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 3);
    CHECK(sent[0].command == kOkay);
    CHECK(sent[1].command == kOkay);
    CHECK(sent[1].arg0 == local);
    CHECK(sent[1].arg1 == 9);
    CHECK(sent[2].command == kWrte);
    const std::vector<ShellPacket> packets = packets_of(sent[2].payload);
    REQUIRE(packets.size() == 2);
    CHECK(packets[0].payload + packets[1].payload == "abcdef");
  }
  SECTION("raw") {
    const std::uint32_t local = h.open(9, "shell:cat");
    h.host(kWrte, 9, local, std::string("\x01\x02raw", 5));
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].command == kOkay);
    CHECK(sent[1].command == kWrte);
    CHECK(sent[1].payload == std::string("\x01\x02raw", 5));
  }
  SECTION("undecodable shell v2 stdin ends the stream") {
    const std::uint32_t local = h.open(9, "shell,v2,raw:cat");
    h.host(kWrte, 9, local, std::string("\x00\xff\xff\xff\xff", 5));
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].command == kClse);
    CHECK(device.host_closes() == 1);
    CHECK_FALSE(h.connection.wants_close());
  }
}

TEST_CASE("shell v2 close-stdin ends the session's input; every WRTE is acknowledged",
          "[vdevice][adb]") {
  HookDevice device;
  std::string received;
  int closes = 0;
  device.on_open = [&](ServiceOutput&) {
    auto session = std::make_unique<HookSession>();
    session->input = [&](std::string_view bytes) { received.append(bytes); };
    session->input_closed = [&] { ++closes; };
    return session;
  };
  Harness h(device);
  h.online();
  const std::uint32_t local = h.open(9, "shell,v2,raw:cmd package install -S 6");
  std::string input;
  append_shell_packet(input, kShellStdin, "abc");
  append_shell_packet(input, kShellStdin, "def");
  append_shell_packet(input, kShellCloseStdin, {});
  for (std::size_t at = 0; at < input.size(); at += 4) h.host(kWrte, 9, local, input.substr(at, 4));
  const std::vector<Message> sent = h.device_sent();
  CHECK(sent.size() == (input.size() + 3) / 4);
  CHECK(std::all_of(sent.begin(), sent.end(), [&](const Message& message) {
    return message.command == kOkay && message.arg0 == local && message.arg1 == 9;
  }));
  CHECK(received == "abcdef");
  CHECK(closes == 1);
}

TEST_CASE("streams are independent of each other", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online(4096);
  const std::uint32_t big = h.open(1, "shell,v2,raw:bigout");
  REQUIRE(h.pending.size() == 1);  // its first WRTE, now unacknowledged
  const std::uint32_t cat = h.open(2, "shell:cat");
  CHECK(cat != big);
  h.host(kWrte, 2, cat, "ping");
  std::vector<Message> sent = h.device_sent();
  REQUIRE(sent.size() == 2);
  CHECK(sent[1].command == kWrte);
  CHECK(sent[1].arg0 == cat);
  CHECK(sent[1].payload == "ping");
  // Acknowledging one stream releases that stream only.
  h.host(kOkay, 2, cat);
  CHECK(h.device_sent().empty());
  h.host(kOkay, 1, big);
  sent = h.device_sent();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].arg0 == big);
}

TEST_CASE("a bad header closes the connection", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  h.open(1, "shell,v2,raw:stream");
  std::string wire = encode_message(Message{kOkay, 1, 1, {}});
  wire[21] ^= 0x40;
  h.connection.on_bytes(wire);
  CHECK(h.connection.wants_close());
  CHECK(h.connection.close_reason() == "protocol error: bad magic");
  h.connection.end_sessions();
  CHECK(device.host_closes() == 1);
  CHECK(device.live_sessions() == 0);
}

TEST_CASE("a second CNXN starts the connection over", "[vdevice][adb]") {
  TestDevice device;
  Harness h(device);
  h.online();
  h.open(1, "shell,v2,raw:stream");
  CHECK(h.online().command == kCnxn);
  CHECK(h.connection.stream_count() == 0);
  CHECK(device.host_closes() == 1);
}

TEST_CASE("sessions may misbehave without harming the connection", "[vdevice][adb]") {
  HookDevice device;
  Harness h(device);
  h.online();
  ServiceOutput* kept = nullptr;

  SECTION("a device that throws or returns nothing: the stream is refused") {
    device.on_open = [](ServiceOutput&) -> std::unique_ptr<ServiceSession> {
      throw std::runtime_error("boom");
    };
    h.host(kOpen, 4, 0, service("shell:x"));
    device.on_open = [](ServiceOutput&) { return std::unique_ptr<ServiceSession>(); };
    h.host(kOpen, 5, 0, service("exec:x"));
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].command == kClse);
    CHECK(sent[0].arg1 == 4);
    CHECK(sent[1].command == kClse);
    CHECK(sent[1].arg1 == 5);
    CHECK_FALSE(h.connection.wants_close());
  }
  SECTION("writing from on_host_close and from on_input after exit is a no-op") {
    int inputs = 0;
    device.on_open = [&](ServiceOutput& out) {
      kept = &out;
      auto session = std::make_unique<HookSession>();
      session->host_close = [&out] {
        out.write_stdout("too late");
        out.exit(9);
      };
      session->input = [&](std::string_view) { ++inputs; };
      return session;
    };
    const std::uint32_t local = h.open(6, "shell,v2,raw:x");
    h.host(kClse, 6, local);
    const std::vector<Message> sent = h.device_sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0].command == kClse);

    const std::uint32_t second = h.open(7, "shell,v2,raw:x");
    kept->exit(0);
    h.host(kWrte, 7, second, "ignored: the session has exited");
    CHECK(inputs == 0);
  }
  SECTION("abandoning the connection from inside a callback") {
    device.on_open = [&](ServiceOutput& out) {
      auto session = std::make_unique<HookSession>();
      session->input = [&](std::string_view) {
        h.connection.abandon();
        out.write_stdout("dropped");
      };
      return session;
    };
    const std::uint32_t local = h.open(8, "shell:x");
    h.host(kWrte, 8, local, "a");
    CHECK(h.connection.abandoned());
    CHECK(h.device_sent().empty());
    h.host(kWrte, 8, local, "b");  // the socket is gone: ignored
    CHECK(h.connection.stream_count() == 1);
    h.connection.end_sessions();
    CHECK(h.connection.stream_count() == 0);
  }
}
