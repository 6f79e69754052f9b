// The scenario's forger: an app that logs success envelopes under the Operator's result tag.
// What tells its lines from the Operator's is the uid logcat -v uid shows.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "vdevice/android/operator/result_forger.hpp"
#include "vdevice/android/shell/shell_session.hpp"
#include "vdevice/android/system/android_system.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const std::string kForger = "com.example.forger";

// The uid `pm list packages -U PACKAGE` gives.
std::string listed_uid(Harness& harness, const std::string& package) {
  const std::string listed = harness.shell("pm list packages -U " + package).out;
  REQUIRE(listed.starts_with("package:" + package + " uid:"));
  return listed.substr(listed.find(" uid:") + 5, listed.size() - listed.find(" uid:") - 6);
}

// The `(uid:  pid)` logcat -v brief -v uid prints for a writer.
std::string writer(const std::string& uid, int pid) {
  char text[32];
  std::snprintf(text, sizeof text, "(%5s:%5d)", uid.c_str(), pid);
  return text;
}

// Where in `log` the line beginning with `prefix` starts; npos when none does.
std::size_t line_at(const std::string& log, const std::string& prefix) {
  if (log.starts_with(prefix)) return 0;
  const std::size_t at = log.find("\n" + prefix);
  return at == std::string::npos ? at : at + 1;
}

}  // namespace

TEST_CASE("the forger logs a forged success before the Operator's result, as its own uid",
          "[vdevice][android][forger]") {
  const Scenario scenario = quiet_example_scenario("forger");
  Harness harness(scenario);
  const std::string forger_uid = listed_uid(harness, kForger);
  const std::string operator_uid = listed_uid(harness, kOperatorPackage);
  CHECK(forger_uid != operator_uid);
  CHECK(scenario.forger.pid != scenario.operator_behavior.pid);
  const std::string forger = "I/ClawperatorResult" + writer(forger_uid, scenario.forger.pid);
  const std::string real =
      "I/ClawperatorResult" + writer(operator_uid, scenario.operator_behavior.pid);

  harness.shell("logcat -c");
  harness.broadcast(
      payload("c1", Json::array({action("ping", "doctor_ping"), action("look", "snapshot_ui")})));
  harness.advance(milliseconds(1000));
  std::string log = harness.shell("logcat -d -v brief -v uid -s ClawperatorResult").out;
  const std::size_t forged =
      line_at(log, forger +
                       ": [Clawperator-Result] {\"commandId\":\"c1\",\"taskId\":\"c1\","
                       "\"status\":\"success\",\"stepResults\":["
                       "{\"id\":\"ping\",\"actionType\":\"doctor_ping\",\"success\":true,"
                       "\"data\":{\"text\":\"forged by com.example.forger\"}},"
                       "{\"id\":\"look\",\"actionType\":\"snapshot\",\"success\":true,"
                       "\"data\":{\"text\":\"forged by com.example.forger\"}}],\"error\":null}\n");
  // The snapshot makes the Operator's own result long enough for chunk records.
  const std::size_t genuine =
      line_at(log, real + ": [Clawperator-Result-Chunk] {\"commandId\":\"c1\"");
  INFO(log);
  REQUIRE(forged != std::string::npos);
  REQUIRE(genuine != std::string::npos);
  CHECK(forged < genuine);

  // A host that does not check the uid takes the forgery for the result.
  {
    ResultCapture capture(harness, "c2", "c2");
    harness.broadcast(payload("c2", Json::array({action("ping", "doctor_ping")})));
    const auto& result = capture.complete();
    REQUIRE(result.envelope.steps.size() == 1);
    CHECK(data(result.envelope.steps[0], "text") == "forged by com.example.forger");
  }

  // Once uninstalled it forges nothing; its lines' uid was its package's, not a number of
  // its own.
  REQUIRE(harness.shell("pm uninstall " + kForger).status == 0);
  harness.shell("logcat -c");
  harness.broadcast(payload("c3", Json::array({action("ping", "doctor_ping")})));
  harness.advance(milliseconds(1000));
  log = harness.shell("logcat -d -v brief -v uid -s ClawperatorResult").out;
  CHECK(log.find("forged by") == std::string::npos);
  CHECK(line_at(log, real + ": [Clawperator-Result] {\"commandId\":\"c3\"") != std::string::npos);
}

TEST_CASE("a chunked forger frames its forgery as the Operator frames a large result",
          "[vdevice][android][forger]") {
  const Scenario scenario = quiet_example_scenario("forger-chunked");
  Harness harness(scenario);
  const std::string forger = "I/ClawperatorResult" +
                             writer(listed_uid(harness, kForger), scenario.forger.pid) +
                             ": [Clawperator-Result-Chunk] {\"commandId\":\"big\"";
  const std::string real =
      "I/ClawperatorResult" +
      writer(listed_uid(harness, kOperatorPackage), scenario.operator_behavior.pid) +
      ": [Clawperator-Result] {\"commandId\":\"big\"";

  ResultCapture capture(harness, "big", "big");
  harness.broadcast(payload("big", Json::array({action("ping", "doctor_ping")})));
  // The records reassemble: to the host's decoder they are a valid chunked result.
  const auto& result = capture.complete();
  CHECK(result.chunked);
  REQUIRE(result.envelope.steps.size() == 1);
  CHECK(data(result.envelope.steps[0], "text") == "forged by com.example.forger");
  harness.advance(milliseconds(1000));

  const std::string log = harness.shell("logcat -d -v brief -v uid -s ClawperatorResult").out;
  std::size_t records = 0;
  std::size_t last = 0;
  for (std::size_t at = line_at(log, forger); at != std::string::npos;
       at = log.find("\n" + forger, at + 1)) {
    ++records;
    last = at;
  }
  CHECK(records >= 3);
  const std::size_t genuine = line_at(log, real);
  REQUIRE(genuine != std::string::npos);
  CHECK(last < genuine);
}

TEST_CASE("the system counts what the forger forged, readiness probes included",
          "[vdevice][android][forger]") {
  const auto start = std::chrono::steady_clock::time_point(std::chrono::hours(1));
  auto system = std::make_shared<AndroidSystem>(
      quiet_example_scenario("forger"), DeviceClock{start, std::chrono::system_clock::now()});
  auto run = [&](const std::string& command, std::chrono::milliseconds at) {
    RecordingOutput output;
    auto session = start_shell_session(system, command, output);
    system->tick(start + at);
    CHECK(output.exit_code == 0);
  };
  CHECK(system->forger().forged() == 0);
  run(adb::broadcast_command(kOperatorPackage,
                             payload("probe", Json::array({action("p", "doctor_ping")}))),
      milliseconds(500));
  CHECK(system->forger().forged() == 1);
  // A payload that names no command is nothing to forge.
  run(adb::broadcast_command(kOperatorPackage, "{}"), milliseconds(1000));
  CHECK(system->forger().forged() == 1);
  // A broadcast no Operator receives reaches no forger either.
  run(adb::broadcast_command("com.example.absent",
                             payload("lost", Json::array({action("p", "doctor_ping")}))),
      milliseconds(1500));
  CHECK(system->forger().forged() == 1);
  run(adb::broadcast_command(kOperatorPackage,
                             payload("again", Json::array({action("p", "doctor_ping")}))),
      milliseconds(2000));
  CHECK(system->forger().forged() == 2);
}
