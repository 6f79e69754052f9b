// Sequences through the real binary, the real adb and a virtual device (docs/payload.md §12):
// payloads run in order under one device lock, stopping at the first that fails, with one
// document and, with --report, a suite per payload.
#include <chrono>
#include <filesystem>
#include <future>
#include <regex>
#include <string>
#include <vector>

#include "farm_fixture.hpp"
#include "test_files.hpp"
#include "wait_until.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

json sequence_part(const std::string& command_id, const json& actions) {
  return {{"commandId", command_id}, {"taskId", "sequence-it"},
          {"source", "integration"}, {"expectedFormat", "android-ui-automator"},
          {"timeoutMs", 30000},      {"actions", actions}};
}

const json kSettingsFromItsStart =
    json::array({{{"id", "close"},
                  {"type", "close_app"},
                  {"params", {{"applicationId", "com.android.settings"}}}},
                 {{"id", "open"},
                  {"type", "open_app"},
                  {"params", {{"applicationId", "com.android.settings"}}}}});

json tap_text(const std::string& text) {
  return json::array(
      {{{"id", "tap"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", text}}}}}}});
}

json wait_for_text(const std::string& text) {
  return json::array({{{"id", "wait"},
                       {"type", "wait_for_node"},
                       {"params", {{"matcher", {{"textEquals", text}}}}}}});
}

std::string write_sequence(const TemporaryDirectory& dir, const std::string& name,
                           const std::vector<json>& payloads) {
  const fs::path path = dir.path() / name;
  write_file(path, json{{"executions", payloads}}.dump());
  return path.string();
}

// The suites of a JUnit file we wrote: name, tests, failures and skipped, from its attributes.
std::vector<std::vector<std::string>> suites_in(const std::string& xml) {
  std::vector<std::vector<std::string>> suites;
  const std::regex suite(
      R"re(<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="\d+" skipped="(\d+)")re");
  for (auto match = std::sregex_iterator(xml.begin(), xml.end(), suite);
       match != std::sregex_iterator(); ++match) {
    suites.push_back({(*match)[1], (*match)[2], (*match)[3], (*match)[4]});
  }
  return suites;
}

}  // namespace

TEST_CASE("sequence: exec runs each payload in order, one document, a suite each",
          "[integration][sequence]") {
  Farm farm({"default"});
  const TemporaryDirectory dir("sequence-it");
  const std::string file = write_sequence(dir, "replay.json",
                                          {sequence_part("s1", kSettingsFromItsStart),
                                           sequence_part("s2", tap_text("Network & internet")),
                                           sequence_part("s3", wait_for_text("Airplane mode"))});
  const std::string report = (dir.path() / "ui.xml").string();
  const RunResult run = farm.clawperator({"exec", file, "--report", "junit=" + report});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  const json document = single_document(run);
  CHECK(document["ok"] == true);
  CHECK(document["sequence"] == json{{"count", 3}});
  REQUIRE(document["executions"].size() == 3);
  for (std::size_t index = 0; index < 3; ++index) {
    CHECK(document["executions"][index]["ok"] == true);
    CHECK(document["executions"][index]["envelope"]["commandId"] ==
          "s" + std::to_string(index + 1));
  }
  CHECK(document["executions"][2]["envelope"]["stepResults"][0]["data"]["text"] == "Airplane mode");
  CHECK(document["deviceId"] == farm.serials().front());
  // What ran changed the device: repeating the whole would do it again.
  CHECK(document["disposition"] == json{{"delivery", "delivered_verified"}, {"retry", "unsafe"}});
  CHECK(document["timing"]["totalMs"].is_number_integer());
  CHECK(suites_in(read_file(report)) ==
        std::vector<std::vector<std::string>>{
            {"s1", "2", "0", "0"}, {"s2", "1", "0", "0"}, {"s3", "1", "0", "0"}});

  // Read-only payloads stay safe to repeat.
  const std::string reads =
      write_sequence(dir, "reads.json",
                     {sequence_part("r1", json::array({{{"id", "s"}, {"type", "snapshot"}}})),
                      sequence_part("r2", wait_for_text("Airplane mode"))});
  const json read = single_document(farm.clawperator({"exec", reads}));
  CHECK(read["disposition"] == json{{"delivery", "delivered_verified"}, {"retry", "safe"}});
}

TEST_CASE("sequence: the first failing payload ends it, and what ran before makes a retry unsafe",
          "[integration][sequence]") {
  Farm farm({"default"});
  const TemporaryDirectory dir("sequence-it");
  const std::string file = write_sequence(
      dir, "stops.json",
      {sequence_part("s1", kSettingsFromItsStart), sequence_part("s2", tap_text("No such row")),
       sequence_part("s3", tap_text("Display"))});
  const std::string junit = (dir.path() / "ui.xml").string();
  const RunResult run = farm.clawperator({"exec", file, "--report", "junit=" + junit});
  INFO(run.out << run.err);
  const json document = single_document(run);
  CHECK(run.exit_code == 1);
  CHECK(document["ok"] == false);
  CHECK(document["code"] == "NODE_NOT_FOUND");
  CHECK(document["details"]["sequence"] == json{{"index", 1}, {"count", 3}});
  REQUIRE(document["executions"].size() == 1);
  CHECK(document["executions"][0]["envelope"]["commandId"] == "s1");
  // Nothing of s2 was done, but s1 was: the whole may not be repeated blindly.
  CHECK(document["disposition"]["retry"] == "unsafe");
  CHECK(document["disposition"]["delivery"] == "delivered_verified");
  CHECK_FALSE(document.contains("recovery"));
  // s3 never ran: Settings' first screen is still in front.
  const json screen = single_document(farm.exec(wait_for_text("Network & internet")));
  CHECK(screen["ok"] == true);
  // Its suite is there, its step skipped.
  const auto suites = suites_in(read_file(junit));
  REQUIRE(suites.size() == 3);
  CHECK(suites[1][2] == "1");
  CHECK(suites[2] == std::vector<std::string>{"s3", "1", "0", "1"});
  CHECK(read_file(junit).find("not run: the execution ended before it: executions.1 failed "
                              "before this payload") != std::string::npos);
}

TEST_CASE("sequence: one device lock for every payload, nothing else runs between two",
          "[integration][sequence]") {
  Farm farm({"default"});
  const TemporaryDirectory dir("sequence-it");
  const std::string serial = farm.serials().front();
  const std::string file = write_sequence(
      dir, "held.json",
      {sequence_part("held-1", kSettingsFromItsStart),
       sequence_part(
           "held-2",
           json::array({{{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 1500}}}}})),
       sequence_part("held-3", wait_for_text("Network & internet"))});
  auto running = std::async(std::launch::async, [&] { return farm.clawperator({"exec", file}); });
  // While the second payload runs, the lock is still the sequence's (recorded by its first).
  REQUIRE(wait_until([&] { return farm.logged_for("broadcast.dispatched", "held-2"); }, 20s));
  CHECK(farm.held_by(serial, "held-1"));
  const RunResult other = farm.clawperator(
      {"exec", json(sequence_part("other", wait_for_text("Network & internet"))).dump(),
       "--lock-wait", "0"});
  const json refused = single_document(other);
  CHECK(other.exit_code == 3);
  CHECK(refused["code"] == "EXECUTION_CONFLICT_IN_FLIGHT");
  CHECK(refused["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  const RunResult sequence = running.get();
  INFO(sequence.out << sequence.err);
  CHECK(sequence.exit_code == 0);
  CHECK_FALSE(farm.lock_holder(serial));
}

TEST_CASE("sequence: refused whole before anything runs, naming the payload at fault",
          "[integration][sequence]") {
  Farm farm({"default"});
  const TemporaryDirectory dir("sequence-it");
  json bad = sequence_part("s2", tap_text("Display"));
  bad["actions"][0]["params"]["matcher"] = json::object();
  const std::string file =
      write_sequence(dir, "bad.json", {sequence_part("s1", kSettingsFromItsStart), bad});
  const RunResult run = farm.clawperator({"exec", file});
  const json document = single_document(run);
  CHECK(run.exit_code == 2);
  CHECK(document["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(document["details"]["executionIndex"] == 1);
  CHECK(document["details"]["path"].get<std::string>().rfind("executions.1.actions.0", 0) == 0);
  CHECK(document["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  CHECK_FALSE(farm.logged_for("broadcast.dispatched", "s1"));

  // --dry-run and --validate-only: every payload's plan, no device.
  const std::string good = write_sequence(
      dir, "good.json",
      {sequence_part("s1", kSettingsFromItsStart), sequence_part("s2", tap_text("Display"))});
  const json plans = single_document(farm.clawperator({"exec", good, "--dry-run"}));
  CHECK(plans["dryRun"] == true);
  CHECK(plans["sequence"] == json{{"count", 2}});
  CHECK(plans["plans"][1]["commandId"] == "s2");
  const json validated = single_document(farm.clawperator({"exec", good, "--validate-only"}));
  CHECK(validated["sequence"]["executions"][0]["actions"].size() == 2);
  CHECK_FALSE(farm.logged_for("broadcast.dispatched", "s1"));
}
