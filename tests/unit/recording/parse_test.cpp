// parse: the original's steps (open_app from the first window change, a click step per click,
// scroll and snapshot warnings, seq order) in the original's file layout, written atomically.
#include "clawperator/recording/parse.hpp"

#include <catch2/catch.hpp>
#include <vector>

#include "recording_lines.hpp"
#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using clawperator::testing::write_file;

namespace {

struct ParsedFile {
  Json document;  // the command's output
  std::string text;
  Json steps_file;
};

ParsedFile parse_lines(const std::vector<std::string>& lines, const std::string& ending = "\n") {
  const testing::TemporaryDirectory dir{"recording-parse"};
  const auto input = dir.path() / "rec-1.ndjson";
  std::string content;
  for (const std::string& line : lines) content += line + ending;
  write_file(input, content);
  auto parsed = recording::parse_recording({input, std::nullopt, nullptr});
  REQUIRE(parsed.has_value());
  const auto output = dir.path() / "rec-1.steps.json";
  CHECK(parsed->at("outputFile") == output.string());
  ParsedFile result{*parsed, test::file_text(output), Json()};
  result.steps_file = parse_json(result.text);
  REQUIRE(result.steps_file.is_object());
  return result;
}

Json bounds(int left, int top, int right, int bottom) {
  return {{"left", left}, {"top", top}, {"right", right}, {"bottom", bottom}};
}

}  // namespace

TEST_CASE("parse: open_app from the first window change and a click step with every field",
          "[recording][parse]") {
  ClickFields ok;
  ok.resource_id = "com.example.app:id/ok";
  ok.text = "OK";
  ok.content_desc = "Confirm";
  ok.left = 10, ok.top = 20, ok.right = 110, ok.bottom = 80;
  const auto parsed =
      parse_lines({header_line("rec-1"), window_change_line(0, "com.example.app", "<a/>"),
                   window_change_line(1, "com.example.app", "<b/>"), click_line(2, ok, "<c/>"),
                   window_change_line(3, "com.other", "<d/>")});
  // The whole file as JSON.stringify(stepLog, null, 2) writes it: no trailing newline.
  Json expected = Json::object();
  expected["sessionId"] = "rec-1";
  expected["schemaVersion"] = 1;
  expected["steps"] = Json::array();
  expected["steps"].push_back({{"seq", 0},
                               {"type", "open_app"},
                               {"packageName", "com.example.app"},
                               {"uiStateBefore", "<a/>"}});
  expected["steps"].push_back({{"seq", 2},
                               {"type", "click"},
                               {"packageName", "com.example.app"},
                               {"resourceId", "com.example.app:id/ok"},
                               {"text", "OK"},
                               {"contentDesc", "Confirm"},
                               {"bounds", bounds(10, 20, 110, 80)},
                               {"uiStateBefore", "<c/>"}});
  CHECK(parsed.text == dump_json(expected, true));
  CHECK(parsed.document ==
        Json::parse(R"({"ok":true,"outputFile":")" +
                    parsed.document.at("outputFile").get<std::string>() + R"(","stepCount":2})"));
}

TEST_CASE("parse: scrolls dropped with one warning each; text changes and back dropped silently",
          "[recording][parse]") {
  const auto parsed =
      parse_lines({header_line(), window_change_line(0, "com.example.app", "<a/>"), scroll_line(1),
                   text_change_line(2, "hello"), press_back_line(3, "<x/>"), scroll_line(4)});
  CHECK(parsed.steps_file.at("steps").size() == 1);
  const Json warnings = Json::array({"seq 1: scroll event dropped (not extracted in v1)",
                                     "seq 4: scroll event dropped (not extracted in v1)"});
  CHECK(parsed.steps_file.at("_warnings") == warnings);
  CHECK(parsed.document.at("warnings") == warnings);
  CHECK(parsed.document.at("stepCount") == 1);
  CHECK_FALSE(parsed.document.contains("warningsOmitted"));
}

TEST_CASE("parse: no _warnings key when clean; a missing snapshot gives exactly one warning",
          "[recording][parse]") {
  const auto clean = parse_lines({header_line(), window_change_line(0, "com.example.app", "<a/>")});
  CHECK_FALSE(clean.steps_file.contains("_warnings"));
  CHECK_FALSE(clean.document.contains("warnings"));

  ClickFields ok;
  ok.text = "OK";
  // A click whose snapshot key is absent, not null: the same as null.
  Json without = parse_json(click_line(1, ok));
  without.erase("snapshot");
  const auto parsed =
      parse_lines({header_line(), window_change_line(0, "com.example.app"), dump_json(without)});
  CHECK(parsed.steps_file.at("steps").at(0).at("uiStateBefore").is_null());
  CHECK(parsed.steps_file.at("steps").at(1).at("uiStateBefore").is_null());
  // Snapshot warnings (file order) come before scroll warnings.
  CHECK(parsed.steps_file.at("_warnings") ==
        Json::array({"seq 0: snapshot missing on window_change event (uiStateBefore null)",
                     "seq 1: snapshot missing on click event (uiStateBefore null)"}));
}

TEST_CASE("parse: a header-only file has zero steps; blank lines and CRLF are fine",
          "[recording][parse]") {
  const auto parsed = parse_lines({header_line("only"), "", "  "}, "\r\n");
  CHECK(parsed.document.at("stepCount") == 0);
  CHECK(parsed.text ==
        "{\n  \"sessionId\": \"only\",\n  \"schemaVersion\": 1,\n  \"steps\": []\n}");
}

TEST_CASE("parse: steps come in seq order whatever the file order", "[recording][parse]") {
  ClickFields first;
  first.text = "First";
  ClickFields second;
  second.text = "Second";
  const auto parsed =
      parse_lines({header_line(), click_line(5, second, "<s/>"), scroll_line(4),
                   window_change_line(3, "com.late", "<w2/>"), click_line(2, first, "<f/>"),
                   window_change_line(1, "com.example.app", "<w/>"), scroll_line(0)});
  const Json& steps = parsed.steps_file.at("steps");
  REQUIRE(steps.size() == 3);
  CHECK(steps.at(0).at("type") == "open_app");
  CHECK(steps.at(0).at("packageName") == "com.example.app");
  CHECK(steps.at(1).at("text") == "First");
  CHECK(steps.at(2).at("text") == "Second");
  CHECK(parsed.steps_file.at("_warnings") ==
        Json::array({"seq 0: scroll event dropped (not extracted in v1)",
                     "seq 4: scroll event dropped (not extracted in v1)"}));
}

TEST_CASE("parse: equal seqs keep their file order", "[recording][parse]") {
  ClickFields a;
  a.text = "A";
  ClickFields b;
  b.text = "B";
  const auto parsed =
      parse_lines({header_line(), click_line(3, a), click_line(1, b), click_line(3, b)});
  const Json& steps = parsed.steps_file.at("steps");
  REQUIRE(steps.size() == 3);
  CHECK(steps.at(0).at("text") == "B");
  CHECK(steps.at(1).at("text") == "A");
  CHECK(steps.at(2).at("text") == "B");
}

TEST_CASE("parse: warnings are capped, the rest counted", "[recording][parse]") {
  std::vector<std::string> lines{header_line()};
  for (int seq = 0; seq < 130; ++seq) lines.push_back(scroll_line(seq));
  const auto parsed = parse_lines(lines);
  const Json& warnings = parsed.document.at("warnings");
  REQUIRE(warnings.size() == 101);
  CHECK(warnings.at(99) == "seq 99: scroll event dropped (not extracted in v1)");
  CHECK(warnings.at(100) == "30 more warnings not listed");
  CHECK(parsed.document.at("warningsOmitted") == 30);
  CHECK(parsed.steps_file.at("_warnings") == warnings);
}

TEST_CASE("parse: output names, --out, and a failed parse leaves the output alone",
          "[recording][parse]") {
  CHECK(recording::default_steps_path("a/b.ndjson") == "a/b.steps.json");
  CHECK(recording::default_steps_path("a/b.NDJSON") == "a/b.NDJSON.steps.json");
  CHECK(recording::default_steps_path("rec") == "rec.steps.json");

  const testing::TemporaryDirectory dir{"recording-parse-out"};
  const auto input = dir.path() / "in.ndjson";
  const auto output = dir.path() / "chosen.json";
  write_file(output, "precious");
  write_file(input, header_line() + "\n" + "{broken\n");
  CHECK_FALSE(recording::parse_recording({input, output, nullptr}).has_value());
  CHECK(test::file_text(output) == "precious");

  std::vector<std::string> summaries;
  ClickFields ok;
  ok.text = "OK";
  ok.resource_id = "id/ok";
  ClickFields bare;
  write_file(input, header_line() + "\n" + window_change_line(0, "com.example.app") + "\n" +
                        click_line(1, ok) + "\n" + click_line(12, bare) + "\n");
  auto parsed =
      recording::parse_recording({input, output, [&](const Json& step) {
                                    summaries.push_back(recording::step_summary_line(step));
                                  }});
  REQUIRE(parsed.has_value());
  CHECK(parsed->at("outputFile") == output.string());
  CHECK(parse_json(test::file_text(output)).at("steps").size() == 3);
  CHECK(summaries == std::vector<std::string>{"[0] open_app   com.example.app",
                                              "[1] click      text=\"OK\" resourceId=id/ok",
                                              "[12] click      (no selector)"});
}

TEST_CASE("parse: an output in a directory that does not exist names it and its errno",
          "[recording][parse]") {
  const testing::TemporaryDirectory dir{"recording-parse-nodir"};
  const auto input = dir.path() / "in.ndjson";
  write_file(input, header_line() + "\n");
  auto parsed = recording::parse_recording({input, dir.path() / "missing" / "out.json", nullptr});
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().code == "RECORDING_PARSE_FAILED");
  CHECK(parsed.error().details.at("errno") == ENOENT);
  CHECK(parsed.error().details.at("path") == (dir.path() / "missing" / "out.json").string());
}
