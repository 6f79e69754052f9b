// Issue 20 through the real adb against the virtual device: results over the direct transport
// (and each way the Operator's side can break), the forward gone after every outcome, payloads
// larger than a 4 KiB transport packet, and adb's own refusals.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/json.hpp"
#include "clawperator/transport/sha256.hpp"
#include "farm_fixture.hpp"
#include "test_locations.hpp"

using clawperator::testing::Farm;
using clawperator::testing::kBinary;
using clawperator::testing::kOpenSettings;
using clawperator::testing::kSnapshot;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::scenario;
using clawperator::testing::single_document;
using nlohmann::json;
namespace android = clawperator::vdevice::android;

namespace {

// The forwards adb knows of, all devices.
std::string forwards(const Farm& farm) {
  return farm.adb({"forward", "--list"}).out;
}

json run_direct(const Farm& farm, const std::string& transport,
                const json& actions = json::array({kSnapshot}), int timeout_ms = 8000) {
  const RunResult result =
      farm.exec(actions, {"--result-transport", transport, "--timeout", std::to_string(timeout_ms)},
                timeout_ms);
  json document = single_document(result);
  document["__exit"] = result.exit_code;
  return document;
}

void expect_outcome(const json& document, const std::string& code, int exit_code,
                    const std::string& delivery, const std::string& retry = "safe") {
  INFO(document.dump(2).substr(0, 4000));
  CHECK(document["__exit"] == exit_code);
  if (code.empty()) {
    CHECK(document["ok"] == true);
  } else {
    CHECK(document["code"] == code);
  }
  CHECK(document["disposition"]["delivery"] == delivery);
  CHECK(document["disposition"]["retry"] == retry);
}

android::Scenario with_fault(android::DirectFault fault) {
  auto broken = scenario("default");
  broken.faults.direct = fault;
  return broken;
}

}  // namespace

TEST_CASE("a result over the direct transport, and no forward left", "[integration][direct]") {
  Farm farm({"default"});
  const json document = run_direct(farm, "direct");
  expect_outcome(document, "", 0, "delivered_verified");
  CHECK(document["resultTransport"]["used"] == "direct");
  // The socket does not say which app wrote the result (docs/guardrails.md §7).
  CHECK(document["resultAuthenticity"] ==
        json::parse(R"({"verified":false,"reason":"the direct result transport does not show )"
                    R"(which app wrote the result","foreignLines":0})"));
  CHECK(document["resultTransport"]["direct"]["timeline"].size() > 3);
  CHECK(document["envelope"]["stepResults"][0]["data"]["text"].get<std::string>().find(
            "<hierarchy") != std::string::npos);
  CHECK(forwards(farm).find("localabstract") == std::string::npos);
  // The environment picks it as well.
  farm.set_env("CLAWPERATOR_RESULT_TRANSPORT", "direct");
  const RunResult by_env = farm.exec(json::array({kSnapshot}));
  CHECK(single_document(by_env)["resultTransport"]["used"] == "direct");
  farm.set_env("CLAWPERATOR_RESULT_TRANSPORT", "sideways");
  const RunResult bad = farm.exec(json::array({kSnapshot}));
  CHECK(bad.exit_code == 2);
  CHECK(single_document(bad)["code"] == "USAGE");
}

TEST_CASE("each fault of the Operator's side of the direct transport", "[integration][direct]") {
  using android::DirectFault;
  struct Case {
    DirectFault fault;
    const char* code;  // "" = success
    int exit_code;
    const char* delivery;
    const char* retry;
  };
  // Setup failures come before dispatch: nothing was sent. After dispatch the command ran,
  // and only its result was lost.
  const Case cases[] = {
      {DirectFault::RefuseConnection, "RESULT_TRANSPORT_FAILED", 3, "not_delivered", "safe"},
      {DirectFault::NeverReady, "RESULT_TRANSPORT_FAILED", 3, "not_delivered", "safe"},
      {DirectFault::BadSha256, "RESULT_TRANSPORT_FAILED", 4, "delivered_unverified", "unsafe"},
      {DirectFault::ShortFrame, "RESULT_TRANSPORT_FAILED", 4, "delivered_unverified", "unsafe"},
      {DirectFault::OversizedFrame, "RESULT_TRANSPORT_FAILED", 4, "delivered_unverified", "unsafe"},
      {DirectFault::DropMidResult, "RESULT_TRANSPORT_FAILED", 4, "delivered_unverified", "unsafe"},
      {DirectFault::NoTiming, "", 0, "delivered_verified", "unsafe"},
      {DirectFault::CloseBeforeAck, "", 0, "delivered_verified", "unsafe"},
  };
  for (const Case& c : cases) {
    CAPTURE(static_cast<int>(c.fault));
    Farm farm(Farm::Built{{with_fault(c.fault)}});
    const json document = run_direct(farm, "direct", json::array({kOpenSettings}));
    expect_outcome(document, c.code, c.exit_code, c.delivery, c.retry);
    if (std::string(c.code) == "RESULT_TRANSPORT_FAILED") {
      CHECK(document["details"]["resultTransport"] == "direct");
      CHECK(document["details"]["direct"]["sessionId"].is_string());
      CHECK(document["details"]["dispatchState"] ==
            (c.exit_code == 3 ? "not_dispatched" : "dispatched"));
    }
    CHECK(forwards(farm).find("localabstract") == std::string::npos);
  }
}

TEST_CASE("auto: logcat when the direct setup fails, never a replay", "[integration][direct]") {
  SECTION("the connection is refused") {
    Farm farm(Farm::Built{{with_fault(android::DirectFault::RefuseConnection)}});
    const json document = run_direct(farm, "auto");
    expect_outcome(document, "", 0, "delivered_verified");
    CHECK(document["resultTransport"]["used"] == "logcat");
    CHECK(document["resultTransport"]["fallback"]["reason"].get<std::string>().find("ready") !=
          std::string::npos);
    CHECK(forwards(farm).find("localabstract") == std::string::npos);
  }
  SECTION("an older Operator without direct results") {
    auto older = scenario("default");
    older.operator_behavior.direct_transport = false;
    Farm farm(Farm::Built{{older}});
    expect_outcome(run_direct(farm, "auto"), "", 0, "delivered_verified");
    expect_outcome(run_direct(farm, "direct"), "RESULT_TRANSPORT_FAILED", 3, "not_delivered");
    CHECK(forwards(farm).find("localabstract") == std::string::npos);
  }
  SECTION("a result lost after dispatch is not fetched again over logcat") {
    Farm farm(Farm::Built{{with_fault(android::DirectFault::BadSha256)}});
    expect_outcome(run_direct(farm, "auto"), "RESULT_TRANSPORT_FAILED", 4, "delivered_unverified");
  }
}

// Both runs send the same payload file, so the two envelopes (commandId included) must match
// byte for byte. They are compared by length, digest and first difference: a failed CHECK on
// two 16 MiB strings has Catch2 wrap both for the console, which alone took over 600 s.
TEST_CASE("a 16 MiB result over direct is byte-identical to the logcat path's",
          "[integration][direct][large]") {
  auto big = scenario("default");
  big.faults.pad_snapshot_bytes = std::size_t{16} << 20;
  Farm farm(Farm::Built{{big}});
  const json payload = {{"commandId", "it-16mib"}, {"taskId", "it"},
                        {"source", "integration"}, {"expectedFormat", "android-ui-automator"},
                        {"timeoutMs", 120000},     {"actions", json::array({kSnapshot})}};
  const std::string path = farm.log_dir() + "-16mib.json";
  std::ofstream(path) << payload.dump();
  // Silent until its result is whole: over logcat under the sanitizers that took more than the
  // 30 s run_binary allows a silent binary by default.
  RunOptions patient = farm.environment();
  patient.silence_limit_ms = 150000;
  const auto run = [&](const std::string& transport) {
    const RunResult result =
        clawperator::testing::run_binary(kBinary,
                                         {"exec", path, "--device", farm.serials().front(),
                                          "--result-transport", transport, "--timeout", "120000"},
                                         patient);
    json document = single_document(result);
    INFO(transport << ": " << document.dump().substr(0, 3000));
    REQUIRE(result.exit_code == 0);
    return document;
  };
  const json over_direct = run("direct");
  const json over_logcat = run("logcat");
  std::filesystem::remove(path);
  CHECK(forwards(farm).find("localabstract") == std::string::npos);
  CHECK(over_direct["resultTransport"]["used"] == "direct");
  CHECK(!over_logcat.contains("resultTransport"));  // the default's output is unchanged
  const std::string text = over_direct["envelope"]["stepResults"][0]["data"]["text"];
  CHECK(text.size() >= (std::size_t{16} << 20));
  CHECK(over_direct["resultTransport"]["direct"]["receivedBytes"] >= (16 << 20));
  const std::string direct_bytes = over_direct["envelope"].dump();
  const std::string logcat_bytes = over_logcat["envelope"].dump();
  const auto mismatch = std::mismatch(direct_bytes.begin(), direct_bytes.end(),
                                      logcat_bytes.begin(), logcat_bytes.end());
  const auto first_difference = static_cast<std::size_t>(mismatch.first - direct_bytes.begin());
  INFO("first difference at byte " << first_difference << ": direct \""
                                   << direct_bytes.substr(first_difference, 80) << "\", logcat \""
                                   << logcat_bytes.substr(first_difference, 80) << "\"");
  CHECK(direct_bytes.size() == logcat_bytes.size());
  CHECK(clawperator::transport::sha256_hex(direct_bytes) ==
        clawperator::transport::sha256_hex(logcat_bytes));
}

TEST_CASE("no forward is left after SIGINT, and one left by SIGKILL goes with the next run",
          "[integration][direct][signals]") {
  auto silent = scenario("never-answer");
  Farm farm(Farm::Built{{silent}});
  const std::string serial = farm.serials().front();
  const std::string payload = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/demo-snapshot-click.json";
  const std::vector<std::string> args = {"exec",  payload, "--device", serial, "--result-transport",
                                         "direct"};
  // Each signal comes once the run's broadcast went out (its forward is set up by then).
  const auto dispatched_after = [&farm](std::size_t sent) {
    return [&farm, sent](const std::string&) {
      return farm.logged_count("broadcast.dispatched", R"("taskId":"demo")") > sent;
    };
  };
  {
    RunOptions options = farm.environment();
    options.signal = SIGINT;
    options.signal_when =
        dispatched_after(farm.logged_count("broadcast.dispatched", R"("taskId":"demo")"));
    options.signal_after_ms = 30000;
    const RunResult result = clawperator::testing::run_binary(kBinary, args, options);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 3000));
    CHECK(result.exit_code == 130);
    CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(forwards(farm).find("localabstract") == std::string::npos);
  }
  {
    RunOptions options = farm.environment();
    options.signal = SIGKILL;
    options.signal_when =
        dispatched_after(farm.logged_count("broadcast.dispatched", R"("taskId":"demo")"));
    options.signal_after_ms = 30000;
    const RunResult killed = clawperator::testing::run_binary(kBinary, args, options);
    CHECK(killed.signal == SIGKILL);
    CHECK(forwards(farm).find(serial + " tcp:") != std::string::npos);  // left behind
  }
  // The next run on that device, whatever its transport, removes it first.
  const RunResult next = farm.exec(json::array({kSnapshot}), {"--timeout", "1500"}, 1500);
  CHECK(forwards(farm).find("localabstract") == std::string::npos);
  (void)next;
}

// 20 toasts of 2000 characters: a payload of about 41 KB, ten times what a 4 KiB packet
// carries, so it must go by adb push (docs/wire-protocol.md §5.4).
TEST_CASE("at a 4 KiB transport packet a 40 KB payload reaches the Operator byte-exact",
          "[integration][push]") {
  auto small_packets = scenario("default");
  small_packets.max_payload = 4096;
  Farm farm(Farm::Built{{small_packets}});
  const std::string serial = farm.serials().front();
  json actions = json::array();
  for (int i = 0; i < 20; ++i) {
    // Varied text, so that a chunk lost, repeated or swapped changes the digest.
    std::string text = "toast " + std::to_string(i) + ":";
    while (text.size() < 2000) text += " " + std::to_string(text.size() * 7 + i);
    text.resize(2000);
    actions.push_back(
        {{"id", "t" + std::to_string(i)}, {"type", "show_toast"}, {"params", {{"text", text}}}});
  }
  const json payload = {{"commandId", "it-push-40k"}, {"taskId", "it"},
                        {"source", "integration"},    {"expectedFormat", "android-ui-automator"},
                        {"timeoutMs", 30000},         {"actions", actions}};
  const std::string path = farm.log_dir() + "-payload.json";
  std::ofstream(path) << payload.dump();
  for (const std::string transport : {"logcat", "direct"}) {
    CAPTURE(transport);
    const RunResult result =
        farm.clawperator({"exec", path, "--device", serial, "--result-transport", transport});
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 3000));
    CHECK(result.exit_code == 0);
    CHECK(document["envelope"]["stepResults"].size() == actions.size());
  }
  // What the Operator received, by size and digest (it logs both for every payload), is
  // exactly what the CLI sends: the validated payload's compact JSON.
  auto validated =
      clawperator::contract::validate_execution(clawperator::Json::parse(payload.dump()));
  REQUIRE(validated.valid);
  const std::string sent =
      clawperator::dump_json(clawperator::contract::to_device_json(*validated.valid));
  CHECK(sent.size() > 40000);
  const std::string fingerprint = "[commandId=it-push-40k] received taskId=it (" +
                                  std::to_string(sent.size()) + " bytes, sha256 " +
                                  clawperator::transport::sha256_hex(sent) + ")";
  const std::string log = farm.adb({"-s", serial, "logcat", "-d", "-s", "TaskScopeDefault"}).out;
  std::size_t received = 0;
  for (auto at = log.find(fingerprint); at != std::string::npos;
       at = log.find(fingerprint, at + 1)) {
    ++received;
  }
  CHECK(received == 2);  // once per transport
  CHECK(forwards(farm).find("localabstract") == std::string::npos);
  // The server is still up with the device, and no payload file is left on it.
  CHECK(farm.adb({"devices"}).out.find(serial + "\tdevice") != std::string::npos);
  CHECK(
      farm.adb({"-s", serial, "shell", "ls", "/data/local/tmp"}).out.find("clawperator-payload") ==
      std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("adb's refusal of a request too long for the packet is exit 3, not delivered",
          "[integration][push]") {
  auto small_packets = scenario("default");
  small_packets.max_payload = 4096;
  Farm farm(Farm::Built{{small_packets}});
  // No payload makes the request long any more; a 5000-character package name still does.
  const RunResult result =
      farm.exec(json::array({kSnapshot}), {"--operator-package", std::string(5000, 'p')});
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(result.exit_code == 3);
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK(document["details"]["dispatchState"] == "not_dispatched");
  CHECK(document["details"]["stderr"].get<std::string>().find("protocol fault") !=
        std::string::npos);
}
