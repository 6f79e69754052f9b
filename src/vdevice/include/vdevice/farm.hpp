// Virtual devices connected to a private adb server: what the integration
// tests, the demo and `clawperator-vdevice with` use. Each device serves on its
// own loop thread; the adb server runs on a port nobody else uses, so a
// developer's own adb and devices are never touched. Everything is torn down
// by the destructor (adb kill-server, loops stopped, threads joined).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"
#include "vdevice/adb/server.hpp"
#include "vdevice/android/scenario/scenario.hpp"

namespace clawperator::vdevice {

class VirtualDeviceFarm {
 public:
  struct Options {
    std::vector<android::Scenario> scenarios;  // one device each
    std::string adb = "adb";
    std::uint16_t adb_server_port = 0;  // 0: a free one
  };

  // The farm, its devices listed by its adb server; or what failed (no path).
  static Expected<std::unique_ptr<VirtualDeviceFarm>, Problem> start(Options options);
  ~VirtualDeviceFarm();
  VirtualDeviceFarm(const VirtualDeviceFarm&) = delete;
  VirtualDeviceFarm& operator=(const VirtualDeviceFarm&) = delete;

  std::uint16_t adb_server_port() const { return adb_server_port_; }
  const std::string& adb() const { return adb_; }
  // "127.0.0.1:PORT", in the order of the scenarios.
  const std::vector<std::string>& serials() const { return serials_; }
  adb::AdbDeviceServer& server(std::size_t index) { return *devices_[index]->server; }

 private:
  struct Running {
    std::unique_ptr<Device> device;
    std::unique_ptr<adb::AdbDeviceServer> server;
    std::thread loop;
  };

  VirtualDeviceFarm() = default;
  // Runs adb against the private server; returns stdout+stderr, sets exit_code.
  std::string run_adb(const std::vector<std::string>& args, int& exit_code) const;
  void stop();

  std::string adb_;
  std::uint16_t adb_server_port_ = 0;
  std::atomic<bool> stopping_{false};
  std::vector<std::unique_ptr<Running>> devices_;
  std::vector<std::string> serials_;
  bool adb_server_started_ = false;
};

// A TCP port free on 127.0.0.1 at the moment of asking.
std::uint16_t free_local_port();

}  // namespace clawperator::vdevice
