#include <catch2/catch.hpp>

#include "clawperator/report/report.hpp"

using namespace clawperator;
using report::Case;
using report::Naming;
using report::Run;
using report::Suite;
using report::Verdict;

namespace {

Run exec_run(std::vector<report::PlannedStep> planned, int exit_code) {
  Run run;
  run.subject = {"exec", Naming::CommandId};
  run.planned = std::move(planned);
  run.timestamp = "2026-11-30T12:00:00";
  run.seconds = 1.25;
  run.exit_code = exit_code;
  return run;
}

Json step(const std::string& id, const std::string& type, bool success,
          Json data = Json::object()) {
  return Json{{"id", id}, {"actionType", type}, {"success", success}, {"data", std::move(data)}};
}

Json wrapper(bool ok, Json steps, const std::string& status) {
  Json document = Json::object();
  document["ok"] = ok;
  document["envelope"] = Json{{"commandId", "c1"},
                              {"taskId", "t1"},
                              {"status", status},
                              {"stepResults", std::move(steps)},
                              {"error", nullptr}};
  document["deviceId"] = "emulator-5554";
  document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "unsafe"}};
  document["timing"] = Json{{"totalMs", 412}};
  return document;
}

std::string property(const Suite& suite, const std::string& name) {
  for (const auto& [key, value] : suite.properties) {
    if (key == name) return value;
  }
  return "<absent>";
}

}  // namespace

TEST_CASE("a passed execution: a case per step, named by id and type", "[report]") {
  const Json document =
      wrapper(true, Json::array({step("open", "open_app", true), step("snap", "snapshot", true)}),
              "success");
  const Suite suite =
      report::suite_of(document, exec_run({{"open", "open_app"}, {"snap", "snapshot"}}, 0));
  CHECK(suite.name == "c1");
  CHECK(suite.timestamp == "2026-11-30T12:00:00");
  CHECK(suite.seconds == 1.25);
  REQUIRE(suite.cases.size() == 2);
  CHECK(suite.cases[0].name == "open (open_app)");
  CHECK(suite.cases[1].name == "snap (snapshot)");
  for (const Case& one : suite.cases) {
    CHECK(one.classname == "clawperator.exec");
    CHECK(one.verdict == Verdict::Passed);
    // The Operator reports no time per step: only a suite of one case has one per case.
    CHECK_FALSE(one.seconds);
  }
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"command", "exec"},
      {"commandId", "c1"},
      {"taskId", "t1"},
      {"deviceId", "emulator-5554"},
      {"disposition.delivery", "delivered_verified"},
      {"disposition.retry", "unsafe"},
      {"exitCode", "0"}};
  CHECK(suite.properties == expected);
  const report::Counts counts = suite.counts();
  CHECK(counts.tests == 2);
  CHECK(counts.failures + counts.errors + counts.skipped == 0);
}

TEST_CASE("a failed step is a failure with its code, the steps after it are skipped", "[report]") {
  Json document = wrapper(
      false,
      Json::array({step("open", "open_app", true),
                   step("tap", "click", false,
                        Json{{"error", "NODE_NOT_FOUND"}, {"message", "No node matches OK"}})}),
      "failed");
  document["code"] = "NODE_NOT_FOUND";
  document["message"] = "Step tap failed";
  document["hint"] = "Take a new snapshot";
  const Suite suite = report::suite_of(
      document, exec_run({{"open", "open_app"}, {"tap", "click"}, {"snap", "snapshot"}}, 1));
  REQUIRE(suite.cases.size() == 3);
  CHECK(suite.cases[0].verdict == Verdict::Passed);
  const Case& failed = suite.cases[1];
  CHECK(failed.name == "tap (click)");
  CHECK(failed.verdict == Verdict::Failed);
  CHECK(failed.type == "NODE_NOT_FOUND");
  CHECK(failed.message == "No node matches OK");
  CHECK(failed.text ==
        "No node matches OK\nhint: Take a new snapshot\ndata: "
        "{\"error\":\"NODE_NOT_FOUND\",\"message\":\"No node matches OK\"}");
  const Case& skipped = suite.cases[2];
  CHECK(skipped.name == "snap (snapshot)");
  CHECK(skipped.verdict == Verdict::Skipped);
  CHECK(skipped.message == "not run: step tap (click) failed before it");
  CHECK(property(suite, "code") == "NODE_NOT_FOUND");
  CHECK(property(suite, "exitCode") == "1");
  const report::Counts counts = suite.counts();
  CHECK(counts.tests == 3);
  CHECK(counts.failures == 1);
  CHECK(counts.errors == 0);
  CHECK(counts.skipped == 1);
}

TEST_CASE("a failed step without a code of its own takes the run's", "[report]") {
  Json document = wrapper(false, Json::array({step("tap", "click", false)}), "failed");
  document["code"] = "ACTION_FAILED";
  document["message"] = "Step tap (click) failed";
  const Suite suite = report::suite_of(document, exec_run({{"tap", "click"}}, 1));
  REQUIRE(suite.cases.size() == 1);
  CHECK(suite.cases[0].type == "ACTION_FAILED");
  CHECK(suite.cases[0].message == "Step tap (click) failed");
  // A suite of one case: the case has the suite's time.
  CHECK(suite.cases[0].seconds == 1.25);
}

TEST_CASE("a failed envelope without a failed step is one failure of the execution", "[report]") {
  Json document = wrapper(false, Json::array({step("open", "open_app", true)}), "failed");
  document["envelope"]["error"] = "Command timed out after 5000 ms";
  document["envelope"]["errorCode"] = "COMMAND_TIMEOUT";
  document["code"] = "COMMAND_TIMEOUT";
  document["message"] = "Command timed out after 5000 ms";
  const Suite suite =
      report::suite_of(document, exec_run({{"open", "open_app"}, {"wait", "wait_for_node"}}, 1));
  REQUIRE(suite.cases.size() == 3);
  CHECK(suite.cases[1].verdict == Verdict::Skipped);
  CHECK(suite.cases[1].message ==
        "not run: the execution ended before it: Command timed out after 5000 ms");
  CHECK(suite.cases[2].name == "execution");
  CHECK(suite.cases[2].verdict == Verdict::Failed);
  CHECK(suite.cases[2].type == "COMMAND_TIMEOUT");
  CHECK(suite.counts().failures == 1);
}

TEST_CASE("a host error is one case in error, named by the suite", "[report]") {
  const Json document = {
      {"ok", false},
      {"code", "DEVICE_NOT_FOUND"},
      {"message", "Device nope not found"},
      {"hint", "Pick one of clawperator devices"},
      {"details", {{"phase", "readiness"}, {"commandId", "c1"}, {"deviceId", "nope"}}},
      {"disposition", {{"delivery", "not_delivered"}, {"retry", "safe"}}}};
  const Suite suite = report::suite_of(document, exec_run({{"snap", "snapshot"}}, 3));
  CHECK(suite.name == "c1");
  REQUIRE(suite.cases.size() == 1);
  const Case& error = suite.cases[0];
  CHECK(error.name == "c1");
  CHECK(error.verdict == Verdict::Errored);
  CHECK(error.type == "DEVICE_NOT_FOUND");
  CHECK(error.message == "Device nope not found");
  CHECK(error.text ==
        "Device nope not found\nhint: Pick one of clawperator devices\ndetails: "
        "{\"phase\":\"readiness\",\"commandId\":\"c1\",\"deviceId\":\"nope\"}");
  CHECK(error.seconds == 1.25);
  CHECK(property(suite, "deviceId") == "nope");
  CHECK(property(suite, "disposition.delivery") == "not_delivered");
  CHECK(property(suite, "disposition.retry") == "safe");
  CHECK(property(suite, "code") == "DEVICE_NOT_FOUND");
  CHECK(property(suite, "exitCode") == "3");
}

TEST_CASE("an action command's suite is named by the command, its id is a property", "[report]") {
  const Json document = wrapper(true, Json::array({step("c1", "click", true)}), "success");
  Run run = exec_run({{"c1", "click"}}, 0);
  run.subject = {"click", Naming::Command};
  const Suite suite = report::suite_of(document, run);
  CHECK(suite.name == "click");
  CHECK(suite.cases.at(0).classname == "clawperator.click");
  CHECK(property(suite, "commandId") == "c1");
}

TEST_CASE("--dry-run and --validate-only: every planned step is skipped", "[report]") {
  const Json dry = {{"ok", true}, {"dryRun", true}, {"plan", {{"commandId", "c9"}}}};
  const Suite suite = report::suite_of(dry, exec_run({{"a", "click"}, {"b", "snapshot"}}, 0));
  CHECK(suite.name == "c9");
  REQUIRE(suite.cases.size() == 2);
  for (const Case& one : suite.cases) {
    CHECK(one.verdict == Verdict::Skipped);
    CHECK(one.message == "not run: --dry-run");
  }
  const Json validated = {{"ok", true}, {"validated", true}, {"execution", {{"commandId", "c9"}}}};
  const Suite only = report::suite_of(validated, exec_run({{"a", "click"}}, 0));
  CHECK(only.cases.at(0).message == "not run: --validate-only");
}

namespace {

Run skill_run(int exit_code) {
  Run run;
  run.subject = {"skills run", Naming::SkillId};
  run.timestamp = "2026-11-30T12:00:00";
  run.seconds = 2.5;
  run.exit_code = exit_code;
  return run;
}

Json skill_document(bool ok, Json checkpoints) {
  Json document = Json::object();
  document["ok"] = ok;
  document["skillId"] = "com.test.check";
  document["deviceId"] = "emulator-5554";
  document[ok ? "output" : "stdout"] = "step one\n";
  document["stderr"] = "warn\n";
  document["exitCode"] = ok ? 0 : 1;
  document["skillResult"] = Json{{"contractVersion", "1.0.0"},
                                 {"skillId", "com.test.check"},
                                 {"status", ok ? "success" : "failed"},
                                 {"checkpoints", std::move(checkpoints)}};
  return document;
}

}  // namespace

TEST_CASE("skills run: a case per checkpoint, failed and skipped as the skill says", "[report]") {
  const Json document = skill_document(
      true,
      Json::array({Json{{"id", "opened"}, {"status", "ok"}},
                   Json{{"id", "found"}, {"status", "failed"}, {"note", "no row named Wi-Fi"}},
                   Json{{"id", "toggled"}, {"status", "skipped"}, {"note", "nothing to toggle"}}}));
  const Suite suite = report::suite_of(document, skill_run(0));
  CHECK(suite.name == "com.test.check");
  REQUIRE(suite.cases.size() == 3);
  CHECK(suite.cases[0].name == "opened");
  CHECK(suite.cases[0].classname == "clawperator.skills.run");
  CHECK(suite.cases[0].verdict == Verdict::Passed);
  CHECK(suite.cases[1].verdict == Verdict::Failed);
  CHECK(suite.cases[1].type == "failed");
  CHECK(suite.cases[1].message == "no row named Wi-Fi");
  CHECK(suite.cases[2].verdict == Verdict::Skipped);
  CHECK(suite.cases[2].message == "nothing to toggle");
  CHECK(suite.system_out == "step one\n");
  CHECK(suite.system_err == "warn\n");
  CHECK(property(suite, "skillId") == "com.test.check");
  CHECK(property(suite, "skillResult.status") == "success");
}

TEST_CASE("skills run: a failed run shows its code once, on a checkpoint or a case of its own",
          "[report]") {
  Json failed = skill_document(false, Json::array({Json{{"id", "opened"}, {"status", "ok"}}}));
  failed["code"] = "SKILL_EXECUTION_FAILED";
  failed["message"] = "Skill com.test.check exited with code 1";
  failed["details"] = Json{{"phase", "post_processing"}, {"exitCode", 1}};
  const Suite own = report::suite_of(failed, skill_run(1));
  REQUIRE(own.cases.size() == 2);
  CHECK(own.cases[0].verdict == Verdict::Passed);
  CHECK(own.cases[1].name == "com.test.check");
  CHECK(own.cases[1].verdict == Verdict::Failed);
  CHECK(own.cases[1].type == "SKILL_EXECUTION_FAILED");
  CHECK(own.cases[1].message == "Skill com.test.check exited with code 1");

  failed["skillResult"]["checkpoints"].push_back(Json{{"id", "found"}, {"status", "failed"}});
  const Suite on_checkpoint = report::suite_of(failed, skill_run(1));
  REQUIRE(on_checkpoint.cases.size() == 2);
  CHECK(on_checkpoint.cases[1].name == "found");
  CHECK(on_checkpoint.cases[1].type == "SKILL_EXECUTION_FAILED");
  CHECK(on_checkpoint.cases[1].message == "checkpoint found failed");
}

TEST_CASE("skills run: without checkpoints one case for the run", "[report]") {
  const Suite passed = report::suite_of(skill_document(true, Json::array()), skill_run(0));
  REQUIRE(passed.cases.size() == 1);
  CHECK(passed.cases[0].name == "com.test.check");
  CHECK(passed.cases[0].verdict == Verdict::Passed);
  CHECK(passed.cases[0].seconds == 2.5);

  Json null_result = skill_document(true, Json::array());
  null_result["skillResult"] = nullptr;
  CHECK(report::suite_of(null_result, skill_run(0)).cases.size() == 1);

  // Refused before the script started: an error, not a failure.
  const Json refused = {{"ok", false},
                        {"code", "SKILL_NOT_FOUND"},
                        {"message", "Skill not found: com.test.gone"},
                        {"details", {{"phase", "validation"}, {"skillId", "com.test.gone"}}}};
  const Suite error = report::suite_of(refused, skill_run(2));
  CHECK(error.name == "com.test.gone");
  REQUIRE(error.cases.size() == 1);
  CHECK(error.cases[0].verdict == Verdict::Errored);
  CHECK(error.cases[0].type == "SKILL_NOT_FOUND");
}

TEST_CASE("any JSON gives a suite", "[report]") {
  for (const Json& document :
       {Json(nullptr), Json(3), Json("text"), Json::array({1, 2}), Json::object(),
        Json{{"ok", true}}, Json{{"envelope", {{"stepResults", {1, "x", nullptr}}}}},
        Json{{"skillResult", {{"checkpoints", {{{"id", 5}}, "x"}}}}}}) {
    CAPTURE(document.dump());
    const Suite suite = report::suite_of(document, exec_run({{"", ""}}, 70));
    CHECK_FALSE(suite.name.empty());
    CHECK_FALSE(suite.cases.empty());
    for (const Case& one : suite.cases) CHECK_FALSE(one.name.empty());
  }
}

TEST_CASE("--report's formats", "[report]") {
  CHECK(report::parse_format("junit") == report::Format::JUnit);
  CHECK(report::parse_format("JUnit") == report::Format::JUnit);
  CHECK(report::parse_format("TAP") == report::Format::Tap);
  CHECK_FALSE(report::parse_format("xml"));
  CHECK_FALSE(report::parse_format(""));
  CHECK(report::to_string(report::Format::JUnit) == "junit");
  CHECK(report::to_string(report::Format::Tap) == "tap");
}
