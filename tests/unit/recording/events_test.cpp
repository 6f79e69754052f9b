// Every malformed recording the original refused, refused the same way (code and message), but
// naming the physical line a person finds in an editor; the header's checks and schema version.
#include "clawperator/recording/events.hpp"

#include <catch2/catch.hpp>

#include "clawperator/recording/parse.hpp"
#include "clawperator/recording/recording_file.hpp"
#include "recording_lines.hpp"
#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using clawperator::testing::write_file;

namespace {

// The error parse_recording gives for a file holding `content`.
contract::HostError parse_error_of(const std::string& content) {
  const testing::TemporaryDirectory dir{"recording-events"};
  const auto input = dir.path() / "rec.ndjson";
  write_file(input, content);
  auto parsed = recording::parse_recording({input, std::nullopt, nullptr});
  REQUIRE_FALSE(parsed.has_value());
  // A refused recording leaves no steps file behind (nor a temporary one).
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 1);
  CHECK(parsed.error().details.at("path") == input.string());
  return parsed.error();
}

}  // namespace

TEST_CASE("recording header problems are refused with the original's messages",
          "[recording][events]") {
  struct Case {
    const char* name;
    std::string content;
    const char* code;
    const char* message;
  };
  const Case cases[] = {
      {"empty file", "", "RECORDING_PARSE_FAILED", "Empty recording file"},
      {"only white space", "  \n\r\n\t\n", "RECORDING_PARSE_FAILED", "Empty recording file"},
      {"header not JSON", "{not json\n", "RECORDING_PARSE_FAILED",
       "Missing or invalid recording header"},
      {"header missing (an event first)", window_change_line(0, "com.a") + "\n",
       "RECORDING_PARSE_FAILED", "Missing or invalid recording header"},
      {"header sessionId not a string",
       R"({"type":"recording_header","schemaVersion":1,"sessionId":5,"startedAt":1,"operatorPackage":"p"})",
       "RECORDING_PARSE_FAILED", "Missing or invalid recording header"},
      {"header startedAt missing",
       R"({"type":"recording_header","schemaVersion":1,"sessionId":"s","operatorPackage":"p"})",
       "RECORDING_PARSE_FAILED", "Missing or invalid recording header"},
      {"header schemaVersion a string",
       R"({"type":"recording_header","schemaVersion":"1","sessionId":"s","startedAt":1,"operatorPackage":"p"})",
       "RECORDING_PARSE_FAILED", "Missing or invalid recording header"},
      {"header an array", "[1,2]\n", "RECORDING_PARSE_FAILED",
       "Missing or invalid recording header"},
      {"schema version 2", header_line("s", 2) + "\n" + window_change_line(0, "com.a") + "\n",
       "RECORDING_SCHEMA_VERSION_UNSUPPORTED", "Unsupported recording schema version: 2"},
      {"schema version 1.5",
       R"({"type":"recording_header","schemaVersion":1.5,"sessionId":"s","startedAt":1,"operatorPackage":"p"})",
       "RECORDING_SCHEMA_VERSION_UNSUPPORTED", "Unsupported recording schema version: 1.5"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const contract::HostError error = parse_error_of(c.content);
    CHECK(error.code == c.code);
    CHECK(error.message == c.message);
  }
}

TEST_CASE("a header after blank lines is found, and its line is the physical one",
          "[recording][events]") {
  const contract::HostError error = parse_error_of("\n\r\n{\"type\":\"nope\"}\n");
  CHECK(error.message == "Missing or invalid recording header");
  CHECK(error.details.at("line") == 3);
}

TEST_CASE("every malformed event line is refused naming its physical line", "[recording][events]") {
  struct Case {
    const char* name;
    std::string line;
    std::string message;
  };
  const std::string base = R"("ts":1,"seq":0,"snapshot":null,)";
  const Case cases[] = {
      {"not JSON", "{\"ts\":1,", "Malformed NDJSON at line 4"},
      {"a NUL byte after the object", std::string("{\"ts\":1}\0x", 10),
       "Malformed NDJSON at line 4"},
      {"missing ts", R"({"seq":0,"snapshot":null,"key":"back","type":"press_key"})",
       "Invalid event at line 4: missing required fields (ts, seq, type)"},
      {"missing seq", R"({"ts":1,"snapshot":null,"key":"back","type":"press_key"})",
       "Invalid event at line 4: missing required fields (ts, seq, type)"},
      {"seq a string", R"({"ts":1,"seq":"0","key":"back","type":"press_key"})",
       "Invalid event at line 4: missing required fields (ts, seq, type)"},
      {"missing type", R"({"ts":1,"seq":0,"snapshot":null,"key":"back"})",
       "Invalid event at line 4: missing required fields (ts, seq, type)"},
      {"not an object", "[1]", "Invalid event at line 4: missing required fields (ts, seq, type)"},
      {"window_change without packageName",
       "{" + base + R"("className":null,"title":null,"type":"window_change"})",
       "Invalid window_change event at line 4: packageName must be a string"},
      {"click without bounds",
       "{" + base +
           R"("packageName":"p","resourceId":null,"text":"OK","contentDesc":null,"type":"click"})",
       "Invalid click event at line 4: bounds must be an object with numeric left, top, right "
       "and bottom"},
      {"click with null bounds",
       "{" + base +
           R"("packageName":"p","resourceId":null,"text":"OK","contentDesc":null,"bounds":null,"type":"click"})",
       "Invalid click event at line 4: bounds must be an object with numeric left, top, right "
       "and bottom"},
      {"click with non-numeric bounds",
       "{" + base +
           R"("packageName":"p","resourceId":null,"text":"OK","contentDesc":null,"bounds":{"left":"0","top":0,"right":1,"bottom":1},"type":"click"})",
       "Invalid click event at line 4: bounds.left must be a number"},
      {"click without contentDesc (absent, not null)",
       "{" + base +
           R"("packageName":"p","resourceId":null,"text":"OK","bounds":{"left":0,"top":0,"right":1,"bottom":1},"type":"click"})",
       "Invalid click event at line 4: contentDesc must be a string or null"},
      {"scroll without coordinates",
       "{" + base + R"("packageName":"p","resourceId":null,"type":"scroll"})",
       "Invalid scroll event at line 4: scrollX must be a number"},
      {"press_key other than back", "{" + base + R"("key":"home","type":"press_key"})",
       "Invalid press_key event at line 4: key must be \"back\""},
      {"text_change without text",
       "{" + base + R"("packageName":"p","resourceId":null,"type":"text_change"})",
       "Invalid text_change event at line 4: text must be a string"},
      {"unknown type", "{" + base + R"("type":"long_press"})",
       "Unknown event type at line 4: long_press"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    // Line 1 the header, line 2 blank, line 3 a good event, line 4 the case (CRLF endings).
    const contract::HostError error =
        parse_error_of(header_line() + "\r\n\r\n" + press_back_line(0) + "\r\n" + c.line + "\r\n");
    CHECK(error.code == "RECORDING_PARSE_FAILED");
    CHECK(error.message == c.message);
    CHECK(error.details.at("line") == 4);
  }
}

TEST_CASE("invalid UTF-8 is refused with its line and offset", "[recording][events]") {
  const contract::HostError error =
      parse_error_of(header_line() + "\n" + "{\"ts\":1,\"seq\":0,\"text\":\"a\xFF\"}\n");
  CHECK(error.code == "RECORDING_PARSE_FAILED");
  CHECK(error.message == "Invalid UTF-8 at line 2: byte 0xFF at offset 25");
  CHECK(error.details.at("byteOffset") == 25);
}

TEST_CASE("a line longer than the limit is refused naming it", "[recording][events]") {
  const testing::TemporaryDirectory dir{"recording-long-line"};
  const auto input = dir.path() / "rec.ndjson";
  write_file(input, header_line() + "\n" + press_back_line(0) + "\n" +
                        "{\"ts\":1,\"seq\":1,\"snapshot\":\"" + std::string(5000, 'x') + "\"}\n");
  auto file = recording::RecordingFile::open(input, 4096);
  REQUIRE(file.has_value());
  auto scanned =
      file->scan([](const recording::RecordingEvent&) -> contract::Status { return {}; });
  REQUIRE_FALSE(scanned.has_value());
  CHECK(scanned.error().code == "RECORDING_PARSE_FAILED");
  CHECK(scanned.error().message == "Line 3 exceeds the limit of 4096 bytes");
  CHECK(scanned.error().details.at("limitBytes") == 4096);
  CHECK(recording::kMaxLineBytes == std::size_t{64} << 20);
}

TEST_CASE("a missing recording file names its path and errno", "[recording][events]") {
  const testing::TemporaryDirectory dir{"recording-missing"};
  auto parsed = recording::parse_recording({dir.path() / "none.ndjson", std::nullopt, nullptr});
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().code == "RECORDING_PARSE_FAILED");
  CHECK(parsed.error().details.at("errno") == ENOENT);
  CHECK(parsed.error().details.at("path") == (dir.path() / "none.ndjson").string());
}

TEST_CASE("event lines parse into typed events; snapshot is never type-checked",
          "[recording][events]") {
  auto click = recording::parse_event_line(
      R"({"ts":5,"seq":2,"snapshot":7,"packageName":"p","resourceId":"id/ok","text":null,"contentDesc":null,"bounds":{"left":0,"top":0,"right":10,"bottom":10},"type":"click"})",
      9);
  REQUIRE(click.has_value());
  CHECK(click->type == recording::EventType::Click);
  CHECK(click->line == 9);
  CHECK(click->seq == 2);
  CHECK(click->snapshot() == nullptr);
  CHECK(*click->optional_string("resourceId") == "id/ok");
  CHECK(click->optional_string("text") == nullptr);
  auto back = recording::parse_event_line(
      "  {\"ts\":5,\"seq\":3,\"key\":\"back\",\"type\":\"press_key\"}\r", 1);
  REQUIRE(back.has_value());
  CHECK(back->package_name().empty());
}

TEST_CASE("numbers in messages read as JavaScript prints them", "[recording][events]") {
  CHECK(recording::number_text(Json(2)) == "2");
  CHECK(recording::number_text(Json(2.0)) == "2");
  CHECK(recording::number_text(Json(1.5)) == "1.5");
  CHECK(recording::number_text(Json(0.1)) == "0.1");
  CHECK(recording::number_text(Json(-3)) == "-3");
  CHECK(recording::number_text(Json(1e21)) == "1e+21");
}
