// Drives a simulated device the way the adb transport does: sessions write into recording
// outputs, and a fake clock advances through tick().
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/json.hpp"
#include "clawperator/transport/result_stream.hpp"
#include "test_locations.hpp"
#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/simulated_device.hpp"
#include "vdevice/android/ui/ui_model.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android::test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A step's data value as text, "<absent>" when the step has none: a readable CHECK either way.
inline std::string data(const transport::StepResult& result, const std::string& key) {
  const std::string* value = result.data_value(key);
  return value != nullptr ? *value : "<absent>";
}

// Where the tests that drive a UiModel directly start its clock: any steady time does.
inline const SteadyTime kUiModelStart = SteadyTime(std::chrono::hours(2));

class RecordingOutput : public ServiceOutput {
 public:
  void write_stdout(std::string_view bytes) override {
    if (exit_code) misuse = true;
    out.append(bytes);
  }
  void write_stderr(std::string_view bytes) override {
    if (exit_code) misuse = true;
    err.append(bytes);
  }
  void exit(int code) override {
    if (exit_code) misuse = true;
    exit_code = code;
  }

  std::string out;
  std::string err;
  std::optional<int> exit_code;
  bool misuse = false;  // written to after exit()
};

// The transport side of the connection faults: records drops and closes the open streams.
class FakeTransport : public TransportControl {
 public:
  void drop_all_connections() override {
    ++drops;
    for (ServiceSession* session : open_sessions) session->on_host_close();
    open_sessions.clear();
  }

  int drops = 0;
  std::vector<ServiceSession*> open_sessions;
};

struct Stream {
  std::unique_ptr<RecordingOutput> output = std::make_unique<RecordingOutput>();
  std::unique_ptr<ServiceSession> session;

  bool ended() const { return output->exit_code.has_value(); }
};

struct ShellResult {
  std::string out;
  std::string err;
  int status = -1;
};

// A quiet default scenario: no background noise unless a test asks for it.
inline Scenario quiet_scenario() {
  Scenario scenario = default_scenario();
  scenario.logcat.noise_lines_per_second = 0;
  scenario.logcat.initial_lines = 3;
  return scenario;
}

// One of examples/scenarios/ (its name without .json), quiet as above.
inline Scenario quiet_example_scenario(const std::string& name) {
  auto scenario = load_scenario_file(std::string(CLAWPERATOR_SOURCE_DIR) + "/examples/scenarios/" +
                                     name + ".json");
  if (!scenario) FAIL(scenario.error().text());
  scenario->logcat.noise_lines_per_second = 0;
  scenario->logcat.initial_lines = 3;
  return *scenario;
}

class Harness {
 public:
  explicit Harness(const Scenario& scenario = quiet_scenario()) {
    DeviceOptions options;
    options.start = now;
    // 2024-02-19 12:00:00 UTC
    options.wall_clock_at_start =
        std::chrono::system_clock::time_point(std::chrono::seconds(1708344000));
    device = make_simulated_device(scenario, options);
    device->attach_transport(&transport);
    device->tick(now);
  }

  // `track`: the fake transport closes this stream when a fault drops the connection.
  Stream open(const std::string& command, bool track = false) {
    Stream stream;
    stream.session = device->open_shell(command, *stream.output);
    if (track) transport.open_sessions.push_back(stream.session.get());
    return stream;
  }

  Stream open_exec(const std::string& command) {
    Stream stream;
    stream.session = device->open_exec(command, *stream.output);
    return stream;
  }

  // Runs the device's timers up to `delay` from now, in deadline order.
  void advance(milliseconds delay) {
    const Clock::time_point target = now + delay;
    for (int guard = 0; guard < 10000000; ++guard) {
      const auto deadline = device->next_deadline();
      if (!deadline || *deadline > target) break;
      now = std::max(now, *deadline);
      device->tick(now);
    }
    now = target;
    device->tick(now);
  }

  // Advances until the stream ends (or `limit` passes).
  void finish(Stream& stream, milliseconds limit = milliseconds(60000)) {
    const Clock::time_point until = now + limit;
    while (!stream.ended() && now < until) advance(milliseconds(5));
  }

  ShellResult shell(const std::string& command) {
    Stream stream = open(command, false);
    finish(stream, milliseconds(10000));
    ShellResult result{stream.output->out, stream.output->err,
                       stream.output->exit_code.value_or(-1)};
    CHECK_FALSE(stream.output->misuse);
    return result;
  }

  ShellResult broadcast(const std::string& payload, const std::string& package = kOperatorPackage) {
    return shell(adb::broadcast_command(package, payload));
  }

  Clock::time_point now = Clock::time_point(std::chrono::hours(1));
  FakeTransport transport;
  std::unique_ptr<Device> device;
};

// Reads results the way the CLI does: `logcat -v time -T 1` attached before the broadcast,
// its stdout fed to the CLI's decoder.
class ResultCapture {
 public:
  ResultCapture(Harness& harness, const std::string& command_id, const std::string& task_id,
                const std::string& format = "time")
      : harness_(harness),
        decoder_(command_id, task_id),
        logcat_(harness.open(
            "export ANDROID_LOG_TAGS=\"''\"; exec logcat '-v' '" + format + "' '-T' '1'", true)) {
    harness_.advance(milliseconds(1));
    pump();
    decoder_.begin_capture();
  }

  ~ResultCapture() {
    auto& sessions = harness_.transport.open_sessions;
    sessions.erase(std::remove(sessions.begin(), sessions.end(), logcat_.session.get()),
                   sessions.end());
  }
  ResultCapture(const ResultCapture&) = delete;
  ResultCapture& operator=(const ResultCapture&) = delete;

  void pump() {
    const std::string& out = logcat_.output->out;
    decoder_.feed(std::string_view(out).substr(fed_));
    fed_ = out.size();
  }

  // Advances the clock until the decoder settles or `limit` passes.
  const transport::ResultStatus& wait(milliseconds limit = milliseconds(30000)) {
    const Clock::time_point until = harness_.now + limit;
    while (!decoder_.settled() && harness_.now < until) {
      harness_.advance(milliseconds(10));
      pump();
      if (logcat_.ended()) break;
    }
    pump();
    return decoder_.status();
  }

  const transport::CompleteResult& complete(milliseconds limit = milliseconds(30000)) {
    const auto& status = wait(limit);
    const auto* complete = std::get_if<transport::CompleteResult>(&status);
    if (complete == nullptr) {
      if (const auto* malformed = std::get_if<transport::MalformedResult>(&status)) {
        FAIL("malformed result: " << malformed->reason);
      }
      FAIL("no result; logcat stdout tail: " << logcat_.output->out.substr(
               logcat_.output->out.size() > 2000 ? logcat_.output->out.size() - 2000 : 0));
    }
    return *complete;
  }

  transport::ResultStreamDecoder& decoder() { return decoder_; }
  Stream& logcat() { return logcat_; }

 private:
  Harness& harness_;
  transport::ResultStreamDecoder decoder_;
  Stream logcat_;
  std::size_t fed_ = 0;
};

inline std::string payload(const std::string& command_id, const Json& actions,
                           int timeout_ms = 30000) {
  Json document = Json::object();
  document["commandId"] = command_id;
  document["taskId"] = command_id;
  document["source"] = "unit-test";
  document["expectedFormat"] = "android-ui-automator";
  document["timeoutMs"] = timeout_ms;
  document["actions"] = actions;
  return dump_json(document);
}

inline Json action(const std::string& id, const std::string& type, Json params = nullptr) {
  Json out = Json::object();
  out["id"] = id;
  out["type"] = type;
  if (!params.is_null()) out["params"] = std::move(params);
  return out;
}

}  // namespace clawperator::vdevice::android::test
