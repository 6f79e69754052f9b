// The virtual device's side of issue 20 through the real adb: `adb forward` to the Operator's
// result socket and a framed exchange, `adb push` at a 4 KiB transport packet, and logd
// dropping records of a chunked result.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/transport/sha256.hpp"
#include "farm_fixture.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::scenario;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

const std::string kPackage = "com.clawperator.operator";

// The host's end of a forwarded port: 4-byte big-endian length frames over TCP.
class FrameSocket {
 public:
  explicit FrameSocket(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  }
  ~FrameSocket() { ::close(fd_); }
  FrameSocket(const FrameSocket&) = delete;
  FrameSocket& operator=(const FrameSocket&) = delete;

  bool connected() const { return connected_; }
  void send(const json& frame) {
    const std::string text = frame.dump();
    std::string wire;
    for (int shift = 24; shift >= 0; shift -= 8)
      wire += static_cast<char>((text.size() >> shift) & 0xff);
    wire += text;
    REQUIRE(::send(fd_, wire.data(), wire.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(wire.size()));
  }
  // The next frame, or nullopt at EOF or after 10 s.
  std::optional<std::string> next() {
    while (true) {
      if (buffer_.size() >= 4) {
        std::size_t length = 0;
        for (int i = 0; i < 4; ++i) length = (length << 8) | static_cast<unsigned char>(buffer_[i]);
        if (buffer_.size() >= 4 + length) {
          std::string frame = buffer_.substr(4, length);
          buffer_.erase(0, 4 + length);
          return frame;
        }
      }
      if (!fill()) return std::nullopt;
    }
  }
  // True when the peer closes within 10 s with nothing more to read.
  bool at_eof() { return buffer_.empty() && !fill(); }

 private:
  bool fill() {
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, 10000) <= 0) return false;
    char chunk[65536];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  std::string buffer_;
};

std::string broadcast(const std::string& action, const json& payload,
                      const std::string& extra = "") {
  return "am broadcast -a '" + action + "' -p '" + kPackage + "' --es payload " +
         clawperator::adb::quote_for_device_shell(payload.dump()) + extra +
         " --receiver-foreground";
}

json command(const std::string& id, const json& actions) {
  return {{"commandId", id}, {"taskId", id}, {"timeoutMs", 10000}, {"actions", actions}};
}

int forward(const Farm& farm, const std::string& serial, const std::string& socket) {
  const RunResult forwarded =
      farm.adb({"-s", serial, "forward", "tcp:0", "localabstract:" + socket});
  INFO(forwarded.out << forwarded.err);
  REQUIRE(forwarded.exit_code == 0);
  return std::stoi(forwarded.out);
}

}  // namespace

TEST_CASE("adb forward reaches the Operator's result socket: the framed exchange",
          "[integration][direct]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const std::string session = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const std::string socket = kPackage + ".result." + session;

  // Nothing listens yet: adbd refuses the stream, so the forwarded connection just ends.
  {
    const int port = forward(farm, serial, socket);
    FrameSocket early(port);
    REQUIRE(early.connected());
    CHECK(early.at_eof());
    CHECK(
        farm.adb({"-s", serial, "forward", "--remove", "tcp:" + std::to_string(port)}).exit_code ==
        0);
  }

  const json prepare = {{"protocol", 1},
                        {"sessionId", session},
                        {"commandId", "it-direct"},
                        {"taskId", "it-direct"},
                        {"lifetimeMs", 25000}};
  const RunResult prepared =
      farm.adb({"-s", serial, "shell",
                broadcast("app.clawperator.operator.ACTION_PREPARE_RESULT_CONNECTION", prepare)});
  REQUIRE(prepared.exit_code == 0);
  const int port = forward(farm, serial, socket);
  const RunResult listed = farm.adb({"forward", "--list"});
  CHECK(listed.out.find(serial + " tcp:" + std::to_string(port) + " localabstract:" + socket) !=
        std::string::npos);

  FrameSocket host(port);
  REQUIRE(host.connected());
  const auto ready = host.next();
  REQUIRE(ready);
  CHECK(json::parse(*ready) == json({{"type", "ready"},
                                     {"protocol", 1},
                                     {"sessionId", session},
                                     {"operatorPackage", kPackage},
                                     {"commandId", "it-direct"},
                                     {"taskId", "it-direct"}}));
  host.send({{"type", "ping"}});
  const auto pong = host.next();
  REQUIRE(pong);
  CHECK(json::parse(*pong)["type"] == "pong");

  const json snapshot = command("it-direct", json::array({{{"id", "snap"}, {"type", "snapshot"}}}));
  const RunResult dispatched = farm.adb({"-s", serial, "shell",
                                         broadcast("app.clawperator.operator.ACTION_AGENT_COMMAND",
                                                   snapshot, " --es result_session " + session)});
  CHECK(dispatched.exit_code == 0);
  const auto header_frame = host.next();
  REQUIRE(header_frame);
  const json header = json::parse(*header_frame);
  CHECK(header["type"] == "result");
  CHECK(header["commandId"] == "it-direct");
  const auto line = host.next();
  REQUIRE(line);
  CHECK(header["byteLength"] == line->size());
  CHECK(header["sha256"] == clawperator::transport::sha256_hex(*line));
  REQUIRE(line->starts_with("[Clawperator-Result] "));
  const json envelope = json::parse(line->substr(21));
  CHECK(envelope["status"] == "success");
  CHECK(envelope["stepResults"][0]["data"]["text"].get<std::string>().find("<hierarchy") !=
        std::string::npos);
  host.send({{"type", "ack"}, {"sessionId", session}});
  const auto timing = host.next();
  REQUIRE(timing);
  CHECK(json::parse(*timing)["type"] == "timing");
  CHECK(host.at_eof());

  // Nothing reached logcat; the forward goes away on request.
  CHECK(farm.adb({"-s", serial, "logcat", "-d", "-s", "ClawperatorResult"}).out.find("it-direct") ==
        std::string::npos);
  CHECK(farm.adb({"-s", serial, "forward", "--remove", "tcp:" + std::to_string(port)}).exit_code ==
        0);
  CHECK(farm.adb({"forward", "--list"}).out.find(socket) == std::string::npos);
}

TEST_CASE("at a 4 KiB transport packet a 40 KB payload arrives byte-exact through adb push",
          "[integration][push]") {
  auto small_packets = scenario("default");
  small_packets.max_payload = 4096;
  Farm farm(Farm::Built{{small_packets}});
  const std::string serial = farm.serials().front();

  json actions = json::array();
  for (int i = 0; actions.dump().size() < 40000; ++i) {
    actions.push_back(
        {{"id", "s" + std::to_string(i)},
         {"type", "sleep"},
         {"params", {{"durationMs", 1}, {"note", "it's \"$(id)\" `x` \\ ; | é 漢 🙂"}}}});
  }
  const std::string text = command("it-push", actions).dump();
  const std::string local = "/tmp/clawperator-it-push-" + std::to_string(::getpid()) + ".json";
  std::ofstream(local, std::ios::binary) << text;
  const std::string remote = "/data/local/tmp/clawperator-payload-it-push.json";

  // The route that fits any packet: push the file, then let the device's shell read it.
  const RunResult pushed = farm.adb({"-s", serial, "push", local, remote});
  std::filesystem::remove(local);
  INFO(pushed.out << pushed.err);
  CHECK(pushed.exit_code == 0);
  CHECK(farm.adb({"-s", serial, "exec-out", "cat", remote}).out == text);
  const RunResult sent = farm.adb(
      {"-s", serial, "shell",
       "am broadcast -a 'app.clawperator.operator.ACTION_AGENT_COMMAND' -p '" + kPackage +
           "' --es payload \"$(cat " + remote + ")\" --receiver-foreground; rm -f " + remote});
  CHECK(sent.exit_code == 0);
  CHECK(sent.out.find("Broadcast completed: result=0") != std::string::npos);
  // The Operator logs the size and digest of what it received.
  const std::string fingerprint = "(" + std::to_string(text.size()) + " bytes, sha256 " +
                                  clawperator::transport::sha256_hex(text) + ")";
  bool received = false;
  for (int attempt = 0; attempt < 100 && !received; ++attempt) {
    received =
        farm.adb({"-s", serial, "logcat", "-d", "-s", "TaskScopeDefault"}).out.find(fingerprint) !=
        std::string::npos;
    if (!received) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(received);
  CHECK(farm.adb({"-s", serial, "shell", "cat", remote}).exit_code == 1);  // removed

  // The same payload inline in the command line is more than the packet: adb refuses it.
  const RunResult inline_payload =
      farm.adb({"-s", serial, "shell",
                broadcast("app.clawperator.operator.ACTION_AGENT_COMMAND", json::parse(text))});
  INFO("inline: rc " << inline_payload.exit_code << " out " << inline_payload.out.substr(0, 300)
                     << " err " << inline_payload.err.substr(0, 300));
  CHECK(inline_payload.exit_code != 0);
}

TEST_CASE("logcat.dropRate: logd drops records of a chunked result", "[integration][chunks]") {
  auto lossy = scenario("default");
  lossy.logcat.drop_rate = 0.2;
  lossy.faults.pad_snapshot_bytes = 200000;
  Farm farm(Farm::Built{{lossy}});
  const RunResult result =
      farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}), {"--timeout", "3000"}, 3000);
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 2000));
  CHECK(result.exit_code == 4);
  CHECK((document["code"] == "RESULT_ENVELOPE_MALFORMED" ||
         document["code"] == "RESULT_ENVELOPE_TIMEOUT"));
  const std::string log =
      farm.adb({"-s", farm.serials().front(), "logcat", "-d", "-s", "chatty"}).out;
  CHECK(log.find("DefaultDispatch expire ") != std::string::npos);
  // The Operator's pruning notices explain it: how many lines, which records, what avoids it.
  const json& transport = document["details"]["transport"];
  CHECK(transport.value("logdPrunedLines", 0) > 0);
  CHECK(transport.contains("missingIndices"));
  CHECK(document["hint"].get<std::string>().find("--result-transport direct") != std::string::npos);
}

TEST_CASE("closeStreamMidEnvelope: logcat cut off mid-result names the records it lost",
          "[integration][chunks]") {
  auto cut = scenario("default");
  cut.faults.close_stream_mid_envelope = true;
  cut.faults.pad_snapshot_bytes = 20000;
  Farm farm(Farm::Built{{cut}});
  const RunResult result =
      farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}), {"--timeout", "5000"}, 3000);
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(result.exit_code == 4);
  CHECK(document["code"] == "RESULT_TRANSPORT_EXITED");
  CHECK(document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(document["disposition"]["retry"] == "safe");  // a snapshot only reads
  const json& transport = document["details"]["transport"];
  CHECK(transport["logcatOverrun"] == true);
  REQUIRE(transport.contains("missingIndices"));
  CHECK(transport["missingIndices"].front() == transport["receivedChunks"]);
  CHECK(document["hint"].get<std::string>().rfind(
            "logd cut the logcat reader off for falling behind", 0) == 0);
}

TEST_CASE("a farm never shares an adb server it did not start", "[integration][farm]") {
  // Two farms handed the same free port once shared one server, and the first to stop killed
  // it under the other (src/vdevice/farm.cpp): a server already on the port is not adopted.
  const std::uint16_t port = clawperator::vdevice::free_local_port();
  REQUIRE(port != 0);
  const std::string port_text = std::to_string(port);
  const RunResult other =
      clawperator::testing::run_binary("adb", {"-P", port_text, "start-server"});
  REQUIRE(other.exit_code == 0);
  clawperator::vdevice::VirtualDeviceFarm::Options options;
  options.scenarios = {scenario("default")};
  options.adb_server_port = port;
  const auto refused = clawperator::vdevice::VirtualDeviceFarm::start(std::move(options));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().text().find("already listens on port " + port_text) != std::string::npos);
  // The other server was left alone, and it is still the only one.
  CHECK(clawperator::testing::run_binary("adb", {"-P", port_text, "devices"}).exit_code == 0);
  CHECK(clawperator::testing::run_binary("adb", {"-P", port_text, "kill-server"}).exit_code == 0);
}

TEST_CASE("a logcat reader that reaches logd late still reads the whole chunked result",
          "[integration][chunks]") {
  // On a loaded runner `adb logcat` once reached logd after the 100 ms attach fallback; the
  // Operator's chunks went out first and -T 1 showed only the newest (RESULT_ENVELOPE_MALFORMED,
  // expectedIndex=0, receivedIndex=5). The host proves the reader attached by a marker line
  // before it sends anything (src/exec/result_reader.cpp attach_reader).
  auto late = scenario("default");
  late.logcat.attach_delay_ms = 700;
  late.faults.pad_snapshot_bytes = 20000;
  Farm farm(Farm::Built{{late}});
  farm.set_env("CLAWPERATOR_LOG_LEVEL", "debug");
  const RunResult result =
      farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}), {"--timeout", "10000"});
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 2000));
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  // The padded hierarchy is whole: it came in many chunk records, the first among them.
  CHECK(document["envelope"]["stepResults"][0]["data"]["text"].get<std::string>().size() > 20000);
  // The run's reader was late: it got a marker.
  CHECK(farm.logged_count("adb.command", "Clawperator attach") >= 1);
}
