#include "clawperator/skills/script_output.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace {

using namespace clawperator::skills;

// Feeds `text` in pieces of `size` bytes.
template <typename Sink>
void feed_in_pieces(Sink& sink, const std::string& text, std::size_t size) {
  for (std::size_t at = 0; at < text.size(); at += size) sink.feed(text.substr(at, size));
}

// The smallest SkillResult a script may print: `source` is the host's to add.
const std::string kMinimalResult =
    R"({"contractVersion":"1.0.0","skillId":"a.b","status":"success","checkpoints":[]})";

}  // namespace

TEST_CASE("bounded capture keeps everything that fits", "[skills]") {
  BoundedCapture capture(8, 4);
  capture.append("abc");
  capture.append("defghij");
  CHECK(capture.text() == "abcdefghij");
  CHECK_FALSE(capture.truncated());
  CHECK(capture.total_bytes() == 10);
  CHECK(capture.omitted_bytes() == 0);
}

TEST_CASE("bounded capture keeps the head and the tail of a long stream", "[skills]") {
  BoundedCapture capture(8, 4);
  std::string all;
  for (int i = 0; i < 1000; ++i) {
    const std::string piece = std::to_string(i) + ",";
    all += piece;
    capture.append(piece);
  }
  CHECK(capture.truncated());
  CHECK(capture.text() == all.substr(0, 8) + all.substr(all.size() - 4));
  CHECK(capture.total_bytes() == all.size());
  CHECK(capture.omitted_bytes() == all.size() - 12);
  // One chunk larger than the whole bound.
  BoundedCapture big(8, 4);
  big.append(std::string(100, 'x') + "TAIL");
  CHECK(big.text() == "xxxxxxxxTAIL");
}

TEST_CASE("streaming search finds a match split across chunks", "[skills]") {
  const std::string text = std::string(1000, '.') + "needle-here" + std::string(500, '.');
  for (std::size_t size : {1, 2, 3, 5, 7, 64, 4096}) {
    StreamingSearch search("needle-here");
    feed_in_pieces(search, text, size);
    INFO(size);
    CHECK(search.found());
  }
  StreamingSearch missing("needle-here");
  feed_in_pieces(missing, std::string(3000, '.') + "needle-her", 3);
  CHECK_FALSE(missing.found());
  StreamingSearch empty("");
  CHECK(empty.found());
}

TEST_CASE("skill result line: the marker at a line start, split anywhere", "[skills]") {
  const std::string text =
      "progress\n  [Clawperator-Skill-Result]{\"status\":\"ignored\"}\n"
      "[Clawperator-Skill-Result]" +
      kMinimalResult + "\r\nlast words";
  for (std::size_t size : {1, 2, 5, 26, 27, 1000}) {
    SkillResultScanner scanner;
    feed_in_pieces(scanner, text, size);
    scanner.finish();
    INFO(size);
    REQUIRE(scanner.last());
    CHECK(scanner.last()->error.empty());
    CHECK(scanner.last()->value["status"] == "success");
    CHECK(scanner.last()->value["source"] == clawperator::Json{{"kind", "script"}});
    CHECK(scanner.last()->line_number == 3);
  }
}

TEST_CASE("skill result line: the last one wins, a bad one included", "[skills]") {
  SkillResultScanner scanner;
  scanner.feed("[Clawperator-Skill-Result]" + kMinimalResult + "\n");
  scanner.feed("[Clawperator-Skill-Result]{not json\n");
  scanner.finish();
  REQUIRE(scanner.last());
  CHECK(scanner.last()->error == "the text after the marker is not valid JSON");

  SkillResultScanner array;
  array.feed("[Clawperator-Skill-Result][1,2]");
  array.finish();
  REQUIRE(array.last());
  CHECK(array.last()->error == "the text after the marker is not a JSON object");

  SkillResultScanner kept;
  std::string agent = kMinimalResult;
  agent.insert(1, R"("source":{"kind":"agent","agentCli":"codex"},)");
  kept.feed("[Clawperator-Skill-Result]" + agent + "\n");
  kept.finish();
  REQUIRE(kept.last());
  CHECK(kept.last()->error.empty());
  CHECK(kept.last()->value["source"]["kind"] == "agent");

  SkillResultScanner none;
  none.feed("no marker\n[Clawperator-Skill-Resul\nx[Clawperator-Skill-Result]{}\n");
  none.finish();
  CHECK_FALSE(none.last());
}

TEST_CASE("skill result line: an object that is not a SkillResult is refused, saying where",
          "[skills]") {
  const auto read = [](const std::string& object) {
    SkillResultScanner scanner;
    scanner.feed("[Clawperator-Skill-Result]" + object + "\n");
    scanner.finish();
    REQUIRE(scanner.last());
    CHECK(scanner.last()->value.is_null());
    return scanner.last()->error;
  };
  CHECK(read(R"({"status":"success"})") ==
        "the object is not a SkillResult: contractVersion must be a string; skillId must be a "
        "string; checkpoints must be a list");
  CHECK(read(R"({"contractVersion":"2.0.0","skillId":"a.b","status":"done","checkpoints":[]})") ==
        "the object is not a SkillResult: contractVersion must have major version 1; status must "
        "be one of success, failed, indeterminate");
  CHECK(read(R"({"contractVersion":"1.0","skillId":"a.b","status":"failed","checkpoints":[{}]})") ==
        "the object is not a SkillResult: contractVersion must be a version MAJOR.MINOR.PATCH; "
        "checkpoints[0].id must be a string; checkpoints[0].status must be one of ok, failed, "
        "skipped");
  CHECK(read(R"({"contractVersion":"1.0.0","skillId":"a.b","status":"success","checkpoints":[],)"
             R"("result":{"amount":"3"},"source":{"kind":"agent"}})") ==
        "the object is not a SkillResult: source.agentCli must be a string; result.kind must be "
        "one of text, json, result_envelope_ref");
}

TEST_CASE("skill result line: a newer minor version and a result value are accepted", "[skills]") {
  SkillResultScanner scanner;
  scanner.feed(
      R"([Clawperator-Skill-Result]{"contractVersion":"01.7.0","skillId":"a.b","status":"failed",)"
      R"("checkpoints":[{"id":"x","status":"skipped"}],"result":{"kind":"json","value":{"n":1}},)"
      R"("extra":true})");
  scanner.finish();
  REQUIRE(scanner.last());
  CHECK(scanner.last()->error.empty());
  CHECK(scanner.last()->value["result"]["value"]["n"] == 1);
}

TEST_CASE("skill result line: an overlong line is refused, not buffered", "[skills]") {
  SkillResultScanner scanner;
  scanner.feed("[Clawperator-Skill-Result]{\"x\":\"");
  const std::string filler(64 << 10, 'a');
  for (int i = 0; i < 20; ++i) scanner.feed(filler);
  scanner.feed("\"}\n");
  scanner.finish();
  REQUIRE(scanner.last());
  CHECK(scanner.last()->error.find("longer than") != std::string::npos);
}

TEST_CASE("the script's output as JSON: one document once the result lines are out, else null",
          "[skills]") {
  const std::string result_line = "[Clawperator-Skill-Result]" + kMinimalResult + "\n";
  CHECK(script_output_json("{\"ok\":true,\"n\":[1,2]}\n" + result_line) ==
        clawperator::Json{{"ok", true}, {"n", {1, 2}}});
  CHECK(script_output_json(result_line + "  [1, 2]  \n") == clawperator::Json{1, 2});
  CHECK(script_output_json("\"text\"") == "text");
  CHECK(script_output_json("").is_null());
  CHECK(script_output_json(result_line).is_null());
  CHECK(script_output_json("step one\n").is_null());
  CHECK(script_output_json("{\"a\":1}\n{\"b\":2}\n").is_null());
  CHECK(script_output_json("{\"a\":1} trailing").is_null());
  // Only a line that starts with the marker is a result line.
  CHECK(script_output_json(" [Clawperator-Skill-Result]{}\n").is_null());
}
