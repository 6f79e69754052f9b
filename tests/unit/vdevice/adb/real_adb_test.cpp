// The transport against the real adb (Debian's 1:29.0.6): a private adb server on its own
// port connects to AdbDeviceServer instances, and the adb client runs the commands users run.
// Skipped with a warning when adb is not installed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "adb_test_support.hpp"
#include "clawperator/process/runner.hpp"
#include "proc_files.hpp"
#include "skip.hpp"

namespace {

using namespace clawperator::vdevice;
using namespace clawperator::vdevice::adb::test;
using clawperator::process::Completion;
using clawperator::process::make_system_runner;
using clawperator::process::Runner;
using clawperator::process::Started;
using clawperator::process::Stream;

bool adb_installed() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && access((dir + "/adb").c_str(), X_OK) == 0) return true;
  }
  return false;
}

bool port_free(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const int one = 1;
  // As adb itself binds: a TIME_WAIT left by an earlier test does not make the port busy.
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

// Pids of adb servers listening on `port` (argv: adb -L tcp:PORT fork-server server ...).
std::vector<pid_t> adb_server_pids(std::uint16_t port) {
  std::vector<pid_t> pids;
  const std::string spec_suffix = ":" + std::to_string(port);
  for (const pid_t pid : clawperator::testing::all_pids()) {
    const std::string name = std::to_string(pid);
    const std::string cmdline = clawperator::testing::read_proc_file("/proc/" + name + "/cmdline");
    std::vector<std::string> argv;
    std::stringstream parts(cmdline);
    for (std::string arg; std::getline(parts, arg, '\0');) argv.push_back(arg);
    const auto has = [&](auto predicate) {
      return std::any_of(argv.begin(), argv.end(), predicate);
    };
    if (argv.empty() || std::filesystem::path(argv[0]).filename() != "adb") continue;
    if (!has([](const std::string& arg) { return arg == "fork-server"; })) continue;
    if (!has([&](const std::string& arg) {
          return arg.starts_with("tcp:") && arg.ends_with(spec_suffix);
        })) {
      continue;
    }
    pids.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return pids;
}

// A private adb server, killed on every exit path (RAII), with the environment restored.
class PrivateAdb {
 public:
  PrivateAdb() : runner_(make_system_runner()) {
    static int attempt = 0;
    const int base = 15037 + static_cast<int>(getpid() % 1000) * 7;
    // adb scans 5555.. for emulators at start: keep it off other people's virtual devices.
    save_and_set("ADB_LOCAL_TRANSPORT_MAX_PORT", "5553");
    // start-server exits 0 without a word when another test's server already answers on the
    // port (two processes may pick the same free one): only "daemon started successfully"
    // makes the server ours, as in src/vdevice/farm.cpp.
    save_and_set("ANDROID_ADB_SERVER_PORT", "");
    int starts = 0;
    for (int i = 0; i < 200 && !started_ && starts < 5; ++i) {
      const auto candidate = static_cast<std::uint16_t>(base + (attempt++ % 500));
      if (!port_free(candidate)) continue;
      port_ = candidate;
      setenv("ANDROID_ADB_SERVER_PORT", std::to_string(port_).c_str(), 1);
      const Completion started = run({"start-server"});
      ++starts;
      start_output_ = started.out + started.err;
      started_ = started.status == Completion::Status::Exited && started.exit_code == 0 &&
                 start_output_.find("daemon started successfully") != std::string::npos;
    }
  }
  ~PrivateAdb() {
    (void)stop();
    for (const auto& [name, value] : saved_env_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }
  PrivateAdb(const PrivateAdb&) = delete;
  PrivateAdb& operator=(const PrivateAdb&) = delete;

  bool started() const { return started_; }
  const std::string& start_output() const { return start_output_; }
  std::uint16_t port() const { return port_; }

  Completion run(std::vector<std::string> args, std::chrono::milliseconds timeout = 15000ms) {
    return runner_->run({.argv = argv(std::move(args)), .timeout = timeout});
  }
  std::unique_ptr<Stream> start(std::vector<std::string> args) {
    Started started = runner_->start(argv(std::move(args)));
    return started ? std::move(*started) : nullptr;
  }

  // kill-server, then make sure: true when no server of ours is left.
  bool stop() {
    // A server this did not start is another test's: never stop it.
    if (stopped_ || !started_) return true;
    stopped_ = true;
    (void)run({"kill-server"}, 5000ms);
    if (eventually([&] { return adb_server_pids(port_).empty(); }, 3000ms)) return true;
    for (const pid_t pid : adb_server_pids(port_)) ::kill(pid, SIGKILL);
    (void)eventually([&] { return adb_server_pids(port_).empty(); }, 2000ms);
    return false;
  }

 private:
  std::vector<std::string> argv(std::vector<std::string> args) const {
    std::vector<std::string> full{"adb", "-P", std::to_string(port_)};
    full.insert(full.end(), args.begin(), args.end());
    return full;
  }
  void save_and_set(const std::string& name, const std::string& value) {
    const char* old = std::getenv(name.c_str());
    saved_env_.emplace_back(name, old != nullptr ? std::optional<std::string>(old) : std::nullopt);
    setenv(name.c_str(), value.c_str(), 1);
  }

  std::unique_ptr<Runner> runner_;
  std::uint16_t port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
  std::string start_output_;
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_env_;
};

std::string describe(const Completion& c) {
  return "status " + std::string(clawperator::process::to_string(c.status)) + " rc " +
         std::to_string(c.exit_code) + "\nstdout: " + c.out.substr(0, 400) +
         "\nstderr: " + c.err.substr(0, 400);
}

// The line `adb devices -l` prints for `serial`, if any.
std::string devices_line(PrivateAdb& adb, const std::string& serial) {
  const Completion c = adb.run({"devices", "-l"});
  std::stringstream lines(c.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(serial + " ") || line.starts_with(serial + "\t")) return line;
  }
  return {};
}

// Reads a streaming client until its stdout holds `count` lines.
std::string read_lines(Stream& stream, int count, std::chrono::milliseconds limit = 5000ms) {
  std::string out;
  const Clock::time_point deadline = Clock::now() + limit;
  while (std::count(out.begin(), out.end(), '\n') < count && Clock::now() < deadline) {
    const auto event = stream.wait(100ms);
    out += event.out;
    if (event.exited) break;
  }
  return out;
}

#define REQUIRE_ADB()                                                   \
  if (!adb_installed()) {                                               \
    SKIP_TEST("adb is not installed");                                  \
  }                                                                     \
  PrivateAdb adb;                                                       \
  INFO("adb server port " << adb.port() << ": " << adb.start_output()); \
  REQUIRE(adb.started())

void connect(PrivateAdb& adb, const ServerThread& server) {
  const Completion c = adb.run({"connect", server.serial()});
  INFO(describe(c));
  // adb connect exits 0 whatever happened: only its stdout tells.
  REQUIRE(c.out.find("connected to " + server.serial()) != std::string::npos);
}

}  // namespace

TEST_CASE("real adb: connect, devices -l and shell v2 commands",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device;
  ServerThread server(device);
  REQUIRE_ADB();
  connect(adb, server);
  const std::string serial = server.serial();

  const std::string line = devices_line(adb, serial);
  INFO(line);
  CHECK(std::regex_search(line, std::regex("^127\\.0\\.0\\.1:[0-9]+ +device product:vpixel "
                                           "model:Virtual_Pixel device:vpixel_x86 "
                                           "transport_id:[0-9]+$")));

  Completion c = adb.run({"-s", serial, "shell", "echo", "hi"});
  INFO(describe(c));
  CHECK(c.status == Completion::Status::Exited);
  CHECK(c.exit_code == 0);
  CHECK(c.out == "hi\n");
  CHECK(c.err.empty());

  c = adb.run({"-s", serial, "shell", "false"});
  CHECK(c.exit_code == 1);
  CHECK(c.out.empty());

  // adb joins its arguments with spaces; the device's sh gets the text unquoted.
  c = adb.run({"-s", serial, "shell", "echo out; echo err >&2; exit 3"});
  CHECK(c.exit_code == 3);
  CHECK(c.out == "out\n");
  CHECK(c.err == "err\n");

  c = adb.run({"-s", serial, "shell", "frobnicate"});
  CHECK(c.exit_code == 127);
  CHECK(c.err == "/system/bin/sh: frobnicate: not found\n");

  c = adb.run({"-s", serial, "shell", "bigout"});
  CHECK(c.exit_code == 0);
  CHECK(c.out.size() == kBigOutputSize);
  CHECK(c.out == big_output());

  c = adb.run({"-s", serial, "exec-out", "blob"});
  CHECK(c.exit_code == 0);
  CHECK(c.out == binary_blob());

  c = adb.run({"-s", serial, "get-state"});
  CHECK(c.out == "device\n");

  const std::vector<std::string> seen = device.commands();
  CHECK(std::find(seen.begin(), seen.end(), "shell:echo hi") != seen.end());
  CHECK(std::find(seen.begin(), seen.end(), "exec:blob") != seen.end());
  CHECK(adb.stop());
}

TEST_CASE("real adb: concurrent streams, and a closed client ends its session",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device;
  ServerThread server(device);
  REQUIRE_ADB();
  connect(adb, server);
  const std::string serial = server.serial();

  std::vector<std::unique_ptr<Stream>> clients;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(adb.start({"-s", serial, "shell", "stream"}));
    REQUIRE(clients.back());
  }
  for (auto& client : clients) {
    const std::string out = read_lines(*client, 3);
    CHECK(out.starts_with("tick 0\ntick 1\ntick 2\n"));
  }
  // Another command while three streams are live.
  const Completion c = adb.run({"-s", serial, "shell", "echo", "hi"});
  CHECK(c.out == "hi\n");
  CHECK(device.live_sessions() == 3);

  for (auto& client : clients) client->terminate();
  CHECK(eventually([&] { return device.host_closes() == 3; }));
  CHECK(eventually([&] { return device.live_sessions() == 0; }));
  CHECK(adb.stop());
}

TEST_CASE("real adb: a device without shell_v2 gets raw shells",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device("cmd");
  ServerThread server(device);
  REQUIRE_ADB();
  connect(adb, server);
  const std::string serial = server.serial();

  Completion c = adb.run({"-s", serial, "shell", "false"});
  INFO(describe(c));
  CHECK(c.exit_code == 0);  // no exit code without shell_v2
  c = adb.run({"-s", serial, "shell", "echo out; echo err >&2; exit 3"});
  CHECK(c.exit_code == 0);
  CHECK(c.out == "out\nerr\n");
  CHECK(c.err.empty());
  c = adb.run({"-s", serial, "shell", "bigout"});
  CHECK(c.out == big_output());
  CHECK(adb.stop());
}

TEST_CASE("real adb: an unauthorized device is listed unauthorized",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device("shell_v2,cmd", ConnectionMode::Unauthorized);
  ServerThread server(device);
  REQUIRE_ADB();
  const std::string serial = server.serial();
  Completion c = adb.run({"connect", serial});
  INFO(describe(c));
  CHECK(c.out.find("failed to authenticate to " + serial) != std::string::npos);
  CHECK(std::regex_search(devices_line(adb, serial),
                          std::regex("^127\\.0\\.0\\.1:[0-9]+ +unauthorized transport_id:")));
  c = adb.run({"-s", serial, "shell", "echo", "hi"});
  CHECK(c.exit_code == 1);
  CHECK(c.err.starts_with("error: device unauthorized."));
  CHECK(device.commands().empty());
  CHECK(adb.stop());
}

TEST_CASE("real adb: an offline device never becomes a device",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device("shell_v2,cmd", ConnectionMode::Offline);
  ServerThread server(device);
  REQUIRE_ADB();
  const std::string serial = server.serial();
  // adb connect waits ~10 s for a CNXN that never comes: watch the listing meanwhile.
  std::unique_ptr<Stream> connecting = adb.start({"connect", serial});
  REQUIRE(connecting);
  std::string line;
  CHECK(eventually([&] {
    line = devices_line(adb, serial);
    return !line.empty();
  }));
  // adb redials a device that hangs up after CNXN several times a second.
  CHECK(eventually([&] { return device.mode_queries() >= 3; }));
  line = devices_line(adb, serial);
  INFO(line);
  CHECK(std::regex_search(line, std::regex("^127\\.0\\.0\\.1:[0-9]+ +offline transport_id:")));
  const Completion c = adb.run({"-s", serial, "shell", "echo", "hi"});
  CHECK(c.exit_code == 1);
  CHECK(c.err == "error: device offline\n");
  connecting->terminate();
  CHECK(device.commands().empty());
  CHECK(adb.stop());
}

TEST_CASE("real adb: dropped connections end the running commands",
          "[vdevice][adb][real-adb][may-skip]") {
  TestDevice device;
  ServerThread server(device);
  REQUIRE_ADB();
  connect(adb, server);
  const std::string serial = server.serial();
  std::unique_ptr<Stream> client = adb.start({"-s", serial, "shell", "stream"});
  REQUIRE(client);
  CHECK(read_lines(*client, 2).starts_with("tick 0\ntick 1\n"));
  device.request_drop();
  // The client sees its stream end (rc 0, like a real TCP drop) and the session is told.
  bool exited = false;
  const Clock::time_point deadline = Clock::now() + 5s;
  while (!exited && Clock::now() < deadline) exited = client->wait(100ms).exited;
  CHECK(exited);
  CHECK(eventually([&] { return device.host_closes() == 1; }));
  CHECK(eventually([&] { return device.live_sessions() == 0; }));
  CHECK(adb.stop());
}

// Not for the file after this one in a unity batch (cmake/ClawperatorUnity.cmake).
#undef REQUIRE_ADB
