// host:emulator:<port>, as the emulator sends it to the adb server.
#include "vdevice/emulator/adb_registration.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "clawperator/process/unique_fd.hpp"

namespace {

using clawperator::process::UniqueFd;
using clawperator::vdevice::emulator::adb_server_port;
using clawperator::vdevice::emulator::emulator_registration_request;
using clawperator::vdevice::emulator::register_with_adb_server;

// A listener on a free loopback port; the port in `port`.
UniqueFd listen_on_free_port(std::uint16_t& port) {
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  REQUIRE(fd.valid());
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(fd.get(), 4) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
  port = ntohs(address.sin_port);
  return fd;
}

}  // namespace

TEST_CASE("adb registration: four hex digits of length, then the service", "[vdevice][emulator]") {
  CHECK(emulator_registration_request(5555) == "0012host:emulator:5555");
  CHECK(emulator_registration_request(40001) == "0013host:emulator:40001");
}

TEST_CASE("adb registration: the request reaches whatever listens on the server port",
          "[vdevice][emulator]") {
  std::uint16_t port = 0;
  const UniqueFd listener = listen_on_free_port(port);
  REQUIRE(register_with_adb_server(port, 40001));
  const UniqueFd accepted(::accept(listener.get(), nullptr, nullptr));
  REQUIRE(accepted.valid());
  std::string received;
  char buffer[64];
  for (ssize_t got; (got = ::read(accepted.get(), buffer, sizeof buffer)) > 0;) {
    received.append(buffer, static_cast<std::size_t>(got));
  }
  CHECK(received == "0013host:emulator:40001");
}

TEST_CASE("adb registration: no adb server is an error naming the port", "[vdevice][emulator]") {
  std::uint16_t port = 0;
  { const UniqueFd closed = listen_on_free_port(port); }
  const auto registered = register_with_adb_server(port, 40001);
  REQUIRE_FALSE(registered);
  CHECK(registered.error().path.empty());
  CHECK(registered.error().message == "cannot connect to the adb server on 127.0.0.1:" +
                                          std::to_string(port) + ": Connection refused");
}

TEST_CASE("adb registration: the server port from the flag, the environment, or 5037",
          "[vdevice][emulator]") {
  CHECK(*adb_server_port(6000, "7000") == 6000);
  CHECK(*adb_server_port(std::nullopt, "7000") == 7000);
  CHECK(*adb_server_port(std::nullopt, nullptr) == 5037);
  CHECK(*adb_server_port(std::nullopt, "") == 5037);
  for (const char* bad : {"0", "65536", "12ab", "-1", "x"}) {
    const auto port = adb_server_port(std::nullopt, bad);
    REQUIRE_FALSE(port);
    CHECK(port.error().path.empty());
    CHECK(port.error().message ==
          "ANDROID_ADB_SERVER_PORT must be a number in 1..65535, not \"" + std::string(bad) + "\"");
  }
}
