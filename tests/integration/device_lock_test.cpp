// One lock per real device (docs/wire-protocol.md §4.3), through the real binary, the real adb
// and a virtual device: the same adb server named three ways (ANDROID_ADB_SERVER_PORT=P,
// --adb-server 127.0.0.1:P, --adb-server localhost:P) is one lock for executions and for video
// recorders, a lock file goes when its execution ends, and the files nobody holds stay bounded.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "farm_fixture.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

// How a run names the farm's adb server.
enum class Spelling { PortVariable, Ipv4, Localhost };

const char* to_string(Spelling spelling) {
  switch (spelling) {
    case Spelling::PortVariable:
      return "ANDROID_ADB_SERVER_PORT=P";
    case Spelling::Ipv4:
      return "--adb-server 127.0.0.1:P";
    case Spelling::Localhost:
      return "--adb-server localhost:P";
  }
  return "";
}

// The binary with `args`, the server named as `spelling` says and in no other way: with the
// flag, ANDROID_ADB_SERVER_PORT is removed (adb would otherwise find the farm's server by it).
RunResult run_as(const Farm& farm, Spelling spelling, std::vector<std::string> args) {
  RunOptions options = farm.environment();
  const std::string port = std::to_string(farm.adb_server_port());
  if (spelling != Spelling::PortVariable) {
    options.extra_env.erase("ANDROID_ADB_SERVER_PORT");
    options.unset_env.push_back("ANDROID_ADB_SERVER_PORT");
    args.insert(args.end(), {"--adb-server",
                             (spelling == Spelling::Ipv4 ? "127.0.0.1:" : "localhost:") + port});
  }
  return run_binary(kBinary, args, options);
}

// `exec` of one sleep of `sleep_ms` on the farm's device, under `command_id`.
RunResult exec_sleep(const Farm& farm, Spelling spelling, const std::string& command_id,
                     int sleep_ms, std::vector<std::string> extra = {}) {
  const json payload = {
      {"commandId", command_id},
      {"taskId", "lock"},
      {"source", "integration"},
      {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", 30000},
      {"actions",
       json::array(
           {{{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", sleep_ms}}}}})}};
  const fs::path path =
      fs::path(farm.log_dir()).parent_path() / ("payload-" + command_id + ".json");
  std::ofstream(path) << payload.dump();
  std::vector<std::string> args = {"exec", path.string(), "--device", farm.serials().front()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_as(farm, spelling, args);
}

std::vector<std::string> lock_files(const Farm& farm) {
  std::vector<std::string> names;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(farm.state_dir(), ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("device-", 0) == 0 && name.size() > 5 &&
        name.compare(name.size() - 5, 5, ".lock") == 0) {
      names.push_back(name);
    }
  }
  return names;
}

// The busy refusal, exactly: code, exit code, disposition, recovery, the lock and its holder.
void expect_conflict(const Farm& farm, const RunResult& result, const std::string& holder) {
  const json refused = expect_error(result, "EXECUTION_CONFLICT_IN_FLIGHT", 3);
  CHECK(refused["details"]["phase"] == "readiness");
  CHECK(refused["details"]["dispatchState"] == "not_dispatched");
  CHECK(refused["recovery"]["strategy"] == "wait_then_retry_original");
  CHECK(refused["recovery"]["retryAfterMs"] == 1000);
  CHECK(refused["details"]["lockWaitMs"] == 0);
  CHECK(refused["details"]["lockPath"] ==
        (fs::path(farm.state_dir()) / farm.lock_file_name(farm.serials().front())).string());
  CHECK(refused["details"]["holder"]["commandId"] == holder);
}

}  // namespace

TEST_CASE("device lock: one adb server named three ways is one lock",
          "[integration][concurrency][lock]") {
  Farm farm({"default"});
  const std::vector<Spelling> spellings = {Spelling::PortVariable, Spelling::Ipv4,
                                           Spelling::Localhost};
  int round = 0;
  for (const Spelling holding : spellings) {
    CAPTURE(to_string(holding));
    const std::string holder = "holder-" + std::to_string(++round);
    RunResult held;
    std::thread first([&] { held = exec_sleep(farm, holding, holder, 2500); });
    // Every other spelling meets the holder's lock (asserted once the holder is joined).
    const bool holding_now =
        wait_until([&] { return farm.held_by(farm.serials().front(), holder); }, 20s);
    std::vector<std::pair<Spelling, RunResult>> refused;
    for (const Spelling other : spellings) {
      if (other == holding || !holding_now) continue;
      refused.emplace_back(other, exec_sleep(farm, other, "refused-" + std::to_string(round), 100));
    }
    first.join();
    REQUIRE(holding_now);
    INFO(held.out);
    CHECK(held.exit_code == 0);
    CHECK(single_document(held)["ok"] == true);
    for (const auto& [other, result] : refused) {
      CAPTURE(to_string(other));
      expect_conflict(farm, result, holder);
    }
  }

  // With --lock-wait the other spelling queues behind the holder instead, and runs after it.
  RunResult results[2];
  Clock::time_point ended[2];
  std::thread first([&] {
    results[0] = exec_sleep(farm, Spelling::PortVariable, "queued-holder", 1500);
    ended[0] = Clock::now();
  });
  if (!wait_until([&] { return farm.held_by(farm.serials().front(), "queued-holder"); }, 20s)) {
    first.join();
    FAIL("the first execution never held the device");
  }
  std::thread second([&] {
    results[1] =
        exec_sleep(farm, Spelling::Localhost, "queued-waiter", 100, {"--lock-wait", "20000"});
    ended[1] = Clock::now();
  });
  first.join();
  second.join();
  CHECK(single_document(results[0])["ok"] == true);
  CHECK(single_document(results[1])["ok"] == true);
  CHECK(ended[1] > ended[0]);
  // Every lock file went with its execution.
  CHECK(lock_files(farm).empty());
}

TEST_CASE("device lock: two video starts through two spellings of one adb server",
          "[integration][evidence][video][lock]") {
  Farm farm({"default"});
  TemporaryDirectory root("evidence");
  farm.set_env("CLAWPERATOR_EVIDENCE_DIR", root.path().string());
  const RunResult started = run_as(farm, Spelling::PortVariable,
                                   {"evidence", "video", "start", "--duration-seconds", "30"});
  INFO(started.out);
  REQUIRE(started.exit_code == 0);
  const json start = single_document(started);
  REQUIRE(start["status"] == "recording");
  const std::string id = start["sessionId"];
  for (const Spelling other : {Spelling::Localhost, Spelling::Ipv4}) {
    CAPTURE(to_string(other));
    const RunResult second =
        run_as(farm, other, {"evidence", "video", "start", "--duration-seconds", "2"});
    const json busy = expect_error(second, "EVIDENCE_RECORDING_ACTIVE", 3);
    CHECK(busy["details"]["sessionId"] == id);
    CHECK(busy["details"]["deviceId"] == farm.serials().front());
  }
  // Stopped through another spelling: the session finds its lock by the name it started with.
  const RunResult stopped = run_as(farm, Spelling::Ipv4, {"evidence", "video", "stop", id});
  INFO(stopped.out);
  CHECK(stopped.exit_code == 0);
  CHECK(single_document(stopped)["status"] == "complete");
  // And the device records again, through the spelling that was refused.
  const RunResult again =
      run_as(farm, Spelling::Localhost, {"evidence", "video", "start", "--duration-seconds", "1"});
  INFO(again.out);
  CHECK(again.exit_code == 0);
  const json next = single_document(again);
  const std::string next_id = next.value("sessionId", "");
  REQUIRE_FALSE(next_id.empty());
  for (int attempt = 0; attempt < 150; ++attempt) {
    const json status = single_document(farm.clawperator({"evidence", "video", "status", next_id}));
    if (status.value("status", "") == "complete") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  CHECK(single_document(farm.clawperator({"evidence", "video", "status", next_id}))["status"] ==
        "complete");
}

TEST_CASE("device lock: a lock file goes with its execution, and idle ones stay bounded",
          "[integration][lock][state-dir]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const fs::path state = farm.state_dir();
  REQUIRE(farm.exec(json::array({kSnapshot})).exit_code == 0);
  CHECK(lock_files(farm).empty());
  // The readiness record is named by the same key (docs/wire-protocol.md §4.4).
  CHECK(fs::is_regular_file(state / ("ready-" + farm.lock_file_name(serial))));

  // Serials nobody has: each run made a lock file, and none is left.
  for (int n = 0; n < 8; ++n) {
    const RunResult missing =
        farm.clawperator({"snapshot", "--device", "gone-" + std::to_string(n)});
    CHECK(single_document(missing)["code"] == "DEVICE_NOT_FOUND");
    CHECK(missing.exit_code == 3);
  }
  CHECK(lock_files(farm).empty());

  // A run killed while it holds the device leaves its file, unlocked; the next run on the
  // device takes that file and removes it.
  RunOptions killing = farm.environment();
  killing.signal = SIGKILL;
  // Killed once its sleep is on the device (it holds the device from before that).
  killing.signal_when = [&](const std::string&) {
    return farm.logged_for("broadcast.dispatched", "killed");
  };
  killing.signal_after_ms = 30000;
  const json slow = {
      {"commandId", "killed"},
      {"taskId", "lock"},
      {"source", "integration"},
      {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", 30000},
      {"actions",
       json::array({{{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 5000}}}}})}};
  const fs::path payload = state.parent_path() / "killed.json";
  std::ofstream(payload) << slow.dump();
  const RunResult killed =
      run_binary(kBinary, {"exec", payload.string(), "--device", serial}, killing);
  CHECK(killed.signal == SIGKILL);
  CHECK(lock_files(farm) == std::vector<std::string>{farm.lock_file_name(serial)});
  REQUIRE(farm.exec(json::array({kSnapshot})).exit_code == 0);
  CHECK(lock_files(farm).empty());

  // Files killed runs left for devices never used again: up to 32 may stay ...
  const auto leave = [&](int from, int to) {
    for (int n = from; n < to; ++n) {
      std::ofstream(state / ("device-left-" + std::to_string(n) + ".lock"))
          << R"({"pid":1,"commandId":"killed"})";
    }
  };
  leave(0, 20);
  REQUIRE(farm.exec(json::array({kSnapshot})).exit_code == 0);
  CHECK(lock_files(farm).size() == 20);
  // ... beyond that, a release removes every one nobody holds.
  leave(20, 60);
  REQUIRE(farm.exec(json::array({kSnapshot})).exit_code == 0);
  CHECK(lock_files(farm).empty());
}
