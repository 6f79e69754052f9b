#include "vdevice/farm.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/adb/device_list.hpp"
#include "clawperator/process/runner.hpp"
#include "vdevice/android/simulated_device.hpp"

namespace clawperator::vdevice {
namespace {

using namespace std::chrono_literals;

constexpr auto kConnectDeadline = 15s;

std::string expected_state(const android::Scenario& scenario) {
  if (scenario.faults.unauthorized) return "unauthorized";
  if (scenario.faults.offline) return "offline";
  return "device";
}

// True while something accepts connections on 127.0.0.1:port.
bool port_accepts(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  const bool accepted = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return accepted;
}

// The adb servers serving `port`, found by their command line
// ("adb -L tcp:PORT fork-server server …"): they are daemons, not our children.
std::vector<pid_t> adb_servers_on(std::uint16_t port) {
  std::vector<pid_t> servers;
  const std::string marker = "tcp:" + std::to_string(port);
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return servers;
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    const std::string path = "/proc/" + std::string(entry->d_name) + "/cmdline";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buffer[4096];
    const ssize_t got = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (got <= 0) continue;
    std::string cmdline(buffer, static_cast<std::size_t>(got));
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    // "tcp:4123" must not match a server on tcp:41234.
    if (cmdline.find(marker + " ") != std::string::npos &&
        cmdline.find("fork-server") != std::string::npos) {
      servers.push_back(static_cast<pid_t>(pid));
    }
  }
  ::closedir(proc);
  return servers;
}

}  // namespace

std::uint16_t free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  std::uint16_t port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

std::string VirtualDeviceFarm::run_adb(const std::vector<std::string>& args, int& exit_code) const {
  std::vector<std::string> argv = {adb_, "-P", std::to_string(adb_server_port_)};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto runner = process::make_system_runner();
  const process::Completion completion = runner->run({argv, 20s});
  exit_code = completion.status == process::Completion::Status::Exited ? completion.exit_code : -1;
  return completion.out + completion.err;
}

Expected<std::unique_ptr<VirtualDeviceFarm>, Problem> VirtualDeviceFarm::start(Options options) {
  const auto failure = [](std::string message) {
    return Unexpected(Problem{"", std::move(message)});
  };
  std::unique_ptr<VirtualDeviceFarm> farm(new VirtualDeviceFarm());
  farm->adb_ = options.adb;
  for (const android::Scenario& scenario : options.scenarios) {
    auto running = std::make_unique<Running>();
    running->device = android::make_simulated_device(scenario);
    try {
      running->server = std::make_unique<adb::AdbDeviceServer>(*running->device, "127.0.0.1", 0);
    } catch (const std::exception& error) {
      return failure(std::string("cannot listen: ") + error.what());
    }
    Running* raw = running.get();
    running->loop =
        std::thread([raw, farm_ptr = farm.get()] { raw->server->run(farm_ptr->stopping_); });
    farm->serials_.push_back("127.0.0.1:" + std::to_string(running->server->port()));
    farm->devices_.push_back(std::move(running));
  }

  // The adb server's port is chosen after the devices listen: a free port is only free until
  // someone binds it, and a device's listener on it made adb's start-server talk to that device
  // ("protocol fault"). Another process may still take it in between, so a chosen port that
  // fails is chosen again, a few times. The adb server scans 5555-5585 for emulators: ephemeral
  // ports stay clear of that.
  //
  // start-server also exits 0, silently, when a server already answers on the port: that is
  // another farm's (two farms starting side by side were handed the same free port), and
  // sharing it lost this farm's devices when the other farm's stop killed it (a CI run:
  // DEVICE_NOT_FOUND right after the devices were listed). Only a start that says it started
  // the daemon makes the server ours; a port given in the options is never shared either.
  const bool port_given = options.adb_server_port != 0;
  int exit_code = 0;
  std::string started;
  bool ours = false;
  for (int attempt = 0; attempt < 6 && !ours; ++attempt) {
    farm->adb_server_port_ = port_given ? options.adb_server_port : free_local_port();
    if (farm->adb_server_port_ == 0) return failure("no free port");
    const bool taken = port_accepts(farm->adb_server_port_);
    if (taken && port_given) {
      return failure("something already listens on port " + std::to_string(farm->adb_server_port_) +
                     ": a farm starts its own adb server");
    }
    if (taken) continue;
    started = farm->run_adb({"start-server"}, exit_code);
    ours = exit_code == 0 && started.find("daemon started successfully") != std::string::npos;
    if (port_given) break;
  }
  if (!ours) {
    return failure("adb start-server failed: " + started);
  }
  farm->adb_server_started_ = true;
  for (const std::string& serial : farm->serials_) {
    const std::string said = farm->run_adb({"connect", serial}, exit_code);
    // adb connect exits 0 even when it fails: an unauthorized or offline device
    // is still listed, which is what the wait below checks.
    (void)said;
  }

  const auto deadline = std::chrono::steady_clock::now() + kConnectDeadline;
  while (true) {
    const std::string listing = farm->run_adb({"devices"}, exit_code);
    const auto entries = clawperator::adb::parse_device_list(listing);
    std::size_t ready = 0;
    for (std::size_t i = 0; i < farm->serials_.size(); ++i) {
      for (const auto& entry : entries) {
        if (entry.serial == farm->serials_[i] &&
            entry.state == expected_state(options.scenarios[i])) {
          ++ready;
        }
      }
    }
    if (ready == farm->serials_.size()) break;
    if (std::chrono::steady_clock::now() > deadline) {
      return failure("devices did not come up; adb devices said: " + listing);
    }
    std::this_thread::sleep_for(50ms);
  }
  return farm;
}

void VirtualDeviceFarm::stop() {
  if (adb_server_started_) {
    int exit_code = 0;
    run_adb({"kill-server"}, exit_code);
    adb_server_started_ = false;
    // kill-server returns before the server has exited: wait for it (bounded), so that
    // nothing of ours is still running once the farm is gone.
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while ((port_accepts(adb_server_port_) || !adb_servers_on(adb_server_port_).empty()) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(20ms);
    }
    // A server busy redialling a device that vanished has been seen to ignore kill-server.
    for (const pid_t server : adb_servers_on(adb_server_port_)) ::kill(server, SIGKILL);
  }
  stopping_ = true;
  for (auto& running : devices_) {
    if (running->loop.joinable()) running->loop.join();
  }
  devices_.clear();
}

VirtualDeviceFarm::~VirtualDeviceFarm() {
  stop();
}

}  // namespace clawperator::vdevice
