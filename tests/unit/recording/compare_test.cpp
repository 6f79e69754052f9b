// compare: the baseline's checkpoints as the original derives them, the first divergence, every
// outcome and whether it diverged, and the refusals of a baseline or result that is not one.
#include "clawperator/recording/compare.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "compare_fixture.hpp"
#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using clawperator::testing::write_file;

namespace {

// Opened, the "Discharge to" row clicked, "42" typed, "Save" clicked, in kApp; one click in
// another app between (it does not decide the primary package).
std::string full_recording() {
  ClickFields row;
  row.text = "Discharge to";
  row.resource_id = "com.example.app:id/discharge_row";
  ClickFields elsewhere;
  elsewhere.package = "com.other";
  elsewhere.text = "Save";
  ClickFields save;
  save.content_desc = "  SAVE  ";
  return header_line("rec-c") + "\n" + window_change_line(0, kApp) + "\n" + click_line(1, row) +
         "\n" + click_line(2, elsewhere) + "\n" + text_change_line(3, "4") + "\n" +
         text_change_line(4, "42") + "\n" + text_change_line(5, " ") + "\n" + click_line(6, save) +
         "\n" + press_back_line(7) + "\n";
}

Json full_path() {
  return Json::array({checkpoint("app_opened"), checkpoint("discharge_to_row_focused"),
                      checkpoint("target_text_entered"), checkpoint("save_completed"),
                      checkpoint("terminal_state_verified")});
}

}  // namespace

TEST_CASE("compare: the baseline's checkpoints, the primary package and a literal match",
          "[recording][compare]") {
  const recording::Baseline baseline = baseline_of(full_recording());
  const Json report = compared(baseline, skill_result("success", full_path(), "verified"));
  CHECK(report == Json::parse(R"({
    "compareMode": "literal",
    "outcome": "literal_match",
    "summary": "checkpoint sequence matched the recording baseline and terminal verification was proved",
    "pathMatches": true,
    "pathMatchedBy": "checkpoint_ids",
    "terminalVerificationStatus": "verified",
    "baseline": {"appPackage": "com.example.app",
                 "checkpointIds": ["app_opened", "discharge_to_row_focused",
                                   "target_text_entered", "save_completed"],
                 "steps": [
      {"id": "app_opened", "kind": "app_opened", "seq": 0,
       "summary": "window_change:com.example.app", "names": ["com.example.app"],
       "checkpointIds": ["app_opened"], "coveredBy": 0},
      {"id": "tap_1", "kind": "tap", "seq": 1, "summary": "click:com.example.app:discharge to",
       "names": ["com.example.app:id/discharge_row", "Discharge to"],
       "checkpointIds": ["discharge_to_row_focused"], "coveredBy": 1},
      {"id": "text_entered_1", "kind": "text_entered", "seq": 4,
       "summary": "text_change:com.example.app:seq-4", "names": ["42"],
       "checkpointIds": ["target_text_entered"], "coveredBy": 2},
      {"id": "tap_2", "kind": "tap", "seq": 6, "summary": "click:com.example.app:save",
       "names": ["SAVE"], "checkpointIds": ["save_completed"], "coveredBy": 3},
      {"id": "final_screen", "kind": "final_screen", "seq": 0,
       "summary": "window_change:com.example.app", "names": ["com.example.app"],
       "checkpointIds": [], "coveredBy": "terminal"}]},
    "actual": {"skillId": "com.example.app.save", "sourceKind": "script", "status": "success",
               "checkpointIds": ["app_opened", "discharge_to_row_focused",
                                 "target_text_entered", "save_completed"],
               "matchedSteps": ["app_opened", "tap_1", "text_entered_1", "tap_2"]},
    "unmatchedCheckpoints": [],
    "uncoveredSteps": []
  })"));
}

TEST_CASE("compare: the first divergence names both sides and the baseline's event",
          "[recording][compare]") {
  const recording::Baseline baseline = baseline_of(full_recording());
  SECTION("a different checkpoint: the click summary is its trimmed, lower-case text") {
    Json path = full_path();
    path[1] = Json{{"id", "row_opened"}, {"status", "ok"}, {"note", "took the menu"}};
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("outcome") == "baseline_drift");
    CHECK(report.at("pathMatches") == false);
    CHECK(report.at("summary") ==
          "first meaningful divergence at baseline checkpoint discharge_to_row_focused");
    CHECK(report.at("firstDivergence") == Json::parse(R"({
      "index": 1, "baselineCheckpoint": "discharge_to_row_focused",
      "actualCheckpoint": "row_opened", "baselineStatus": "ok", "actualStatus": "ok",
      "baselineSummary": "click:com.example.app:discharge to", "actualNote": "took the menu"})"));
  }
  SECTION("a checkpoint that failed, summarised by its content description") {
    Json path = full_path();
    path[3]["status"] = "failed";
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("firstDivergence").at("baselineSummary") == "click:com.example.app:save");
    CHECK(report.at("firstDivergence").at("actualStatus") == "failed");
  }
  SECTION("the skill stopped early: missing, or failed before the checkpoint") {
    const Json short_path = Json::array({checkpoint("app_opened")});
    Json report = compared(baseline, skill_result("indeterminate", short_path, "verified"));
    CHECK(report.at("firstDivergence").at("actualCheckpoint") == "missing_expected_checkpoint");
    CHECK(report.at("firstDivergence").at("actualStatus").is_null());
    report = compared(baseline, skill_result("failed", short_path, nullptr));
    CHECK(report.at("outcome") == "upstream_failure");
    CHECK(report.at("firstDivergence").at("actualCheckpoint") ==
          "failed_before_expected_checkpoint");
  }
  SECTION("an extra checkpoint after the baseline's") {
    Json path = full_path();
    path.push_back(Json{{"id", "receipt_shown"}, {"status", "skipped"}});
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("firstDivergence") == Json::parse(R"({
      "index": 4, "baselineCheckpoint": "unexpected_extra_checkpoint",
      "actualCheckpoint": "receipt_shown", "baselineStatus": null, "actualStatus": "skipped"})"));
  }
}

TEST_CASE("compare: every outcome, by mode, status, runtime state and verification",
          "[recording][compare]") {
  const recording::Baseline baseline = baseline_of(full_recording());
  const Json drifted = Json::array({checkpoint("app_opened"), checkpoint("elsewhere")});
  using recording::CompareMode;
  struct Case {
    std::string status;
    Json path;
    Json verification;
    std::string kind;
    CompareMode mode;
    Json runtime;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"success", full_path(), "verified", "script", CompareMode::Auto, nullptr, "literal_match"},
      {"success", full_path(), "verified", "agent", CompareMode::Auto, nullptr, "semantic_match"},
      {"success", drifted, "verified", "agent", CompareMode::Auto, nullptr,
       "outcome_matches_path_differs"},
      {"success", drifted, "verified", "agent", CompareMode::Literal, nullptr, "baseline_drift"},
      {"success", full_path(), "verified", "script", CompareMode::Semantic, nullptr,
       "semantic_match"},
      {"success", drifted, "verified", "script", CompareMode::Auto, nullptr, "baseline_drift"},
      {"success", full_path(), "failed", "script", CompareMode::Auto, nullptr,
       "verification_failed"},
      {"success", drifted, "failed", "agent", CompareMode::Auto, nullptr, "baseline_drift"},
      {"success", full_path(), "not_run", "script", CompareMode::Auto, nullptr,
       "verification_indeterminate"},
      {"indeterminate", full_path(), nullptr, "script", CompareMode::Auto, nullptr,
       "verification_indeterminate"},
      {"success", drifted, nullptr, "agent", CompareMode::Auto, nullptr, "baseline_drift"},
      {"failed", full_path(), "verified", "script", CompareMode::Auto, "poisoned",
       "runtime_poisoned"},
      {"failed", full_path(), "verified", "agent", CompareMode::Auto, "unavailable",
       "runtime_unavailable"},
      {"failed", full_path(), "verified", "script", CompareMode::Auto, "healthy",
       "upstream_failure"},
  };
  for (const Case& c : cases) {
    Json result = skill_result(c.status, c.path, c.verification, c.kind);
    if (!c.runtime.is_null()) result["diagnostics"] = {{"runtimeState", c.runtime}};
    INFO(c.outcome << " " << dump_json(result));
    const Json report = compared(baseline, result, c.mode);
    CHECK(report.at("outcome") == c.outcome);
    CHECK(report.at("terminalVerificationStatus") ==
          (c.verification.is_null() ? Json("missing") : c.verification));
    CHECK(report.at("actual").contains("runtimeState") == !c.runtime.is_null());
  }
}

TEST_CASE("compare: the baseline without some checkpoints, or of no app", "[recording][compare]") {
  SECTION("confirm stands in for save; text changes with only blanks do not count") {
    ClickFields confirm;
    confirm.resource_id = "com.example.app:id/CONFIRM_button";
    const recording::Baseline baseline =
        baseline_of(header_line("rec-d") + "\n" + window_change_line(0, kApp) + "\n" +
                    text_change_line(1, "\xC2\xA0") + "\n" + click_line(2, confirm) + "\n");
    const Json report = compared(
        baseline, skill_result("success", Json::array({checkpoint("app_opened"), checkpoint("x")}),
                               "verified"));
    CHECK(report.at("baseline").at("checkpointIds") ==
          Json::array({"app_opened", "save_completed"}));
    CHECK(report.at("firstDivergence").at("baselineSummary") ==
          "click:com.example.app:com.example.app:id/confirm_button");
  }
  SECTION("a word in the snapshot counts when the export includes snapshots") {
    ClickFields plain;
    const std::string ndjson = header_line("rec-e") + "\n" + window_change_line(0, kApp) + "\n" +
                               click_line(1, plain, hierarchy(node("", "Save draft"))) + "\n";
    const Json path = Json::array({checkpoint("app_opened"), checkpoint("save_completed")});
    CHECK(compared(baseline_of(ndjson, true), skill_result("success", path, "verified"))
              .at("outcome") == "literal_match");
    const Json omitted = compared(baseline_of(ndjson), skill_result("success", path, "verified"));
    CHECK(omitted.at("baseline").at("checkpointIds") == Json::array({"app_opened"}));
    CHECK(omitted.at("firstDivergence").at("baselineCheckpoint") == "unexpected_extra_checkpoint");
  }
  SECTION("a click with no text, description or id is summarised by its seq") {
    ClickFields plain;
    plain.package = "com.example.saver";
    const Json report =
        compared(baseline_of(header_line("rec-h") + "\n" + click_line(7, plain) + "\n"),
                 skill_result("success", Json::array({checkpoint("other")}), "verified"));
    CHECK(report.at("baseline").at("checkpointIds") == Json::array({"save_completed"}));
    CHECK(report.at("firstDivergence").at("baselineSummary") == "click:com.example.saver:seq-7");
  }
  SECTION("no events: no app, no checkpoints, an empty path matches") {
    const recording::Baseline baseline = baseline_of(header_line("rec-f") + "\n");
    const Json report = compared(baseline, skill_result("success", Json::array(), "verified"));
    CHECK(report.at("baseline") ==
          Json::parse(R"({"appPackage": null, "checkpointIds": [], "steps": []})"));
    CHECK(report.at("outcome") == "literal_match");
  }
  SECTION("the first package seen wins a tie") {
    const recording::Baseline baseline =
        baseline_of(header_line("rec-g") + "\n" + window_change_line(0, "com.b") + "\n" +
                    window_change_line(1, "com.a") + "\n");
    const Json report = compared(baseline, skill_result("success", Json::array(), "verified"));
    CHECK(report.at("baseline").at("appPackage") == "com.b");
  }
}

TEST_CASE("compare: a baseline that is not an export is RECORDING_COMPARE_FAILED",
          "[recording][compare]") {
  const std::string good =
      R"({"exportVersion":1,"session":{"sessionId":"s","schemaVersion":1,"startedAt":1,)"
      R"("operatorPackage":"p"},"snapshotMode":"omit","events":[],"counts":{"totalEvents":0,)"
      R"("byType":{}},"packageTransitions":[],"timeline":{"firstEventTs":null,)"
      R"("lastEventTs":null,"durationMs":null}})";
  REQUIRE(recording::parse_compare_baseline(good).has_value());
  const auto replaced = [&good](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  const std::string event =
      R"({"seq":1,"ts":2,"deltaMsSincePrevious":null,"type":"press_key","key":"back",)"
      R"("snapshot":{"present":false,"xml":null}})";
  const std::string home_key =
      R"({"seq":2,"ts":3,"deltaMsSincePrevious":1,"type":"press_key","key":"home",)"
      R"("snapshot":{"present":false,"xml":null}})";
  struct Case {
    std::string text, reason;
  };
  const std::vector<Case> cases = {
      {"{", "not valid JSON"},
      {"[]", "the document is not a JSON object"},
      {replaced("\"exportVersion\":1", "\"exportVersion\":2"), "exportVersion is not 1"},
      {replaced("\"sessionId\":\"s\"", "\"sessionId\":1"),
       "session needs sessionId, schemaVersion, startedAt and operatorPackage"},
      {replaced("\"omit\"", "\"all\""), "snapshotMode is not omit or include"},
      {replaced("\"events\":[]", "\"events\":{}"), "events is not a list of events"},
      {replaced("\"events\":[]", "\"events\":[3]"), "events is not a list of events"},
      {replaced("\"events\":[]", "\"events\":[" + event + "," + home_key + "]"),
       "events[1] is not an event of a recording export"},
      {replaced("\"totalEvents\":0", "\"totalEvents\":\"0\""),
       "counts needs totalEvents and byType numbers"},
      {replaced("\"packageTransitions\":[]", "\"packageTransitions\":[{\"seq\":1}]"),
       "packageTransitions[0] is not a package transition"},
      {replaced("\"durationMs\":null", "\"durationMs\":\"1\""),
       "timeline needs firstEventTs, lastEventTs and durationMs (numbers or null)"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto baseline = recording::parse_compare_baseline(c.text);
    REQUIRE_FALSE(baseline.has_value());
    CHECK(baseline.error().code == "RECORDING_COMPARE_FAILED");
    CHECK(baseline.error().details.at("reason") == c.reason);
  }
  const auto one_event =
      recording::parse_compare_baseline(replaced("\"events\":[]", "\"events\":[" + event + "]"));
  REQUIRE(one_event.has_value());
  REQUIRE(one_event->events.size() == 1);
  CHECK(one_event->events[0].summary == "press_key:back");

  const testing::TemporaryDirectory dir{"recording-compare-files"};
  auto missing = recording::read_compare_baseline(dir.path() / "absent.json");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code == "RECORDING_COMPARE_FAILED");
  CHECK(missing.error().details.at("errno") == ENOENT);
  auto directory = recording::read_compare_baseline(dir.path());
  REQUIRE_FALSE(directory.has_value());
  CHECK(directory.error().code == "RECORDING_COMPARE_FAILED");
  // Bounded by the size of the file, checked before a byte is parsed (a sparse file here).
  const auto huge = dir.path() / "huge.export.json";
  write_file(huge, "{");
  std::filesystem::resize_file(huge, recording::kMaxCompareBaselineBytes + 1);
  auto too_large = recording::read_compare_baseline(huge);
  REQUIRE_FALSE(too_large.has_value());
  CHECK(too_large.error().code == "RECORDING_COMPARE_FAILED");
  CHECK(too_large.error().details.at("reason") == "larger than 536870912 bytes");
}

TEST_CASE("compare: a run without a SkillResult is SKILL_RESULT_MISSING, an input error",
          "[recording][compare]") {
  const auto missing = [](const Json& document) {
    auto result = recording::skill_result_of(document, "The compare result run.json");
    REQUIRE_FALSE(result.has_value());
    const contract::HostError& error = result.error();
    CHECK(error.code == "SKILL_RESULT_MISSING");
    CHECK(contract::exit_code_of(error) == 2);
    CHECK(contract::to_json(contract::disposition_of(error)) ==
          Json{{"delivery", "not_delivered"}, {"retry", "safe"}});
    // The catalog's hint is about the run, and names the commands to type.
    const Json printed = contract::to_json(error);
    CHECK(printed.at("hint").get<std::string>().find("clawperator skills run") !=
          std::string::npos);
    CHECK(printed.at("hint").get<std::string>().find("[Clawperator-Skill-Result]") !=
          std::string::npos);
    return error;
  };
  SECTION("the script printed no result line: skillResult null") {
    const contract::HostError error = missing(Json{{"ok", true}, {"skillResult", nullptr}});
    CHECK(error.details == Json{{"reason", "skillResult is null"}});
    CHECK(error.message ==
          "The compare result run.json has skillResult null: the skill's script printed no "
          "[Clawperator-Skill-Result] line");
  }
  SECTION("a run that failed after its script printed nothing names its code") {
    const contract::HostError error =
        missing(Json{{"ok", false}, {"code", "SKILL_EXECUTION_FAILED"}, {"skillResult", nullptr}});
    CHECK(error.details.at("runCode") == "SKILL_EXECUTION_FAILED");
    CHECK(error.message.ends_with("(the run ended with SKILL_EXECUTION_FAILED)"));
  }
  SECTION("no skillResult at all: a run refused before its script, or no run") {
    const contract::HostError refused_run =
        missing(Json{{"ok", false}, {"code", "SKILL_NOT_FOUND"}});
    CHECK(refused_run.details ==
          Json{{"reason", "no skillResult"}, {"runCode", "SKILL_NOT_FOUND"}});
    CHECK(refused_run.message ==
          "The compare result run.json has no top-level skillResult: the saved run failed with "
          "SKILL_NOT_FOUND before its script ran");
    const contract::HostError other = missing(Json{{"ok", true}});
    CHECK(other.details == Json{{"reason", "no skillResult"}});
    CHECK(other.message.ends_with("it is not what `clawperator skills run --json` prints"));
  }
  SECTION("from the file: its path in details") {
    const testing::TemporaryDirectory dir{"recording-compare-missing"};
    write_file(dir.path() / "run.json", R"({"ok":true,"skillResult":null})");
    auto result = recording::read_compare_skill_result(dir.path() / "run.json");
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().code == "SKILL_RESULT_MISSING");
    CHECK(result.error().details.at("path") == (dir.path() / "run.json").string());
  }
}

TEST_CASE("compare: a result that is not a saved skills run is RECORDING_COMPARE_FAILED",
          "[recording][compare]") {
  const Json good = skill_result("success", full_path(), "verified");
  REQUIRE(recording::skill_result_of(Json{{"skillResult", good}}).has_value());
  const auto refused = [](const Json& document) {
    auto result = recording::skill_result_of(document);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().code == "RECORDING_COMPARE_FAILED");
    return result.error();
  };
  CHECK(refused(Json::array()).details.at("reason") == "not an object");
  CHECK(refused(Json{{"skillResult", "x"}}).details.at("reason") == "skillResult is not an object");

  const auto issue_of = [&](const std::function<void(Json&)>& change) {
    Json result = good;
    change(result);
    const contract::HostError error = refused(Json{{"skillResult", result}});
    CHECK(error.details.at("reason") == "invalid skillResult");
    return error.details.at("issues").at(0).get<std::string>();
  };
  CHECK(issue_of([](Json& r) { r.erase("contractVersion"); }) ==
        "contractVersion must be a string");
  CHECK(issue_of([](Json& r) { r["skillId"] = ""; }) == "skillId must not be empty");
  CHECK(issue_of([](Json& r) { r.erase("source"); }) == "source must be an object");
  CHECK(issue_of([](Json& r) {
          r["source"] = {{"kind", "agent"}};
        }) == "source.agentCli must be a string");
  CHECK(issue_of([](Json& r) { r["status"] = "ok"; }) ==
        "status must be one of success, failed, indeterminate");
  CHECK(issue_of([](Json& r) { r["checkpoints"] = Json::object(); }) ==
        "checkpoints must be a list");
  CHECK(issue_of([](Json& r) { r["checkpoints"][1]["status"] = "done"; }) ==
        "checkpoints[1].status must be one of ok, failed, skipped");
  CHECK(issue_of([](Json& r) { r["checkpoints"][0]["note"] = nullptr; }) ==
        "checkpoints[0].note must be a string");
  CHECK(issue_of([](Json& r) {
          r["checkpoints"][0]["evidence"] = {{"kind", "result_envelope_ref"},
                                             {"execEnvelopeIndex", -1}};
        }) == "checkpoints[0].evidence.execEnvelopeIndex must be a whole number, 0 or more");
  CHECK(issue_of([](Json& r) {
          r["terminalVerification"] = {{"status", "yes"}};
        }) == "terminalVerification.status must be one of verified, failed, not_run");
  CHECK(issue_of([](Json& r) { r["goal"] = Json::array(); }) == "goal must be an object");
  CHECK(issue_of([](Json& r) {
          r["execEnvelopes"] = Json::array({{{"commandId", "c"},
                                             {"taskId", "t"},
                                             {"status", "success"},
                                             {"stepResults", Json::array({{{"id", "1"}}})}}});
        }) == "execEnvelopes[0].stepResults[0].actionType must be a string");
  CHECK(issue_of([](Json& r) {
          r["diagnostics"] = {{"runtimeState", "sick"}};
        }) == "diagnostics.runtimeState must be one of healthy, poisoned, unavailable, unknown");
  CHECK(issue_of([](Json& r) {
          r["diagnostics"] = {{"hints", Json::array({1})}};
        }) == "diagnostics.hints must be a list of strings");

  // What the schema allows: unknown keys, a null terminal verification, evidence of each kind.
  Json lenient = good;
  lenient["extra"] = true;
  lenient["terminalVerification"] = nullptr;
  lenient["checkpoints"][0]["evidence"] = {{"kind", "json"}, {"value", nullptr}};
  lenient["checkpoints"][1]["evidence"] = {{"kind", "result_envelope_ref"},
                                           {"execEnvelopeIndex", 2.0}};
  CHECK(recording::skill_result_of(Json{{"skillResult", lenient}}).has_value());

  const testing::TemporaryDirectory dir{"recording-compare-result"};
  write_file(dir.path() / "run.json", "{\"skillResult\":");
  auto unreadable = recording::read_compare_skill_result(dir.path() / "run.json");
  REQUIRE_FALSE(unreadable.has_value());
  CHECK(unreadable.error().details.at("reason") == "not valid JSON");
  auto absent = recording::read_compare_skill_result(dir.path() / "none.json");
  REQUIRE_FALSE(absent.has_value());
  CHECK(absent.error().code == "RECORDING_COMPARE_FAILED");
}
