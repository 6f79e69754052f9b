#include "clawperator/adb/server_endpoint.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "clawperator/adb/adb_client.hpp"

using namespace clawperator::adb;
using Family = LoopbackTcpServer::Family;

namespace {

RawEnvironment environment(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
}

AdbSettings with_server(std::optional<std::string> host, std::optional<int> port) {
  AdbSettings settings;
  settings.server_host = std::move(host);
  settings.server_port = port;
  return settings;
}

}  // namespace

TEST_CASE("the adb server is tcp:5037 on the loopback unless something says otherwise",
          "[adb][server]") {
  const auto endpoint = resolve_server_endpoint({}, environment({}));
  REQUIRE(endpoint);
  CHECK(endpoint->spec == "tcp:5037");
  REQUIRE(endpoint->loopback);
  CHECK(endpoint->loopback->family == Family::Any);
  CHECK(endpoint->loopback->port == 5037);
}

TEST_CASE("adb's precedence: flags, then ADB_SERVER_SOCKET, then address and port",
          "[adb][server]") {
  const auto env = environment({{"ADB_SERVER_SOCKET", "tcp:127.0.0.1:6001"},
                                {"ANDROID_ADB_SERVER_ADDRESS", "10.0.0.9"},
                                {"ANDROID_ADB_SERVER_PORT", "6002"}});
  const auto from_socket = resolve_server_endpoint({}, env);
  REQUIRE(from_socket);
  CHECK(from_socket->spec == "tcp:127.0.0.1:6001");
  REQUIRE(from_socket->loopback);
  CHECK(from_socket->loopback->family == Family::IPv4);
  CHECK(from_socket->loopback->port == 6001);

  // -H/-P make adb ignore ADB_SERVER_SOCKET, but not the port variable.
  const auto from_host_flag = resolve_server_endpoint(with_server("farm.example", {}), env);
  REQUIRE(from_host_flag);
  CHECK(from_host_flag->spec == "tcp:farm.example:6002");
  CHECK_FALSE(from_host_flag->loopback);
  const auto from_flags = resolve_server_endpoint(with_server("localhost", 7000), env);
  REQUIRE(from_flags);
  CHECK(from_flags->spec == "tcp:localhost:7000");
  REQUIRE(from_flags->loopback);
  CHECK(from_flags->loopback->port == 7000);

  const auto from_address = resolve_server_endpoint(
      {},
      environment({{"ANDROID_ADB_SERVER_ADDRESS", "::1"}, {"ANDROID_ADB_SERVER_PORT", "6002"}}));
  REQUIRE(from_address);
  CHECK(from_address->spec == "tcp:::1:6002");
  REQUIRE(from_address->loopback);
  CHECK(from_address->loopback->family == Family::IPv6);
  CHECK(from_address->loopback->port == 6002);

  const auto from_port =
      resolve_server_endpoint({}, environment({{"ANDROID_ADB_SERVER_PORT", ""}}));
  REQUIRE(from_port);
  CHECK(from_port->spec == "tcp:5037");
}

TEST_CASE("servers that are not TCP on the loopback have no loopback endpoint", "[adb][server]") {
  for (const char* spec : {"localfilesystem:/run/adb.sock", "localabstract:adb",
                           "tcp:10.1.1.1:5037", "tcp:farm:5037", "acme:5037"}) {
    CAPTURE(spec);
    const auto endpoint = resolve_server_endpoint({}, environment({{"ADB_SERVER_SOCKET", spec}}));
    REQUIRE(endpoint);
    CHECK(endpoint->spec == spec);
    CHECK_FALSE(endpoint->loopback);
  }
}

TEST_CASE("values adb itself refuses resolve to nothing", "[adb][server]") {
  for (const char* port : {"0", "65536", "50x", "-1", " 5037"}) {
    CAPTURE(port);
    CHECK_FALSE(resolve_server_endpoint({}, environment({{"ANDROID_ADB_SERVER_PORT", port}})));
  }
  CHECK_FALSE(resolve_server_endpoint({}, environment({{"ADB_SERVER_SOCKET", ""}})));
  CHECK_FALSE(resolve_server_endpoint({}, environment({{"ANDROID_ADB_SERVER_ADDRESS", ""}})));
}

TEST_CASE("loopback TCP socket specs", "[adb][server]") {
  struct Case {
    const char* spec;
    Family family;
    int port;
  };
  for (const Case& c :
       {Case{"tcp:5037", Family::Any, 5037}, Case{"tcp:localhost:1", Family::Any, 1},
        Case{"tcp:127.0.0.1:65535", Family::IPv4, 65535},
        Case{"tcp:[::1]:5038", Family::IPv6, 5038}, Case{"tcp:::1:5039", Family::IPv6, 5039}}) {
    CAPTURE(c.spec);
    const auto server = parse_loopback_tcp_spec(c.spec);
    REQUIRE(server);
    CHECK(server->family == c.family);
    CHECK(server->port == c.port);
  }
  for (const char* spec : {"tcp:", "tcp:localhost", "tcp:localhost:", "tcp:127.0.0.2:5037",
                           "tcp:localhost:0", "tcp:localhost:65536", "udp:5037", "TCP:5037"}) {
    CAPTURE(spec);
    CHECK_FALSE(parse_loopback_tcp_spec(spec));
  }
}
