// export: every event in seq order with its delta, the snapshot kept or omitted, counts by type,
// package transitions and the timeline; a directory exports its newest recording.
#include "clawperator/recording/export.hpp"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "recording_lines.hpp"
#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using clawperator::testing::write_file;

namespace {

std::string export_sample() {
  ClickFields ok;
  ok.text = "OK";
  ok.package = "com.example.app";
  return header_line("rec-9") + "\n" + window_change_line(0, "com.example.app", "<a/>") + "\n" +
         click_line(1, ok, "<b/>") + "\n" + window_change_line(3, "com.other", "<c/>") + "\n" +
         press_back_line(4) + "\n" + window_change_line(2, "com.example.app") + "\n";
}

}  // namespace

TEST_CASE("export: both snapshot modes, counts, transitions and the timeline",
          "[recording][export]") {
  const testing::TemporaryDirectory dir{"recording-export"};
  const auto input = dir.path() / "rec-9.ndjson";
  write_file(input, export_sample());
  for (const auto mode : {recording::SnapshotMode::Omit, recording::SnapshotMode::Include}) {
    const bool include = mode == recording::SnapshotMode::Include;
    INFO(recording::to_string(mode));
    auto exported = recording::export_recording({input, std::nullopt, mode});
    REQUIRE(exported.has_value());
    const auto output = dir.path() / "rec-9.export.json";
    const Json by_type = {
        {"window_change", 3}, {"click", 1}, {"scroll", 0}, {"press_key", 1}, {"text_change", 0}};
    CHECK(*exported == Json({{"ok", true},
                             {"outputFile", output.string()},
                             {"sessionId", "rec-9"},
                             {"eventCount", 5},
                             {"packageTransitionCount", 1},
                             {"byType", by_type}}));
    const Json file = parse_json(test::file_text(output));
    REQUIRE(file.is_object());
    CHECK(file.at("exportVersion") == 1);
    CHECK(file.at("session") == Json({{"sessionId", "rec-9"},
                                      {"schemaVersion", 1},
                                      {"startedAt", 1710000000000LL},
                                      {"operatorPackage", "com.clawperator.operator"}}));
    CHECK(file.at("snapshotMode") == (include ? "include" : "omit"));
    const Json& events = file.at("events");
    REQUIRE(events.size() == 5);
    std::vector<int> seqs;
    for (const Json& event : events) seqs.push_back(event.at("seq").get<int>());
    CHECK(seqs == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(events.at(0).at("deltaMsSincePrevious").is_null());
    CHECK(events.at(1).at("deltaMsSincePrevious") == 100);
    // The key order: seq, ts, delta, type, the event's own fields, the snapshot last.
    std::vector<std::string> keys;
    for (const auto& [key, value] : events.at(1).items()) keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"seq", "ts", "deltaMsSincePrevious", "type",
                                           "packageName", "resourceId", "text", "contentDesc",
                                           "bounds", "snapshot"});
    CHECK(events.at(1).at("snapshot") ==
          Json({{"present", true}, {"xml", include ? Json("<b/>") : Json(nullptr)}}));
    CHECK(events.at(2).at("snapshot") == Json({{"present", false}, {"xml", nullptr}}));
    CHECK(file.at("counts") == Json({{"totalEvents", 5}, {"byType", by_type}}));
    // app (0, 1, 2) -> other (3); press_key names no package.
    const Json& transitions = file.at("packageTransitions");
    REQUIRE(transitions.size() == 1);
    CHECK(transitions.at(0) == Json({{"seq", 3},
                                     {"ts", 1710000000400LL},
                                     {"fromPackageName", "com.example.app"},
                                     {"toPackageName", "com.other"}}));
    CHECK(file.at("timeline") == Json({{"firstEventTs", 1710000000100LL},
                                       {"lastEventTs", 1710000000500LL},
                                       {"durationMs", 400}}));
  }
}

TEST_CASE("export: a header-only recording has empty events, transitions and timeline",
          "[recording][export]") {
  const testing::TemporaryDirectory dir{"recording-export-empty"};
  const auto input = dir.path() / "only.ndjson";
  write_file(input, header_line("only") + "\n");
  auto exported =
      recording::export_recording({input, dir.path() / "out.json", recording::SnapshotMode::Omit});
  REQUIRE(exported.has_value());
  CHECK(exported->at("eventCount") == 0);
  const Json file = parse_json(test::file_text(dir.path() / "out.json"));
  REQUIRE(file.is_object());
  CHECK(file.at("events") == Json::array());
  CHECK(file.at("packageTransitions") == Json::array());
  CHECK(file.at("timeline") ==
        Json({{"firstEventTs", nullptr}, {"lastEventTs", nullptr}, {"durationMs", nullptr}}));
}

TEST_CASE("export: the transitions count is what the file lists", "[recording][export]") {
  const testing::TemporaryDirectory dir{"recording-export-transitions"};
  const auto input = dir.path() / "t.ndjson";
  std::string content = header_line() + "\n";
  for (int seq = 0; seq < 6; ++seq)
    content += window_change_line(seq, seq % 2 == 0 ? "com.a" : "com.b") + "\n";
  write_file(input, content);
  auto exported = recording::export_recording({input, std::nullopt, recording::SnapshotMode::Omit});
  REQUIRE(exported.has_value());
  CHECK(exported->at("packageTransitionCount") == 5);
  const Json file = parse_json(test::file_text(dir.path() / "t.export.json"));
  CHECK(file.at("packageTransitions").size() == 5);
  CHECK(file.at("packageTransitions").at(4).at("toPackageName") == "com.b");
}

TEST_CASE("export: a directory exports its newest recording; ties by the greater name",
          "[recording][export]") {
  const testing::TemporaryDirectory dir{"recording-export-dir"};
  write_file(dir.path() / "record-1.ndjson", header_line("record-1") + "\n");
  write_file(dir.path() / "record-3.ndjson", header_line("record-3") + "\n");
  write_file(dir.path() / "record-2.ndjson", header_line("record-2") + "\n");
  write_file(dir.path() / "notes.txt", "not a recording");
  const auto now = std::filesystem::file_time_type::clock::now();
  std::filesystem::last_write_time(dir.path() / "record-1.ndjson", now);
  std::filesystem::last_write_time(dir.path() / "record-3.ndjson", now - std::chrono::hours(1));
  std::filesystem::last_write_time(dir.path() / "record-2.ndjson", now - std::chrono::hours(1));
  std::filesystem::last_write_time(dir.path() / "notes.txt", now + std::chrono::hours(1));
  auto exported =
      recording::export_recording({dir.path(), std::nullopt, recording::SnapshotMode::Omit});
  REQUIRE(exported.has_value());
  CHECK(exported->at("sessionId") == "record-1");
  CHECK(exported->at("outputFile") == (dir.path() / "record-1.export.json").string());

  std::filesystem::last_write_time(dir.path() / "record-1.ndjson", now - std::chrono::hours(2));
  exported = recording::export_recording({dir.path(), std::nullopt, recording::SnapshotMode::Omit});
  REQUIRE(exported.has_value());
  CHECK(exported->at("sessionId") == "record-3");

  const testing::TemporaryDirectory empty{"recording-export-none"};
  exported =
      recording::export_recording({empty.path(), std::nullopt, recording::SnapshotMode::Omit});
  REQUIRE_FALSE(exported.has_value());
  CHECK(exported.error().code == "RECORDING_EXPORT_FAILED");
  CHECK(exported.error().message == "No .ndjson recording in directory " + empty.path().string());
}

TEST_CASE(
    "export: a bad recording keeps the reader's codes; the output's failures are export "
    "failures",
    "[recording][export]") {
  const testing::TemporaryDirectory dir{"recording-export-bad"};
  const auto input = dir.path() / "v2.ndjson";
  write_file(input, header_line("s", 2) + "\n");
  auto exported = recording::export_recording({input, std::nullopt, recording::SnapshotMode::Omit});
  REQUIRE_FALSE(exported.has_value());
  CHECK(exported.error().code == "RECORDING_SCHEMA_VERSION_UNSUPPORTED");

  write_file(input, header_line() + "\n");
  exported = recording::export_recording(
      {input, dir.path() / "missing" / "out.json", recording::SnapshotMode::Omit});
  REQUIRE_FALSE(exported.has_value());
  CHECK(exported.error().code == "RECORDING_EXPORT_FAILED");
  CHECK(exported.error().details.at("errno") == ENOENT);
}
