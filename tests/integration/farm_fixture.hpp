// The integration fixture: virtual devices behind a private adb server, and the
// real clawperator binary and adb run against them. Shared by every integration
// test file; each test builds its own Farm and tears it down.
#pragma once

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cli_expectations.hpp"
#include "proc_files.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"
#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/farm.hpp"
#include "wait_until.hpp"

namespace clawperator::testing {

using nlohmann::json;
namespace vdevice = clawperator::vdevice;

inline const std::string kBinary = CLAWPERATOR_BINARY;
inline const std::string kScenarios = CLAWPERATOR_SCENARIOS_DIR;

// Actions the cases send: a snapshot, read-only, and opening Settings, which is not (its retry
// follows the delivery: safe only when not delivered).
inline const json kSnapshot = {{"id", "snap"}, {"type", "snapshot"}};
inline const json kOpenSettings = {
    {"id", "open"}, {"type", "open_app"}, {"params", {{"applicationId", "com.android.settings"}}}};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline vdevice::android::Scenario scenario(const std::string& name) {
  if (name == "default") return vdevice::android::default_scenario();
  auto loaded = vdevice::android::load_scenario_file(kScenarios + "/" + name + ".json");
  INFO(name << ": " << (loaded ? "" : loaded.error().text()));
  REQUIRE(loaded);
  return std::move(loaded).value();
}

// Processes whose command line mentions `needle` (e.g. an adb server's port, a serial) not
// followed by a digit: cases run side by side (ctest -j), and another case's serial
// 127.0.0.1:41234 must not count as a mention of 127.0.0.1:4123.
inline int processes_mentioning(const std::string& needle) {
  int count = 0;
  for (const pid_t pid : clawperator::testing::all_pids()) {
    std::string cmdline =
        clawperator::testing::read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    for (auto at = cmdline.find(needle); at != std::string::npos;
         at = cmdline.find(needle, at + 1)) {
      const std::size_t end = at + needle.size();
      if (end == cmdline.size() || std::isdigit(static_cast<unsigned char>(cmdline[end])) == 0) {
        ++count;
        break;
      }
    }
  }
  return count;
}

// The processes whose parent is `parent` now, with their command lines (NUL bytes as spaces).
inline std::vector<std::pair<pid_t, std::string>> children_of(pid_t parent) {
  std::vector<std::pair<pid_t, std::string>> children;
  const std::string wanted = std::to_string(parent);
  for (const pid_t pid : clawperator::testing::all_pids()) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::string stat = clawperator::testing::read_proc_file(proc + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    std::string state;
    std::string ppid;
    fields >> state >> ppid;
    if (ppid != wanted) continue;
    std::string cmdline = clawperator::testing::read_proc_file(proc + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    children.emplace_back(pid, std::move(cmdline));
  }
  return children;
}

inline int children_of_this_process() {
  return static_cast<int>(children_of(::getpid()).size());
}

inline std::vector<vdevice::android::Scenario> scenarios_named(
    const std::vector<std::string>& names) {
  std::vector<vdevice::android::Scenario> out;
  for (const std::string& name : names) out.push_back(scenario(name));
  return out;
}

class Farm {
 public:
  // Scenarios built in code rather than named (a tag keeps {"name"} unambiguous).
  struct Built {
    std::vector<vdevice::android::Scenario> scenarios;
  };
  explicit Farm(const std::vector<std::string>& scenario_names)
      : Farm(Built{scenarios_named(scenario_names)}) {}
  explicit Farm(Built built) {
    vdevice::VirtualDeviceFarm::Options options;
    options.scenarios = std::move(built.scenarios);
    auto started = vdevice::VirtualDeviceFarm::start(std::move(options));
    INFO((started ? std::string() : started.error().text()));
    REQUIRE(started);
    farm_ = std::move(started).value();
  }
  ~Farm() {
    const std::string port_marker = "tcp:" + std::to_string(farm_->adb_server_port());
    farm_.reset();
    // Nothing of ours may outlive the farm: no adb server, no child process. A server that
    // closed its port may need a moment to finish exiting; one that stays is a leak.
    for (int attempt = 0; attempt < 150 && processes_mentioning(port_marker) != 0; ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(processes_mentioning(port_marker) == 0);
    CHECK(children_of_this_process() == 0);
  }
  Farm(const Farm&) = delete;
  Farm& operator=(const Farm&) = delete;

  const std::vector<std::string>& serials() const { return farm_->serials(); }
  vdevice::VirtualDeviceFarm& farm() { return *farm_; }
  int adb_server_port() const { return farm_->adb_server_port(); }
  std::string state_dir() const { return dir_ + "/state"; }
  // The name of `serial`'s execution lock file in the state directory, spelt out as
  // docs/wire-protocol.md §4.3 gives it (adb::device_key: this host's server is "loopback"
  // however a run names it; each part %-escaped, "+" between them), so that a test that finds
  // the file finds it by the documented name.
  std::string lock_file_name(const std::string& serial) const {
    const auto escape = [](const std::string& text) {
      std::string out;
      for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_') {
          out += c;
        } else {
          char hex[4];
          std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
          out += hex;
        }
      }
      return out;
    };
    return "device-" + escape("tcp:loopback:" + std::to_string(adb_server_port())) + "+" +
           escape(serial) + ".lock";
  }

  RunOptions environment() const {
    RunOptions options;
    options.extra_env = {{"ANDROID_ADB_SERVER_PORT", std::to_string(farm_->adb_server_port())},
                         {"CLAWPERATOR_STATE_DIR", state_dir()},
                         {"CLAWPERATOR_LOG_DIR", log_dir()},
                         {"ANDROID_SERIAL", ""}};
    for (const auto& [name, value] : extra_env_) options.extra_env[name] = value;
    return options;
  }
  // Set for every later run of the binary.
  void set_env(const std::string& name, const std::string& value) { extra_env_[name] = value; }
  std::string log_dir() const { return dir_ + "/logs"; }
  // The events named `name` in the log files of every run so far, in order within each file.
  std::vector<json> logged_events(std::string_view name) const {
    std::vector<json> events;
    if (!std::filesystem::exists(log_dir())) return events;
    for (const auto& file : std::filesystem::directory_iterator(log_dir())) {
      std::ifstream in(file.path());
      for (std::string line; std::getline(in, line);) {
        const json event = json::parse(line, nullptr, false);
        if (!event.is_discarded() && event.value("event", "") == name) events.push_back(event);
      }
    }
    return events;
  }
  // How many `name` events the runs logged whose line holds `text` (a taskId, an argument of
  // an adb call; "adb.command" needs CLAWPERATOR_LOG_LEVEL=debug).
  std::size_t logged_count(std::string_view name, std::string_view text) const {
    std::size_t count = 0;
    for (const json& event : logged_events(name)) {
      if (event.dump().find(text) != std::string::npos) ++count;
    }
    return count;
  }
  // Whether a run logged `name` for the execution `command_id` (e.g. "broadcast.dispatched":
  // the execution is in its result wait).
  bool logged_for(std::string_view name, const std::string& command_id) const {
    for (const json& event : logged_events(name)) {
      if (event.value("commandId", "") == command_id) return true;
    }
    return false;
  }
  // The holder's record in `serial`'s execution lock file ({"pid", "commandId"}), while an
  // execution holds the device; nullopt when there is none (docs/wire-protocol.md §4.3).
  std::optional<json> lock_holder(const std::string& serial) const {
    const json record =
        json::parse(read_file(state_dir() + "/" + lock_file_name(serial)), nullptr, false);
    if (!record.is_object() || !record.contains("commandId")) return std::nullopt;
    return record;
  }
  bool held_by(const std::string& serial, const std::string& command_id) const {
    const std::optional<json> holder = lock_holder(serial);
    return holder && (*holder)["commandId"] == command_id;
  }
  RunResult clawperator(const std::vector<std::string>& args) const {
    return run_binary(kBinary, args, environment());
  }
  RunResult adb(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {"-P", std::to_string(farm_->adb_server_port())};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_binary(farm_->adb(), argv);
  }
  // exec of `actions` (a JSON array) on the first device.
  RunResult exec(const json& actions, const std::vector<std::string>& extra = {},
                 int timeout_ms = 30000) const {
    const int number = ++counter_;  // tests run execs from several threads
    json payload = {{"commandId", "it-" + std::to_string(number)},
                    {"taskId", "it"},
                    {"source", "integration"},
                    {"expectedFormat", "android-ui-automator"},
                    {"timeoutMs", timeout_ms},
                    {"actions", actions}};
    const std::string path = dir_ + "/payload-" + std::to_string(number) + ".json";
    std::ofstream(path) << payload.dump();
    std::vector<std::string> args = {"exec", path, "--device", serials().front()};
    args.insert(args.end(), extra.begin(), extra.end());
    return clawperator(args);
  }

 private:
  std::unique_ptr<vdevice::VirtualDeviceFarm> farm_;
  // The state, log and payload files of the run (golden_test.cpp masks its name).
  TemporaryDirectory directory_{"it"};
  std::string dir_ = directory_.path().string();
  std::map<std::string, std::string> extra_env_;
  mutable std::atomic<int> counter_{0};
};

}  // namespace clawperator::testing
