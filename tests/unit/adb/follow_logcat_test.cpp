// How AdbClient starts the logcat follower: through the relay when the server is on the
// loopback, never with --adb-server, and after starting a server that is not running.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/process/scripted_runner.hpp"

namespace {

using clawperator::adb::AdbClient;
using clawperator::adb::AdbSettings;
using clawperator::process::ScriptedRunner;
using Argv = ScriptedRunner::Argv;

const Argv kFollower{"adb", "-s", "emulator-5554", "logcat", "-v", "time", "-v", "uid", "-T", "1"};

// Sets the variables adb reads for the duration of a test, and restores them.
class ServerEnvironment {
 public:
  explicit ServerEnvironment(int port) {
    for (const char* name : kNames) {
      const char* value = std::getenv(name);
      saved_.emplace_back(value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(name);
    }
    setenv("ANDROID_ADB_SERVER_PORT", std::to_string(port).c_str(), 1);
  }
  ~ServerEnvironment() {
    for (std::size_t i = 0; i < std::size(kNames); ++i) {
      if (saved_[i]) {
        setenv(kNames[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kNames[i]);
      }
    }
  }
  ServerEnvironment(const ServerEnvironment&) = delete;
  ServerEnvironment& operator=(const ServerEnvironment&) = delete;

 private:
  static constexpr const char* kNames[] = {"ADB_SERVER_SOCKET", "ANDROID_ADB_SERVER_ADDRESS",
                                           "ANDROID_ADB_SERVER_PORT"};
  std::vector<std::optional<std::string>> saved_;
};

// A listening socket on 127.0.0.1, standing in for a running adb server.
class Listener {
 public:
  Listener() : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(listen(fd_, 8) == 0);
    socklen_t size = sizeof address;
    REQUIRE(getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
    port_ = ntohs(address.sin_port);
  }
  ~Listener() { close(fd_); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

int closed_port() {
  const Listener gone;
  return gone.port();
}

struct Started {
  std::vector<ScriptedRunner::Call> calls;
  std::vector<std::string> follower_environment;
  bool server_stopped = false;
};

Started follow(AdbSettings settings) {
  ScriptedRunner runner;
  runner.on_start(ScriptedRunner::starts_with({"adb"}), "the follower", {});
  AdbClient client(runner, std::move(settings));
  const auto stream = client.follow_logcat("emulator-5554");
  REQUIRE(stream);
  REQUIRE(*stream != nullptr);
  CHECK(runner.unmet_expectations().empty());
  CHECK(runner.unexpected_calls().empty());
  Started started{runner.calls(), {}, client.server_stopped()};
  REQUIRE(started.calls.size() == 1);
  started.follower_environment = started.calls.back().environment;
  return started;
}

AdbSettings relaying(bool relay) {
  AdbSettings settings;
  settings.relay_logcat = relay;
  settings.probe_local_server = true;
  return settings;
}

}  // namespace

TEST_CASE("a running loopback server: the follower goes through the relay", "[adb][relay]") {
  const Listener server;
  const ServerEnvironment environment(server.port());
  const Started started = follow(relaying(true));
  CHECK(started.calls[0].argv == kFollower);
  CHECK_FALSE(started.server_stopped);
  REQUIRE(started.follower_environment.size() == 1);
  CHECK(started.follower_environment[0].rfind(
            "ADB_SERVER_SOCKET=localabstract:clawperator-adb-relay-", 0) == 0);
}

TEST_CASE("no relay when switched off or with --adb-server", "[adb][relay]") {
  const Listener server;
  const ServerEnvironment environment(server.port());
  CHECK(follow(relaying(false)).follower_environment.empty());
  AdbSettings remote = relaying(true);
  remote.server_host = "127.0.0.1";
  remote.server_port = server.port();
  const Started with_flags = follow(remote);
  CHECK(with_flags.follower_environment.empty());
  CHECK(with_flags.calls.back().argv == Argv{"adb", "-H", "127.0.0.1", "-P",
                                             std::to_string(server.port()), "-s", "emulator-5554",
                                             "logcat", "-v", "time", "-v", "uid", "-T", "1"});
}

TEST_CASE("a stopped loopback server is noticed, so that nothing races the follower to start it",
          "[adb][relay]") {
  const ServerEnvironment environment(closed_port());
  for (const bool relay : {true, false}) {
    CAPTURE(relay);
    const Started started = follow(relaying(relay));
    CHECK(started.calls[0].argv == kFollower);
    CHECK(started.follower_environment.empty());
    CHECK(started.server_stopped);
  }
}

TEST_CASE("scripted settings do not look at the machine's server", "[adb][relay]") {
  const ServerEnvironment environment(closed_port());
  CHECK_FALSE(follow(AdbSettings{}).server_stopped);
}

TEST_CASE("a server that is not on the loopback is left to adb", "[adb][relay]") {
  const ServerEnvironment environment(5037);
  setenv("ADB_SERVER_SOCKET", "tcp:farm.example:5037", 1);
  const Started started = follow(relaying(true));
  REQUIRE(started.calls.size() == 1);
  CHECK(started.follower_environment.empty());
}
