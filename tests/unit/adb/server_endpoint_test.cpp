#include "clawperator/adb/server_endpoint.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

namespace {

// A resolver with a fixed table that counts its lookups, so that a test needs no DNS and can
// tell which names were looked up at all.
struct TableResolver {
  std::map<std::string, std::string> table;
  std::shared_ptr<std::vector<std::string>> asked = std::make_shared<std::vector<std::string>>();
  HostResolver resolver() const {
    return [table = table, asked = asked](const std::string& name) -> std::optional<std::string> {
      asked->push_back(name);
      const auto it = table.find(name);
      if (it == table.end()) return std::nullopt;
      return it->second;
    };
  }
};

}  // namespace

TEST_CASE("one adb server is one key, however it was named", "[adb][server][lock]") {
  TableResolver names{
      {{"phone-host", "127.0.1.1"}, {"farm.example", "10.0.0.5"}, {"six.example", "2001:db8::7"}}};
  const HostResolver resolve = names.resolver();
  // Every spelling of this host's server on port 6001.
  for (const char* spec :
       {"tcp:6001", "tcp:localhost:6001", "tcp:LocalHost:6001", "tcp:localhost.:6001",
        "tcp:127.0.0.1:6001", "tcp:127.0.0.2:6001", "tcp:127.255.255.254:6001", "tcp:0.0.0.0:6001",
        "tcp:::1:6001", "tcp:[::1]:6001", "tcp:[0:0:0:0:0:0:0:1]:6001", "tcp:[::]:6001",
        "tcp:[::ffff:127.0.0.1]:6001", "tcp:phone-host:6001"}) {
    CAPTURE(spec);
    CHECK(canonical_server(spec, resolve) == "tcp:loopback:6001");
  }
  // Only the name that is neither a numeric literal nor localhost was looked up.
  CHECK(*names.asked == std::vector<std::string>{"phone-host"});
  // Other hosts: their address in one spelling.
  for (const auto& [spec, canonical] : std::vector<std::pair<const char*, const char*>>{
           {"tcp:10.0.0.5:5037", "tcp:10.0.0.5:5037"},
           {"tcp:farm.example:5037", "tcp:10.0.0.5:5037"},
           {"tcp:FARM.example:5037", "tcp:10.0.0.5:5037"},
           {"tcp:[::ffff:10.0.0.5]:5037", "tcp:10.0.0.5:5037"},
           {"tcp:[2001:DB8:0::7]:5037", "tcp:[2001:db8::7]:5037"},
           {"tcp:2001:db8::7:5037", "tcp:[2001:db8::7]:5037"},
           {"tcp:six.example:5037", "tcp:[2001:db8::7]:5037"},
           {"tcp:[fe80::1%ETH0]:5037", "tcp:[fe80::1%eth0]:5037"},
           // A name that does not resolve: itself, in lower case, so that the lock still works.
           {"tcp:Gone.Example:5037", "tcp:gone.example:5037"},
           {"tcp:gone.example.:5037", "tcp:gone.example:5037"}}) {
    CAPTURE(spec);
    CHECK(canonical_server(spec, resolve) == canonical);
  }
  // A port is part of the server.
  CHECK(canonical_server("tcp:6002", resolve) != canonical_server("tcp:6001", resolve));
}

TEST_CASE("socket specs that are not TCP", "[adb][server][lock]") {
  const HostResolver never = [](const std::string& name) -> std::optional<std::string> {
    FAIL("looked up " << name);
    return std::nullopt;
  };
  // adb's host reads local: as localfilesystem:; the path is made absolute and normal.
  const std::string cwd = std::filesystem::current_path().string();
  CHECK(canonical_server("local:/run/adb.sock", never) == "localfilesystem:/run/adb.sock");
  CHECK(canonical_server("localfilesystem:/run//x/../adb.sock", never) ==
        "localfilesystem:/run/adb.sock");
  CHECK(canonical_server("localfilesystem:adb.sock", never) ==
        "localfilesystem:" + (std::filesystem::path(cwd) / "adb.sock").string());
  // A link to the socket's directory is the directory.
  const auto root =
      std::filesystem::temp_directory_path() / ("clawperator-spec-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "real");
  std::filesystem::create_directory_symlink(root / "real", root / "link");
  CHECK(canonical_server("localfilesystem:" + (root / "link" / "adb.sock").string(), never) ==
        "localfilesystem:" + (root / "real" / "adb.sock").string());
  std::filesystem::remove_all(root);
  for (const char* spec : {"localabstract:adb", "localreserved:adb", "vsock:2:5037", "acme:5037",
                           "tcp:", "tcp:localhost", "tcp:localhost:", "tcp:localhost:0",
                           "tcp:host:65536", "tcp::5037", "TCP:5037"}) {
    CAPTURE(spec);
    CHECK(canonical_server(spec, never) == spec);
  }
}

TEST_CASE("the device key: every way of naming the server, and the serial", "[adb][server][lock]") {
  TableResolver names{{{"phone-host", "127.0.0.1"}}};
  const HostResolver resolve = names.resolver();
  const std::string expected = "tcp%3Aloopback%3A6001+emulator-5554";
  struct Spelling {
    const char* what;
    AdbSettings settings;
    std::map<std::string, std::string> environment;
  };
  const std::vector<Spelling> spellings = {
      {"ANDROID_ADB_SERVER_PORT", {}, {{"ANDROID_ADB_SERVER_PORT", "6001"}}},
      {"--adb-server 127.0.0.1:P", with_server("127.0.0.1", 6001), {}},
      {"--adb-server localhost:P", with_server("localhost", 6001), {}},
      {"--adb-server [::1]:P", with_server("::1", 6001), {}},
      {"--adb-server name:P", with_server("phone-host", 6001), {}},
      {"-H without -P: the port variable",
       with_server("localhost", {}),
       {{"ANDROID_ADB_SERVER_PORT", "6001"}}},
      {"ANDROID_ADB_SERVER_ADDRESS and PORT",
       {},
       {{"ANDROID_ADB_SERVER_ADDRESS", "127.0.0.1"}, {"ANDROID_ADB_SERVER_PORT", "6001"}}},
      {"ADB_SERVER_SOCKET tcp:P", {}, {{"ADB_SERVER_SOCKET", "tcp:6001"}}},
      {"ADB_SERVER_SOCKET tcp:localhost:P", {}, {{"ADB_SERVER_SOCKET", "tcp:localhost:6001"}}},
      {"ADB_SERVER_SOCKET over the port variable",
       {},
       {{"ADB_SERVER_SOCKET", "tcp:[::1]:6001"}, {"ANDROID_ADB_SERVER_PORT", "7000"}}},
      {"--adb-server over ADB_SERVER_SOCKET",
       with_server("127.0.0.1", 6001),
       {{"ADB_SERVER_SOCKET", "tcp:7000"}}},
  };
  for (const Spelling& spelling : spellings) {
    CAPTURE(spelling.what);
    CHECK(device_key(spelling.settings, "emulator-5554", environment(spelling.environment),
                     resolve) == expected);
  }
  // Without anything: adb's default server.
  CHECK(device_key({}, "emulator-5554", environment({}), resolve) ==
        "tcp%3Aloopback%3A5037+emulator-5554");
  // Another serial, another server: another key.
  CHECK(device_key(with_server("localhost", 6001), "emulator-5556", environment({}), resolve) !=
        expected);
  CHECK(device_key(with_server("localhost", 6002), "emulator-5554", environment({}), resolve) !=
        expected);
  // Values adb refuses: one key for them all, as every call fails alike.
  CHECK(device_key({}, "emulator-5554", environment({{"ANDROID_ADB_SERVER_PORT", "abc"}}),
                   resolve) == "unresolved+emulator-5554");
  // The two parts cannot run into each other: "+" only ever separates them.
  CHECK(device_key({}, "a+b", environment({{"ADB_SERVER_SOCKET", "localabstract:x"}}), resolve) ==
        "localabstract%3Ax+a%2Bb");
  CHECK(device_key({}, "b", environment({{"ADB_SERVER_SOCKET", "localabstract:x+a"}}), resolve) ==
        "localabstract%3Ax%2Ba+b");
}

TEST_CASE("a device key always fits in a file name", "[adb][server][lock]") {
  const auto env = environment({{"ADB_SERVER_SOCKET", "localabstract:" + std::string(200, '/')}});
  const std::string key = device_key({}, "emulator-5554", env, {});
  CHECK(key.size() == 7 + 64);
  CHECK(key.rfind("sha256-", 0) == 0);
  CHECK(key.find_first_not_of("sha256-0123456789abcdef") == std::string::npos);
  // Still one key per device.
  CHECK(device_key({}, "emulator-5554", env, {}) == key);
  CHECK(device_key({}, "emulator-5556", env, {}) != key);
  // At the limit it is the key itself.
  const std::string serial(kMaxDeviceKeyBytes - std::string("tcp%3Aloopback%3A5037+").size(), 's');
  CHECK(device_key({}, serial, environment({}), {}) == "tcp%3Aloopback%3A5037+" + serial);
}

TEST_CASE("the system resolver: a host name from /etc/hosts", "[adb][server][lock]") {
  // "localhost" is never looked up; the system resolver still knows it, from /etc/hosts.
  const std::optional<std::string> address = resolve_host_address("localhost");
  REQUIRE(address);
  CHECK((*address == "127.0.0.1" || *address == "::1"));
  CHECK(canonical_server("tcp:" + *address + ":5037") == "tcp:loopback:5037");
  // A numeric literal is its own answer (getaddrinfo never asks DNS for one).
  CHECK(resolve_host_address("10.0.0.5") == std::optional<std::string>("10.0.0.5"));
  // (A name that does not resolve is the table resolver's case above: asking DNS for one here
  // could wait for a resolver that a machine without network never answers.)
}
