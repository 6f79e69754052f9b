#include "vdevice/adb/shell_protocol.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "vdevice/adb/stream_output.hpp"

namespace {

using namespace clawperator::vdevice::adb;

std::vector<ShellPacket> decode_all(std::string_view wire, std::size_t piece = 1 << 20) {
  ShellPacketDecoder decoder;
  std::vector<ShellPacket> packets;
  for (std::size_t at = 0; at < wire.size(); at += piece) {
    decoder.feed(wire.substr(at, piece));
    while (std::optional<ShellPacket> packet = decoder.next()) packets.push_back(*packet);
  }
  CHECK_FALSE(decoder.error());
  return packets;
}

}  // namespace

TEST_CASE("a shell v2 packet is an id, a little-endian length and the payload", "[vdevice][adb]") {
  std::string wire;
  append_shell_packet(wire, kShellStdout, "hi\n");
  CHECK(wire == std::string("\x01\x03\0\0\0hi\n", 8));
  wire.clear();
  append_shell_packet(wire, kShellExit, std::string(1, '\x03'));
  CHECK(wire == std::string("\x03\x01\0\0\0\x03", 6));
  wire.clear();
  append_shell_packet(wire, kShellStderr, std::string(0x10203, 'e'));
  CHECK(wire.substr(0, 5) == std::string("\x02\x03\x02\x01\0", 5));
}

TEST_CASE("shell v2 packets are reassembled from pieces down to one byte", "[vdevice][adb]") {
  std::string wire;
  append_shell_packet(wire, kShellStdin, "ls\n");
  append_shell_packet(wire, kShellCloseStdin, {});
  append_shell_packet(wire, kShellWindowSize, "24x80,0x0\0");
  append_shell_packet(wire, kShellStdin, std::string(100000, 'z'));
  for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{6},
                                  std::size_t{4096}, wire.size()}) {
    INFO("piece " << piece);
    const std::vector<ShellPacket> packets = decode_all(wire, piece);
    REQUIRE(packets.size() == 4);
    CHECK(packets[0].id == kShellStdin);
    CHECK(packets[0].payload == "ls\n");
    CHECK(packets[1].id == kShellCloseStdin);
    CHECK(packets[1].payload.empty());
    CHECK(packets[2].id == kShellWindowSize);
    CHECK(packets[3].payload == std::string(100000, 'z'));
  }
}

TEST_CASE("a shell v2 packet over the limit breaks the stream", "[vdevice][adb]") {
  ShellPacketDecoder decoder(16);
  std::string wire;
  append_shell_packet(wire, kShellStdin, std::string(16, 'a'));
  append_shell_packet(wire, kShellStdin, std::string(17, 'a'));
  decoder.feed(wire);
  CHECK(decoder.next());
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error());
}

TEST_CASE("service strings name the shell flavour and the command", "[vdevice][adb]") {
  SECTION("adb shell on a shell_v2 device") {
    const ServiceRequest r = parse_service("shell,v2,TERM=xterm,raw:echo hi");
    CHECK(r.kind == ServiceKind::ShellV2);
    CHECK(r.command == "echo hi");
    CHECK_FALSE(r.pty);
  }
  SECTION("adb logcat: no raw/pty option, the command keeps its colons and quotes") {
    const ServiceRequest r = parse_service(
        "shell,v2,TERM=xterm:export ANDROID_LOG_TAGS=\"''\"; exec logcat '-v' 'time' '-T' '1'");
    CHECK(r.kind == ServiceKind::ShellV2);
    CHECK(r.command == "export ANDROID_LOG_TAGS=\"''\"; exec logcat '-v' 'time' '-T' '1'");
  }
  SECTION("adb shell -t asks for a pty") {
    const ServiceRequest r = parse_service("shell,v2,TERM=xterm,pty:top");
    CHECK(r.kind == ServiceKind::ShellV2);
    CHECK(r.pty);
  }
  SECTION("a device without shell_v2 gets the raw service") {
    const ServiceRequest r = parse_service("shell:echo a:b");
    CHECK(r.kind == ServiceKind::ShellRaw);
    CHECK(r.command == "echo a:b");
  }
  SECTION("options without v2 stay raw") {
    const ServiceRequest r = parse_service("shell,raw:ls");
    CHECK(r.kind == ServiceKind::ShellRaw);
    CHECK(r.command == "ls");
  }
  SECTION("exec-out") {
    const ServiceRequest r = parse_service("exec:screencap '-p'");
    CHECK(r.kind == ServiceKind::Exec);
    CHECK(r.command == "screencap '-p'");
  }
  SECTION("an interactive shell has an empty command") {
    const ServiceRequest r = parse_service("shell,v2,TERM=xterm,pty:");
    CHECK(r.kind == ServiceKind::ShellV2);
    CHECK(r.command.empty());
  }
  SECTION("other services are unknown") {
    for (const char* service : {"shellx:ls", "localabstract:", "shell", "shell,v2", "tcp:5555",
                                "reboot:", "", "framebuffer:", "abb_exec:package\0list"}) {
      INFO(service);
      CHECK(parse_service(service).kind == ServiceKind::Unknown);
    }
  }
}

TEST_CASE("stream output frames shell v2 writes and the exit code", "[vdevice][adb]") {
  StreamOutput output(OutputFraming::ShellV2, 4);
  output.write_stdout("hello");  // 5 bytes: two packets of at most 4
  output.write_stderr("e");
  output.write_stdout({});  // nothing at all, not an empty packet
  output.exit(258);         // one byte on the wire: 258 & 0xff
  CHECK(output.exit_requested());
  output.write_stdout("late");
  output.exit(0);
  const std::vector<ShellPacket> packets = decode_all(output.pending());
  REQUIRE(packets.size() == 4);
  CHECK(packets[0].id == kShellStdout);
  CHECK(packets[0].payload == "hell");
  CHECK(packets[1].payload == "o");
  CHECK(packets[2].id == kShellStderr);
  CHECK(packets[2].payload == "e");
  CHECK(packets[3].id == kShellExit);
  CHECK(packets[3].payload == std::string(1, '\x02'));
}

TEST_CASE("stream output merges stderr for raw streams and a pty", "[vdevice][adb]") {
  StreamOutput raw(OutputFraming::Raw, 1024);
  raw.write_stdout("out\n");
  raw.write_stderr("err\n");
  raw.exit(3);
  CHECK(raw.pending() == "out\nerr\n");
  CHECK(raw.exit_requested());
  raw.consume(2);
  CHECK(raw.pending() == "t\nerr\n");
  raw.consume(100);
  CHECK(raw.pending().empty());

  StreamOutput pty(OutputFraming::ShellV2Pty, 1024);
  pty.write_stderr("err\n");
  pty.exit(1);
  const std::vector<ShellPacket> packets = decode_all(pty.pending());
  REQUIRE(packets.size() == 2);
  CHECK(packets[0].id == kShellStdout);
  CHECK(packets[1].id == kShellExit);
}

TEST_CASE("a closed stream output ignores everything", "[vdevice][adb]") {
  StreamOutput output(OutputFraming::ShellV2, 1024);
  output.write_stdout("queued");
  output.close();
  CHECK(output.closed());
  CHECK(output.pending().empty());
  output.write_stdout("after");
  output.write_stderr("after");
  output.exit(0);
  CHECK(output.pending().empty());
  CHECK_FALSE(output.exit_requested());
}
