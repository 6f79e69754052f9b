// The relay against a TCP server written here: bytes pass unchanged both ways, end-of-stream
// travels in both directions, and nothing is left open. Through the real adb it is covered by
// every exec of the integration suite (tests/integration).
#include "clawperator/adb/server_relay.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

#include "loopback_sockets.hpp"

namespace {

using clawperator::adb::LoopbackTcpServer;
using clawperator::adb::ServerRelay;
using clawperator::testing::at_end_of_stream;
using clawperator::testing::Fd;
using clawperator::testing::read_up_to;
using clawperator::testing::send_all;
using clawperator::testing::TcpListener;

// A Unix socket and what connect(2) to localabstract:NAME returned for it.
std::pair<Fd, int> connect_abstract(const std::string& socket_spec) {
  const std::string prefix = "localabstract:";
  REQUIRE(socket_spec.rfind(prefix, 0) == 0);
  const std::string name = socket_spec.substr(prefix.size());
  Fd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path + 1, name.data(), name.size());
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  const int rc = connect(fd.get(), reinterpret_cast<sockaddr*>(&address), length);
  return {std::move(fd), rc};
}

Fd connect_to(const std::string& socket_spec) {
  auto [fd, rc] = connect_abstract(socket_spec);
  REQUIRE(rc == 0);
  return std::move(fd);
}

std::string pattern(std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + i / 977) & 0xff);
  return bytes;
}

}  // namespace

TEST_CASE("no relay without a server to relay to", "[adb][relay]") {
  int port = 0;
  {
    const TcpListener closed_again;
    port = closed_again.port;
  }
  CHECK(ServerRelay::start({LoopbackTcpServer::Family::IPv4, port}) == nullptr);
}

TEST_CASE("the relay passes requests and answers through unchanged", "[adb][relay]") {
  const TcpListener listener;
  const auto relay = ServerRelay::start(listener.server());
  REQUIRE(relay != nullptr);
  CHECK(relay->socket_spec().rfind("localabstract:clawperator-adb-relay-", 0) == 0);
  // The relay connected once at start; that connection serves the first client.
  const Fd server = listener.accept_one();
  const Fd client = connect_to(relay->socket_spec());

  send_all(client.get(), "000chost:version");
  CHECK(read_up_to(server.get(), 16) == "000chost:version");
  send_all(server.get(), "OKAY00040029");
  CHECK(read_up_to(client.get(), 12) == "OKAY00040029");

  // Megabytes one way, as a chunked result through logcat: every byte, in order. More than
  // the relay and the sockets buffer, so the sender waits for the reader (from a thread).
  const std::string big = pattern(std::size_t{8} << 20);
  bool sent = false;  // Catch2 assertions are not for other threads
  std::thread sender([&] {
    std::size_t offset = 0;
    while (offset < big.size()) {
      const ssize_t n = send(server.get(), big.data() + offset, big.size() - offset, MSG_NOSIGNAL);
      if (n <= 0) return;
      offset += static_cast<std::size_t>(n);
    }
    sent = true;
  });
  const std::string received = read_up_to(client.get(), big.size());
  sender.join();
  CHECK(sent);
  CHECK(received == big);
}

TEST_CASE("end of stream travels both ways, each after the bytes before it", "[adb][relay]") {
  const TcpListener listener;
  const auto relay = ServerRelay::start(listener.server());
  REQUIRE(relay != nullptr);
  const Fd server = listener.accept_one();

  SECTION("the client stops writing: the server reads everything, then EOF, and can answer") {
    const Fd client = connect_to(relay->socket_spec());
    send_all(client.get(), "request");
    REQUIRE(shutdown(client.get(), SHUT_WR) == 0);
    CHECK(read_up_to(server.get(), 7) == "request");
    CHECK(at_end_of_stream(server.get()));
    send_all(server.get(), "answer");
    CHECK(read_up_to(client.get(), 6) == "answer");
  }
  SECTION("the server closes: the client reads what was sent, then EOF") {
    const Fd client = connect_to(relay->socket_spec());
    send_all(server.get(), "last words");
    REQUIRE(shutdown(server.get(), SHUT_WR) == 0);
    CHECK(read_up_to(client.get(), 10) == "last words");
    CHECK(at_end_of_stream(client.get()));
  }
  SECTION("the client goes away (a killed follower): the server sees EOF") {
    {
      const Fd client = connect_to(relay->socket_spec());
      send_all(client.get(), "x");
    }
    CHECK(read_up_to(server.get(), 1) == "x");
    CHECK(at_end_of_stream(server.get()));
  }
}

TEST_CASE("each client gets its own connection to the server", "[adb][relay]") {
  const TcpListener listener;
  const auto relay = ServerRelay::start(listener.server());
  REQUIRE(relay != nullptr);
  const Fd first_server = listener.accept_one();
  // adb opens one connection for host:version and another for the service.
  const Fd first = connect_to(relay->socket_spec());
  const Fd second = connect_to(relay->socket_spec());
  send_all(second.get(), "two");
  send_all(first.get(), "one");
  CHECK(read_up_to(first_server.get(), 3) == "one");
  const Fd second_server = listener.accept_one();
  CHECK(read_up_to(second_server.get(), 3) == "two");
  send_all(second_server.get(), "2");
  send_all(first_server.get(), "1");
  CHECK(read_up_to(first.get(), 1) == "1");
  CHECK(read_up_to(second.get(), 1) == "2");
}

TEST_CASE("a server that refuses a later connection closes that client", "[adb][relay]") {
  auto listener = std::make_unique<TcpListener>();
  const auto relay = ServerRelay::start(listener->server());
  REQUIRE(relay != nullptr);
  const Fd first_server = listener->accept_one();
  listener.reset();  // the server is gone
  const Fd first = connect_to(relay->socket_spec());
  const Fd second = connect_to(relay->socket_spec());
  CHECK(at_end_of_stream(second.get()));
  send_all(first.get(), "still here");
  CHECK(read_up_to(first_server.get(), 10) == "still here");
}

TEST_CASE("stopping the relay closes every connection at once", "[adb][relay]") {
  const TcpListener listener;
  auto relay = ServerRelay::start(listener.server());
  REQUIRE(relay != nullptr);
  const Fd server = listener.accept_one();
  const Fd client = connect_to(relay->socket_spec());
  send_all(client.get(), "x");
  CHECK(read_up_to(server.get(), 1) == "x");
  const std::string spec = relay->socket_spec();
  relay.reset();
  CHECK(at_end_of_stream(client.get()));
  CHECK(at_end_of_stream(server.get()));
  // The abstract name went with the listener.
  CHECK(connect_abstract(spec).second != 0);
}

TEST_CASE("the relay tells when a client asked for shell protocol v2", "[adb][relay]") {
  const TcpListener listener;
  auto relay = ServerRelay::start(listener.server());
  REQUIRE(relay != nullptr);
  const auto requested = relay->shell_v2_requested();
  const Fd first_server = listener.accept_one();
  const Fd version = connect_to(relay->socket_spec());
  send_all(version.get(), "000chost:version");
  CHECK(read_up_to(first_server.get(), 16) == "000chost:version");
  CHECK_FALSE(requested->load());

  // A legacy shell (a device without shell_v2) proves nothing about v2.
  const Fd legacy = connect_to(relay->socket_spec());
  const Fd legacy_server = listener.accept_one();
  send_all(legacy.get(), "0014shell:logcat -T 1 -v");
  CHECK(read_up_to(legacy_server.get(), 24) == "0014shell:logcat -T 1 -v");
  CHECK_FALSE(requested->load());

  // The follower's request, split in two writes, after its transport request.
  const Fd follower = connect_to(relay->socket_spec());
  const Fd follower_server = listener.accept_one();
  const std::string transport = "001chost:transport:emulator-5554";
  const std::string service = "0030shell,v2,TERM=xterm:exec logcat '-v' 'time'";
  send_all(follower.get(), transport + service.substr(0, 10));
  CHECK(read_up_to(follower_server.get(), transport.size() + 10) ==
        transport + service.substr(0, 10));
  send_all(follower.get(), service.substr(10));
  CHECK(read_up_to(follower_server.get(), service.size() - 10) == service.substr(10));
  CHECK(requested->load());
  // It outlives the relay.
  relay.reset();
  CHECK(requested->load());
}
