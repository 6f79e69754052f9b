// What the compare tests share (compare_test.cpp, compare_steps_test.cpp): a recording's lines
// exported and read back as the baseline, a SkillResult of given checkpoints, and a comparison
// checked for agreeing with its own outcome.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "clawperator/recording/compare.hpp"
#include "clawperator/recording/export.hpp"
#include "recording_lines.hpp"
#include "test_files.hpp"

namespace clawperator::test_recording {

inline constexpr const char* kApp = "com.example.app";

inline recording::Baseline baseline_of(const std::string& ndjson, bool snapshots = false) {
  const testing::TemporaryDirectory dir{"recording-compare"};
  const auto input = dir.path() / "rec.ndjson";
  testing::write_file(input, ndjson);
  recording::ExportOptions options{
      input, std::nullopt,
      snapshots ? recording::SnapshotMode::Include : recording::SnapshotMode::Omit};
  REQUIRE(recording::export_recording(options).has_value());
  auto baseline = recording::read_compare_baseline(dir.path() / "rec.export.json");
  INFO((baseline ? std::string() : dump_json(contract::to_json(baseline.error()))));
  REQUIRE(baseline.has_value());
  return std::move(*baseline);
}

inline Json checkpoint(const std::string& id, const std::string& status = "ok") {
  return Json{{"id", id}, {"status", status}};
}

inline Json skill_result(const std::string& status, Json checkpoints, const Json& verification,
                         const std::string& kind = "script") {
  Json result = Json::object();
  result["contractVersion"] = "1.0.0";
  result["skillId"] = "com.example.app.save";
  result["source"] =
      kind == "agent" ? Json{{"kind", "agent"}, {"agentCli", "codex"}} : Json{{"kind", "script"}};
  result["status"] = status;
  result["checkpoints"] = std::move(checkpoints);
  if (!verification.is_null()) result["terminalVerification"] = {{"status", verification}};
  return result;
}

// The report; `diverged` must agree with its outcome.
inline Json compared(const recording::Baseline& baseline, const Json& result,
                     recording::CompareMode mode = recording::CompareMode::Auto) {
  auto checked = recording::skill_result_of(Json{{"skillResult", result}});
  REQUIRE(checked.has_value());
  auto report = recording::compare_with_skill_result(baseline, *checked, mode);
  REQUIRE(report.has_value());
  const std::string outcome = report->document.at("outcome").get<std::string>();
  CHECK(report->diverged == (outcome != "literal_match" && outcome != "semantic_match" &&
                             outcome != "outcome_matches_path_differs"));
  return report->document;
}

}  // namespace clawperator::test_recording
