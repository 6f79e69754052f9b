// The adb side of `webview` (src/webview/device_endpoints.cpp) against a scripted adb: the one
// listing call, the forward's argv, and its removal on every way out, an interrupt included.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>

#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/scripted_runner.hpp"
#include "clawperator/webview/device_endpoints.hpp"
#include "test_files.hpp"

using namespace clawperator;
using clawperator::process::ScriptedRunner;
using Argv = ScriptedRunner::Argv;

namespace {

const Argv kForward{"adb",     "-s",    "SERIAL1",
                    "forward", "tcp:0", "localabstract:webview_devtools_remote_4321"};
const Argv kRemove{"adb", "-s", "SERIAL1", "forward", "--remove", "tcp:40123"};

std::size_t forward_removals(const ScriptedRunner& runner) {
  return runner.call_count(kRemove);
}

// adb answers the forward with port 40123 and its removal with success.
contract::Outcome<webview::ForwardedPort> open_scripted_forward(ScriptedRunner& runner,
                                                                adb::AdbClient& client) {
  runner.on_run(kForward, ScriptedRunner::exited(0, "40123\n"));
  runner.on_run(kRemove, ScriptedRunner::exited(0));
  return webview::ForwardedPort::open(client, "SERIAL1", "webview_devtools_remote_4321");
}

}  // namespace

TEST_CASE("one shell call lists the sockets and their apps", "[webview][adb]") {
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  runner.on_run(
      [](const Argv& argv) {
        return argv.size() == 5 && argv[0] == "adb" && argv[1] == "-s" && argv[2] == "SERIAL1" &&
               argv[3] == "shell" && argv[4].rfind("cat /proc/net/unix; ps -A -o PID,NAME", 0) == 0;
      },
      "the listing",
      ScriptedRunner::exited(0,
                             "Num RefCount Protocol Flags Type St Inode Path\n"
                             "0000000000000000: 00000002 00000000 00010000 0001 01 81234 "
                             "@webview_devtools_remote_4321\n"
                             "  PID NAME\n 4321 com.example.shop\nclawperator-exit:0\n"));
  const auto sockets = webview::list_device_sockets(client, "SERIAL1");
  REQUIRE(sockets);
  REQUIRE(sockets->sockets.size() == 1);
  CHECK(sockets->sockets[0].package == "com.example.shop");
  CHECK(runner.calls().size() == 1);
  CHECK(runner.unexpected_calls().empty());
}

TEST_CASE("a device that refuses the listing is the device's code", "[webview][adb]") {
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  runner.on_run(ScriptedRunner::starts_with({"adb", "-s", "GONE", "shell"}), "the listing",
                ScriptedRunner::exited(1, "", "adb: device 'GONE' not found\n"));
  const auto sockets = webview::list_device_sockets(client, "GONE");
  REQUIRE_FALSE(sockets);
  CHECK(sockets.error().code == "DEVICE_NOT_FOUND");
}

TEST_CASE("the forward is adb forward tcp:0 and is removed when it goes", "[webview][adb]") {
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  {
    auto forwarded = open_scripted_forward(runner, client);
    REQUIRE(forwarded);
    CHECK(forwarded->port() == 40123);
    // Moved: removed once, by the last owner.
    webview::ForwardedPort kept(std::move(*forwarded));
    CHECK(forward_removals(runner) == 0);
  }
  CHECK(forward_removals(runner) == 1);
  CHECK(runner.unexpected_calls().empty());
}

TEST_CASE("the forward is removed after Ctrl-C too", "[webview][adb]") {
  process::install_interrupt_handlers();
  process::reset_interrupt_for_tests();
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  {
    auto forwarded = open_scripted_forward(runner, client);
    REQUIRE(forwarded);
    std::raise(SIGINT);
    REQUIRE(process::interrupted_signal() == SIGINT);
  }
  CHECK(forward_removals(runner) == 1);
  process::reset_interrupt_for_tests();
}

TEST_CASE("a forward adb refuses or that prints no port", "[webview][adb]") {
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  runner.on_run(kForward, ScriptedRunner::exited(0, "not a port\n"));
  const auto garbled =
      webview::ForwardedPort::open(client, "SERIAL1", "webview_devtools_remote_4321");
  REQUIRE_FALSE(garbled);
  CHECK(garbled.error().code == "WEBVIEW_PROTOCOL_ERROR");
  CHECK(contract::exit_code_of(garbled.error()) == 3);
  // Nothing was forwarded, so nothing is removed.
  CHECK(forward_removals(runner) == 0);

  runner.on_run(kForward, ScriptedRunner::exited(1, "", "adb: device offline\n"));
  const auto offline =
      webview::ForwardedPort::open(client, "SERIAL1", "webview_devtools_remote_4321");
  REQUIRE_FALSE(offline);
  CHECK(offline.error().code == "DEVICE_OFFLINE");

  CHECK(webview::parse_forward_port("40123\n") == 40123);
  CHECK_FALSE(webview::parse_forward_port("").has_value());
  CHECK_FALSE(webview::parse_forward_port("70000").has_value());
  CHECK_FALSE(webview::parse_forward_port("0").has_value());
}

namespace {

io::StateDirectory open_forward_state(const std::filesystem::path& path) {
  auto opened = io::StateDirectory::open(path, ::geteuid(), io::StateDirectory::Symlinks::Refuse);
  if (!opened) FAIL("the state directory does not open");
  return std::move(*opened);
}

// A private state directory with the registry the service keeps webview forwards in.
struct ForwardRecords {
  testing::TemporaryDirectory dir{"webview-forwards"};
  io::StateDirectory state = open_forward_state(dir.path() / "state");
  adb::ForwardRegistry registry{&state, "KEY-webview", "SERIAL1"};
  std::filesystem::path record(int port) const {
    return dir.path() / "state" / ("forward-KEY-webview-" + std::to_string(port));
  }
};

}  // namespace

TEST_CASE("a live forward is recorded, and its record goes with it", "[webview][adb]") {
  ForwardRecords records;
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  runner.on_run(kForward, ScriptedRunner::exited(0, "40123\n"));
  runner.on_run(kRemove, ScriptedRunner::exited(0));
  {
    auto forwarded = webview::ForwardedPort::open(client, "SERIAL1", "webview_devtools_remote_4321",
                                                  &records.registry);
    REQUIRE(forwarded);
    CHECK(testing::read_whole_file(records.record(40123)) == std::to_string(::getpid()) + "\n");
  }
  CHECK_FALSE(std::filesystem::exists(records.record(40123)));
}

TEST_CASE("a killed run's forward is swept by the next run", "[webview][adb]") {
  ForwardRecords records;
  // The owner of this record is gone (no process has this pid: the kernel's pid_max is at most
  // 4194304, and a pid is below it).
  testing::write_file(records.record(40555), "4194304\n");
  // One that adb no longer shows: only its record goes.
  testing::write_file(records.record(40666), "4194304\n");
  ScriptedRunner runner;
  adb::AdbClient client(runner, {});
  runner.on_run({"adb", "forward", "--list"},
                ScriptedRunner::exited(0,
                                       "SERIAL1 tcp:40555 localabstract:webview_devtools_remote_9\n"
                                       "OTHER tcp:40666 localabstract:chrome_devtools_remote\n"));
  runner.on_run({"adb", "-s", "SERIAL1", "forward", "--remove", "tcp:40555"},
                ScriptedRunner::exited(0));
  webview::sweep_stale_forwards(client, records.registry);
  CHECK(runner.call_count({"adb", "-s", "SERIAL1", "forward", "--remove", "tcp:40555"}) == 1);
  CHECK(runner.unexpected_calls().empty());
  CHECK_FALSE(std::filesystem::exists(records.record(40555)));
  CHECK_FALSE(std::filesystem::exists(records.record(40666)));

  // A live owner's record (ours) is left alone, and costs no adb call at all.
  testing::write_file(records.record(40777), std::to_string(::getpid()) + "\n");
  const std::size_t calls = runner.calls().size();
  webview::sweep_stale_forwards(client, records.registry);
  CHECK(runner.calls().size() == calls);
  CHECK(std::filesystem::exists(records.record(40777)));
}
