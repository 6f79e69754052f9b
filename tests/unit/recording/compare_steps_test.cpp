// compare of any skill: the steps derived from what the recording did, what a checkpoint names,
// the alignment of the two by what they did (docs/recording.md, "Steps and checkpoints"), the
// original's four ids beside it, and what is reported when either side has no counterpart.
#include "clawperator/recording/compare_steps.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "compare_fixture.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using recording::RecordedStep;
using recording::StepKind;

namespace {

constexpr const char* kSettings = "com.android.settings";
constexpr const char* kSearchBar = "com.android.settings:id/search_action_bar";

std::string lines(const std::vector<std::string>& events) {
  std::string text = header_line("rec-steps") + "\n";
  for (const std::string& event : events) text += event + "\n";
  return text;
}

ClickFields click_on(const Json& resource_id, const Json& text, const Json& description = nullptr,
                     const std::string& package = kApp) {
  ClickFields fields;
  fields.resource_id = resource_id;
  fields.text = text;
  fields.content_desc = description;
  fields.package = package;
  return fields;
}

// What a person did in Settings (as tests/integration/recording_test.cpp does on the virtual
// device): opened it, tapped the search bar, typed "wifi" in two keystrokes' worth, went back.
recording::Baseline settings_search() {
  const std::string field = "android:id/search_src_text";
  return baseline_of(lines({
      window_change_line(0, kSettings, "", "Settings"),
      click_line(1, click_on(kSearchBar, "Search settings", nullptr, kSettings)),
      window_change_line(2, kSettings, "", "Settings"),
      text_change_line(3, "wi", kSettings, field),
      text_change_line(4, "wifi", kSettings, field),
      press_back_line(5),
      window_change_line(6, kSettings, "", "Settings"),
  }));
}

Json noted(const std::string& id, const std::string& note, const std::string& status = "ok") {
  return Json{{"id", id}, {"status", status}, {"note", note}};
}

Json with_evidence(const std::string& id, const Json& evidence) {
  return Json{{"id", id}, {"status", "ok"}, {"evidence", evidence}};
}

// The settings skill's own checkpoints, each saying what it did another way.
Json settings_path() {
  return Json::array({
      with_evidence("settings_launched",
                    {{"kind", "json"}, {"value", {{"openedPackage", kSettings}}}}),
      noted("search_opened", std::string("clicked ") + kSearchBar),
      with_evidence("query_typed", {{"kind", "text"}, {"text", "wifi"}}),
      noted("back_home", "pressed back to Settings"),
  });
}

std::vector<std::string> ids_of(const std::vector<RecordedStep>& steps) {
  std::vector<std::string> ids;
  for (const RecordedStep& step : steps) ids.push_back(step.id);
  return ids;
}

RecordedStep step_named(StepKind kind, std::vector<std::string> names) {
  RecordedStep step;
  step.id = std::string(recording::to_string(kind));
  step.kind = kind;
  step.names = std::move(names);
  return step;
}

}  // namespace

TEST_CASE("compare steps: the app opened, each tap, each text entered, the final screen last",
          "[recording][compare]") {
  const std::string title = "com.example.app:id/title", body = "com.example.app:id/body";
  const std::string keyboard = "com.google.android.inputmethod.latin";
  const recording::Baseline baseline = baseline_of(lines({
      window_change_line(0, kApp, "", "Example Notes"),
      click_line(1, click_on("com.example.app:id/new_note", "New note")),
      text_change_line(2, "H", kApp, title),
      // The keyboard's window and a scroll do not end the entry; back keys make no step.
      window_change_line(3, keyboard, "", "Keyboard"),
      text_change_line(4, "Hello", kApp, title),
      scroll_line(5),
      text_change_line(6, "Hello!", kApp, title),
      // Another field ends it; a blank text makes no entry.
      text_change_line(7, "  ", kApp, body),
      text_change_line(8, "World", kApp, body),
      text_change_line(9, "", kApp, body),
      click_line(10, click_on(nullptr, nullptr, " Done ")),
      // After a tap, the same field is a new entry.
      text_change_line(11, "x", kApp, title),
      press_back_line(12),
      click_line(13, click_on(nullptr, "Elsewhere", nullptr, keyboard)),
      window_change_line(14, kApp, "", "Notes list"),
  }));
  const auto app = recording::primary_package(baseline);
  REQUIRE(app == std::string(kApp));
  const auto originals = recording::original_checkpoints(baseline, app);
  const std::vector<RecordedStep> steps = recording::recorded_steps(baseline, app, originals);
  CHECK(ids_of(steps) == std::vector<std::string>{"app_opened", "tap_1", "text_entered_1",
                                                  "text_entered_2", "tap_2", "text_entered_3",
                                                  "final_screen"});
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].names == std::vector<std::string>{kApp, "Example Notes"});
  CHECK(steps[1].names == std::vector<std::string>{"com.example.app:id/new_note", "New note"});
  // An entry is its field's last text that is not blank, at that text's seq.
  CHECK(steps[2].names == std::vector<std::string>{"Hello!"});
  CHECK(steps[2].seq == 6);
  CHECK(steps[2].summary == "text_change:com.example.app:com.example.app:id/title");
  CHECK(steps[3].names == std::vector<std::string>{"World"});
  CHECK(steps[3].seq == 8);
  CHECK(steps[4].names == std::vector<std::string>{"Done"});
  CHECK(steps[5].seq == 11);
  CHECK(steps[6].kind == StepKind::FinalScreen);
  CHECK(steps[6].names == std::vector<std::string>{kApp, "Notes list"});
  CHECK(steps[6].seq == 14);
  // The original's rule: the first window change, the last text that is not blank.
  CHECK(steps[0].original_ids == std::vector<std::string_view>{"app_opened"});
  CHECK(steps[5].original_ids == std::vector<std::string_view>{"target_text_entered"});
  CHECK(steps[2].original_ids.empty());
  CHECK(steps[6].original_ids.empty());

  SECTION("one window change is both the app opened and the final screen") {
    const recording::Baseline single =
        baseline_of(lines({window_change_line(0, kApp), click_line(1, click_on(nullptr, "Go"))}));
    const auto single_app = recording::primary_package(single);
    const auto single_steps = recording::recorded_steps(
        single, single_app, recording::original_checkpoints(single, single_app));
    CHECK(ids_of(single_steps) == std::vector<std::string>{"app_opened", "tap_1", "final_screen"});
    CHECK(single_steps[2].seq == 0);
  }
  SECTION("no window change: no app opened, no final screen") {
    const recording::Baseline taps = baseline_of(lines({click_line(0, click_on(nullptr, "Go"))}));
    const auto taps_app = recording::primary_package(taps);
    CHECK(ids_of(recording::recorded_steps(taps, taps_app, {})) ==
          std::vector<std::string>{"tap_1"});
  }
}

TEST_CASE("compare steps: a text names a step ignoring case, at word boundaries, longest first",
          "[recording][compare]") {
  const std::vector<RecordedStep> steps = {
      step_named(StepKind::AppOpened, {kSettings, "Settings"}),
      step_named(StepKind::Tap, {kSearchBar, "Search settings"}),
      step_named(StepKind::Tap, {"OK"}),
      step_named(StepKind::TextEntered, {"wifi"}),
      step_named(StepKind::Tap, {"Wi-Fi"}),
      step_named(StepKind::TextEntered, {"42"}),
      step_named(StepKind::Tap, {"\xC3\x89"
                                 "cran"}),  // Écran
      step_named(StepKind::Tap, {"+"}),
  };
  const auto named = [&steps](const std::string& text) {
    return recording::steps_named_in(steps, text);
  };
  using Steps = std::vector<std::size_t>;
  // The package and the title inside the id are not named: the id is.
  CHECK(named(std::string("clicked ") + kSearchBar) == Steps{1});
  CHECK(named("Opened Settings") == Steps{0});
  CHECK(named("opened com.android.settings") == Steps{0});
  // "settings" inside "search settings" is the tap's, not the window's.
  CHECK(named("SEARCH SETTINGS shown") == Steps{1});
  CHECK(named("took the screenshot").empty());
  CHECK(named("pressed OK.") == Steps{2});
  CHECK(named("typed \"wifi\"") == Steps{3});
  CHECK(named("Wi-Fi is on") == Steps{4});
  CHECK(named("4242").empty());
  CHECK(named("the answer: 42") == Steps{5});
  CHECK(named("\xC3\xA9"
              "cran ouvert") == Steps{6});  // écran, in lower case
  CHECK(named("a+b") == Steps{7});          // no word to bound
  CHECK(named("OK then wifi") == Steps{2, 3});
}

TEST_CASE("compare steps: a checkpoint's texts are its note, its evidence and its JSON's scalars",
          "[recording][compare]") {
  const Json result = skill_result(
      "success",
      Json::array({
          Json{{"id", "a"},
               {"status", "ok"},
               {"note", "tapped OK"},
               {"evidence",
                {{"kind", "json"},
                 {"value", {{"typed", "Ann"}, {"list", Json::array({42, true, nullptr, 1.5})}}}}}},
          Json{{"id", "b"}, {"status", "skipped"}, {"evidence", {{"kind", "text"}, {"text", "x"}}}},
          Json{{"id", "c"},
               {"status", "ok"},
               {"evidence", {{"kind", "result_envelope_ref"}, {"execEnvelopeIndex", 0}}}},
          checkpoint("terminal_state_verified"),
      }),
      nullptr);
  const auto reported = recording::reported_checkpoints(result);
  REQUIRE(reported.size() == 3);
  CHECK(reported[0].texts == std::vector<std::string>{"tapped OK", "Ann", "42", "1.5"});
  CHECK(reported[0].note == "tapped OK");
  CHECK(reported[1].texts == std::vector<std::string>{"x"});
  CHECK(reported[1].status == "skipped");
  CHECK(reported[2].texts.empty());
  // terminal_state_verified states the end; so does a terminalVerification object.
  CHECK(recording::states_its_end(result));
  CHECK_FALSE(recording::states_its_end(skill_result("success", Json::array(), nullptr)));
  CHECK(recording::states_its_end(skill_result("success", Json::array(), "not_run")));
}

TEST_CASE("compare steps: a skill with its own ids matches by what its checkpoints did",
          "[recording][compare]") {
  const recording::Baseline baseline = settings_search();
  SECTION("every checkpoint names its step, in order: a literal match") {
    const Json report = compared(baseline, skill_result("success", settings_path(), "verified"));
    CHECK(report.at("outcome") == "literal_match");
    CHECK(report.at("pathMatches") == true);
    CHECK(report.at("pathMatchedBy") == "recorded_steps");
    CHECK_FALSE(report.contains("firstDivergence"));
    // The original's ids of this recording are still listed; the skill reported none of them.
    CHECK(report.at("baseline").at("checkpointIds") ==
          Json::array({"app_opened", "target_text_entered"}));
    CHECK(report.at("actual").at("checkpointIds") ==
          Json::array({"settings_launched", "search_opened", "query_typed", "back_home"}));
    CHECK(report.at("actual").at("matchedSteps") ==
          Json::array({"app_opened", "tap_1", "text_entered_1", "final_screen"}));
    CHECK(report.at("unmatchedCheckpoints") == Json::array());
    CHECK(report.at("uncoveredSteps") == Json::array());
    const Json& steps = report.at("baseline").at("steps");
    REQUIRE(steps.size() == 4);
    CHECK(steps[1] == Json::parse(R"({"id": "tap_1", "kind": "tap", "seq": 1,
      "summary": "click:com.android.settings:search settings",
      "names": ["com.android.settings:id/search_action_bar", "Search settings"],
      "checkpointIds": [], "coveredBy": 1})"));
    CHECK(steps[2].at("names") == Json::array({"wifi"}));
    CHECK(steps[2].at("checkpointIds") == Json::array({"target_text_entered"}));
    CHECK(steps[3].at("coveredBy") == 3);
    // An agent's run: semantic.
    CHECK(compared(baseline, skill_result("success", settings_path(), "verified", "agent"))
              .at("outcome") == "semantic_match");
  }
  SECTION("the final screen without a checkpoint: the statement of the end covers it") {
    Json path = settings_path();
    path.erase(3);
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("outcome") == "literal_match");
    CHECK(report.at("baseline").at("steps")[3].at("coveredBy") == "terminal");
    // Nothing states the end: the final screen is a step no checkpoint covers.
    const Json unstated = compared(baseline, skill_result("success", path, nullptr));
    CHECK(unstated.at("outcome") == "baseline_drift");
    CHECK(unstated.at("pathMatchedBy").is_null());
    CHECK(unstated.at("uncoveredSteps") ==
          Json::parse(R"([{"id": "final_screen", "kind": "final_screen",
                           "summary": "window_change:com.android.settings"}])"));
    CHECK(unstated.at("firstDivergence") == Json::parse(R"({
      "index": 3, "baselineCheckpoint": "final_screen",
      "actualCheckpoint": "missing_expected_checkpoint", "baselineStatus": "ok",
      "actualStatus": null, "baselineSummary": "window_change:com.android.settings"})"));
  }
}

TEST_CASE("compare steps: where names repeat, order decides", "[recording][compare]") {
  // No window change: the taps and the text are the whole flow.
  const recording::Baseline baseline = baseline_of(lines({
      click_line(1, click_on(nullptr, "OK")),
      text_change_line(2, "Ann"),
      click_line(3, click_on(nullptr, "OK")),
  }));
  const Json path = Json::array({noted("first", "pressed OK"), noted("named", "typed Ann"),
                                 noted("second", "pressed OK again")});
  const Json report = compared(baseline, skill_result("success", path, "verified"));
  CHECK(report.at("actual").at("matchedSteps") ==
        Json::array({"tap_1", "text_entered_1", "tap_2"}));
  CHECK(report.at("outcome") == "literal_match");

  // The same "OK" after the text is the second tap: the first is passed over.
  const Json skipped =
      compared(baseline, skill_result("success", Json::array({path[1], path[2]}), "verified"));
  CHECK(skipped.at("actual").at("matchedSteps") == Json::array({"text_entered_1", "tap_2"}));
  CHECK(skipped.at("outcome") == "baseline_drift");
  CHECK(skipped.at("uncoveredSteps").size() == 1);
  CHECK(skipped.at("uncoveredSteps")[0].at("id") == "tap_1");
  CHECK(skipped.at("firstDivergence") == Json::parse(R"({
    "index": 0, "baselineCheckpoint": "tap_1", "actualCheckpoint": "named",
    "baselineStatus": "ok", "actualStatus": "ok", "baselineSummary": "click:com.example.app:ok",
    "actualNote": "typed Ann"})"));
}

TEST_CASE("compare steps: a checkpoint without a step and a step without a checkpoint",
          "[recording][compare]") {
  const recording::Baseline baseline = settings_search();
  SECTION("a checkpoint that names nothing the recording did") {
    Json path = settings_path();
    path.insert(path.begin() + 2, noted("dark_mode_on", "toggled Dark theme"));
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("outcome") == "baseline_drift");
    CHECK(report.at("unmatchedCheckpoints") ==
          Json::parse(R"([{"index": 2, "id": "dark_mode_on", "status": "ok"}])"));
    CHECK(report.at("actual").at("matchedSteps")[2].is_null());
    CHECK(report.at("uncoveredSteps") == Json::array());
    // Where it stands, the recording typed the query.
    CHECK(report.at("firstDivergence") == Json::parse(R"({
      "index": 2, "baselineCheckpoint": "text_entered_1", "actualCheckpoint": "dark_mode_on",
      "baselineStatus": "ok", "actualStatus": "ok",
      "baselineSummary": "text_change:com.android.settings:android:id/search_src_text",
      "actualNote": "toggled Dark theme"})"));
    CHECK(report.at("summary") ==
          "first meaningful divergence at baseline checkpoint text_entered_1");
    // An agent reached the verified end by another path.
    CHECK(compared(baseline, skill_result("success", path, "verified", "agent")).at("outcome") ==
          "outcome_matches_path_differs");
  }
  SECTION("a checkpoint after the recording's last step is an extra one") {
    Json path = settings_path();
    path.erase(3);
    path.push_back(noted("receipt", "printed a receipt"));
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("firstDivergence").at("baselineCheckpoint") == "unexpected_extra_checkpoint");
    CHECK(report.at("firstDivergence").at("index") == 3);
  }
  SECTION("a checkpoint out of the recording's order matches nothing") {
    const Json path = Json::array({settings_path()[0], settings_path()[2], settings_path()[1]});
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("actual").at("matchedSteps") ==
          Json::array({"app_opened", "text_entered_1", nullptr}));
    CHECK(report.at("uncoveredSteps")[0].at("id") == "tap_1");
    CHECK(report.at("firstDivergence").at("baselineCheckpoint") == "tap_1");
  }
  SECTION("a step no checkpoint covers, at the end of a failed run") {
    const Json path = Json::array({settings_path()[0], settings_path()[1]});
    const Json report = compared(baseline, skill_result("failed", path, nullptr));
    CHECK(report.at("outcome") == "upstream_failure");
    CHECK(report.at("uncoveredSteps").size() == 2);
    CHECK(report.at("firstDivergence").at("index") == 2);
    CHECK(report.at("firstDivergence").at("baselineCheckpoint") == "text_entered_1");
    CHECK(report.at("firstDivergence").at("actualCheckpoint") ==
          "failed_before_expected_checkpoint");
  }
  SECTION("a checkpoint that matched but did not succeed") {
    Json path = settings_path();
    path[1]["status"] = "failed";
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("actual").at("matchedSteps")[1] == "tap_1");
    CHECK(report.at("firstDivergence").at("baselineCheckpoint") == "tap_1");
    CHECK(report.at("firstDivergence").at("actualStatus") == "failed");
    CHECK(report.at("pathMatches") == false);
  }
}

TEST_CASE("compare steps: the original's ids beside a skill's own", "[recording][compare]") {
  ClickFields cancel;
  cancel.text = "Cancel";
  const recording::Baseline baseline = baseline_of(lines({
      window_change_line(0, kApp),
      click_line(1, click_on("com.example.app:id/discharge_row", "Discharge to")),
      text_change_line(2, "42"),
      click_line(3, cancel),
      click_line(4, click_on(nullptr, nullptr, "Save")),
  }));
  SECTION("the original's four compare by id, as before; the extra tap is reported") {
    const Json path =
        Json::array({checkpoint("app_opened"), checkpoint("discharge_to_row_focused"),
                     checkpoint("target_text_entered"), checkpoint("save_completed")});
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("outcome") == "literal_match");
    CHECK(report.at("pathMatchedBy") == "checkpoint_ids");
    CHECK(report.at("uncoveredSteps") ==
          Json::parse(
              R"([{"id": "tap_2", "kind": "tap", "summary": "click:com.example.app:cancel"}])"));
  }
  SECTION("an original id names its step; the skill's own ids name theirs") {
    const Json path = Json::array({checkpoint("app_opened"), noted("row", "tapped Discharge to"),
                                   checkpoint("target_text_entered"), noted("cancelled", "Cancel"),
                                   checkpoint("save_completed")});
    const Json report = compared(baseline, skill_result("success", path, "verified"));
    CHECK(report.at("outcome") == "literal_match");
    CHECK(report.at("pathMatchedBy") == "recorded_steps");
    CHECK(report.at("actual").at("matchedSteps") ==
          Json::array({"app_opened", "tap_1", "text_entered_1", "tap_2", "tap_3"}));
  }
  SECTION("an original id the recording has no event for is matched by what it says") {
    const recording::Baseline plain = baseline_of(
        lines({window_change_line(0, kApp), click_line(1, click_on(nullptr, "Store"))}));
    const Json path = Json::array({checkpoint("app_opened"), noted("save_completed", "Store")});
    const Json report = compared(plain, skill_result("success", path, "verified"));
    CHECK(report.at("baseline").at("checkpointIds") == Json::array({"app_opened"}));
    CHECK(report.at("pathMatchedBy") == "recorded_steps");
  }
}

TEST_CASE("compare steps: matching that would cost too much is refused", "[recording][compare]") {
  // 2^16 bytes of names times 2^16 + 1 bytes of notes: just past the bound.
  const std::vector<RecordedStep> steps = {
      step_named(StepKind::Tap, {std::string(std::size_t{1} << 16, 'a')})};
  recording::ReportedCheckpoint checkpoint;
  checkpoint.id = "long";
  checkpoint.status = "ok";
  checkpoint.texts = {std::string((std::size_t{1} << 16) + 1, 'b')};
  auto refused = recording::align_checkpoints(steps, {checkpoint}, true);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == "RECORDING_COMPARE_FAILED");
  CHECK(refused.error().details.at("reason") == "too large to match");
  CHECK(refused.error().details.at("stepNameBytes") == 65536);
  checkpoint.texts[0].pop_back();
  auto aligned = recording::align_checkpoints(steps, {checkpoint}, true);
  REQUIRE(aligned.has_value());
  CHECK_FALSE(aligned->step_of_checkpoint[0].has_value());
}
