// `adb shell` spoken to the server in the adb client's place (src/adb/server_shell.cpp) against
// a server played here: the requests it sends, the outcome it makes of the device's packets,
// and the line between a refusal the adb client may retry (nothing asked of the device) and an
// outcome (the device may have run the command). Through the real adb server it runs in every
// exec of the integration suite.
#include "clawperator/adb/server_shell.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "clawperator/adb/shell_v2.hpp"
#include "clawperator/adb/smart_socket.hpp"
#include "clawperator/process/cancel.hpp"
#include "loopback_sockets.hpp"
#include "wait_until.hpp"

using namespace std::chrono_literals;
using clawperator::adb::shell_v2_packet;
using clawperator::adb::shell_via_server;
using clawperator::adb::ShellV2Decoder;
using clawperator::adb::ShellV2Id;
using clawperator::adb::smart_socket_request;
using clawperator::process::CancelSource;
using clawperator::process::CancelToken;
using clawperator::process::Completion;
using clawperator::testing::at_end_of_stream;
using clawperator::testing::Fd;
using clawperator::testing::read_up_to;
using clawperator::testing::send_all;
using clawperator::testing::TcpListener;

namespace {

const std::string kCommand = "am broadcast -a 'X' -p 'Y'";
const std::string kTransport = smart_socket_request("host:transport:127.0.0.1:5555");
const std::string kService = smart_socket_request("shell,v2,TERM=xterm,raw:" + kCommand);
const std::string kCloseStdin = std::string("\x04\x00\x00\x00\x00", 5);

std::string fail(const std::string& message) {
  return "FAIL" + smart_socket_request(message);
}

// The server's side up to the command's start: the transport accepted, the service answered
// with `service_answer`. What the client sent is appended to `requests` when given.
Fd accept_service(const TcpListener& listener, std::string* requests = nullptr,
                  const std::string& service_answer = "OKAY") {
  Fd connection = listener.accept_one();
  std::string received = read_up_to(connection.get(), kTransport.size());
  send_all(connection.get(), "OKAY");
  received += read_up_to(connection.get(), kService.size());
  send_all(connection.get(), service_answer);
  if (requests != nullptr) *requests += received;
  return connection;
}

auto run(const TcpListener& listener, std::chrono::milliseconds timeout = 5000ms,
         const CancelToken& token = {}) {
  return shell_via_server(listener.server(), "127.0.0.1:5555", kCommand, timeout, token, 1 << 20);
}

}  // namespace

TEST_CASE("shell v2 packets decode in any split", "[adb][shell_v2]") {
  const std::string stream = shell_v2_packet(ShellV2Id::Stdout, "Broadcasting: Intent\n") +
                             shell_v2_packet(ShellV2Id::Stderr, "warning\n") +
                             shell_v2_packet(ShellV2Id::Stdout, "Broadcast completed: result=0\n") +
                             shell_v2_packet(ShellV2Id::Exit, std::string(1, '\x07'));
  for (const std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{5}, stream.size()}) {
    CAPTURE(step);
    ShellV2Decoder decoder(1 << 20);
    for (std::size_t at = 0; at < stream.size(); at += step) decoder.feed(stream.substr(at, step));
    CHECK(decoder.out() == "Broadcasting: Intent\nBroadcast completed: result=0\n");
    CHECK(decoder.err() == "warning\n");
    CHECK(decoder.exit_status() == 7);
    CHECK_FALSE(decoder.malformed());
  }
  // The header: id, then the length little-endian.
  CHECK(shell_v2_packet(ShellV2Id::Stdout, std::string(258, 'x')).substr(0, 5) ==
        std::string("\x01\x02\x01\x00\x00", 5));
}

TEST_CASE("shell v2 output is bounded, and a length adb never sends stops the reading",
          "[adb][shell_v2]") {
  ShellV2Decoder decoder(4);
  decoder.feed(shell_v2_packet(ShellV2Id::Stdout, "123456"));
  decoder.feed(shell_v2_packet(ShellV2Id::Stderr, "ab"));
  CHECK(decoder.out() == "1234");
  CHECK(decoder.out_truncated());
  CHECK(decoder.err() == "ab");
  CHECK_FALSE(decoder.err_truncated());

  ShellV2Decoder hostile(1 << 20);
  hostile.feed(std::string("\x01\xff\xff\xff\x7f", 5));  // 2 GiB announced
  CHECK(hostile.malformed());
  hostile.feed(shell_v2_packet(ShellV2Id::Exit, std::string(1, '\0')));
  CHECK_FALSE(hostile.exit_status());
}

TEST_CASE("the requests adb sends, and the device's outcome as adb reports it",
          "[adb][server_shell]") {
  const TcpListener listener;
  std::string requests;
  std::thread server([&] {
    const Fd connection = accept_service(listener, &requests);
    requests += read_up_to(connection.get(), kCloseStdin.size());
    send_all(connection.get(), shell_v2_packet(ShellV2Id::Stdout, "Broadcast completed\n") +
                                   shell_v2_packet(ShellV2Id::Stderr, "note\n") +
                                   shell_v2_packet(ShellV2Id::Exit, std::string(1, '\x03')));
  });
  const auto outcome = run(listener);
  server.join();
  CHECK(requests == kTransport + kService + kCloseStdin);
  REQUIRE(outcome);
  CHECK(outcome->status == Completion::Status::Exited);
  CHECK(outcome->exit_code == 3);
  CHECK(outcome->out == "Broadcast completed\n");
  CHECK(outcome->err == "note\n");
}

TEST_CASE("a stream that ends without an exit packet exits 0, as adb 29 does",
          "[adb][server_shell]") {
  const TcpListener listener;
  std::thread server([&] {
    const Fd connection = accept_service(listener);
    send_all(connection.get(), shell_v2_packet(ShellV2Id::Stdout, "partial"));
  });
  const auto outcome = run(listener);
  server.join();
  REQUIRE(outcome);
  CHECK(outcome->status == Completion::Status::Exited);
  CHECK(outcome->exit_code == 0);
  CHECK(outcome->out == "partial");
}

TEST_CASE("a refused transport is a refusal: nothing was asked of the device",
          "[adb][server_shell]") {
  SECTION("the server refuses the device") {
    const TcpListener listener;
    bool nothing_followed = false;  // Catch2 assertions are not for other threads
    std::thread server([&] {
      const Fd connection = listener.accept_one();
      (void)read_up_to(connection.get(), kTransport.size());
      send_all(connection.get(), fail("device offline"));
      nothing_followed = at_end_of_stream(connection.get());  // no service request
    });
    const auto outcome = run(listener);
    server.join();
    CHECK(nothing_followed);
    REQUIRE_FALSE(outcome);
    CHECK(outcome.error().reason == "device offline");
  }
  SECTION("a command longer than one packet: the adb client runs it, with its own limits") {
    const TcpListener listener;  // never accepts: nothing is sent
    const auto outcome =
        shell_via_server(listener.server(), "s", std::string(5000, 'x'), 2000ms, {}, 1 << 20);
    REQUIRE_FALSE(outcome);
    CHECK(outcome.error().reason == "the command is longer than one packet");
  }
  SECTION("a serial adb could not frame") {
    const TcpListener listener;
    const auto outcome =
        shell_via_server(listener.server(), std::string(70000, 's'), kCommand, 2000ms, {}, 1 << 20);
    REQUIRE_FALSE(outcome);
    CHECK(outcome.error().reason == "the request is too long");
  }
  SECTION("no server listens") {
    int port = 0;
    {
      const TcpListener gone;
      port = gone.port;
    }
    const auto outcome = shell_via_server({clawperator::adb::LoopbackTcpServer::Family::IPv4, port},
                                          "s", kCommand, 2000ms, {}, 1 << 20);
    REQUIRE_FALSE(outcome);
    CHECK(outcome.error().reason == "cannot connect to the adb server");
  }
}

TEST_CASE("a refused service is an outcome: the device may have run the command",
          "[adb][server_shell]") {
  // The device dropped the connection on OPEN (a broadcast that takes the transport down): the
  // adb client prints `error: closed` and exits 1, and so does this; retrying it through the
  // adb client could dispatch the broadcast twice.
  const TcpListener listener;
  std::thread server(
      [&] { const Fd connection = accept_service(listener, nullptr, fail("closed")); });
  const auto outcome = run(listener);
  server.join();
  REQUIRE(outcome);
  CHECK(outcome->status == Completion::Status::Exited);
  CHECK(outcome->exit_code == 1);
  CHECK(outcome->err == "error: closed\n");
}

TEST_CASE("a command that never ends times out, or stops when cancelled", "[adb][server_shell]") {
  const TcpListener listener;
  CancelSource cancel;
  Fd held;
  std::atomic<bool> answered{false};
  std::thread server([&] {
    held = accept_service(listener);
    send_all(held.get(), shell_v2_packet(ShellV2Id::Stdout, "Broadcasting"));
    answered = true;
  });
  SECTION("the deadline") {
    const auto started = std::chrono::steady_clock::now();
    const auto outcome = run(listener, 300ms);
    server.join();
    REQUIRE(outcome);
    CHECK(outcome->status == Completion::Status::TimedOut);
    CHECK(outcome->out == "Broadcasting");
    CHECK(std::chrono::steady_clock::now() - started < 3s);
  }
  SECTION("the token") {
    std::atomic<bool> running{false};
    std::thread canceller([&] {
      // Once the command is under way: the server has sent its first output.
      running = clawperator::testing::wait_until([&] { return answered.load(); }, 10s);
      cancel.cancel();
    });
    const auto outcome = run(listener, 30000ms, cancel.token());
    canceller.join();
    server.join();
    REQUIRE(running);
    REQUIRE(outcome);
    CHECK(outcome->status == Completion::Status::Cancelled);
  }
}
