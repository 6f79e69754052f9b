#include "clawperator/transport/result_stream.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "transport_test_support.hpp"

using namespace clawperator::transport;
namespace support = clawperator::transport::test;
using support::kCommandId;
using support::kTaskId;

namespace {

const std::string kOperatorTag = "Clawperator";

const CompleteResult& require_complete(const ResultStreamDecoder& decoder) {
  const auto* complete = std::get_if<CompleteResult>(&decoder.status());
  REQUIRE(complete != nullptr);
  return *complete;
}

const MalformedResult& require_malformed(const ResultStreamDecoder& decoder) {
  const auto* malformed = std::get_if<MalformedResult>(&decoder.status());
  REQUIRE(malformed != nullptr);
  return *malformed;
}

bool pending(const ResultStreamDecoder& decoder) {
  return std::holds_alternative<PendingResult>(decoder.status());
}

ResultStreamDecoder capturing_decoder() {
  ResultStreamDecoder decoder(kCommandId, kTaskId);
  decoder.begin_capture();
  return decoder;
}

std::string single_line(const std::string& command = kCommandId,
                        const std::string& task = kTaskId) {
  return std::string(kResultPrefix) + support::small_envelope_json(command, task);
}

}  // namespace

TEST_CASE("result stream: a chunked envelope amid other traffic, in random pieces",
          "[transport][result-stream]") {
  const std::string line =
      std::string(kResultPrefix) + support::big_envelope_json(kCommandId, kTaskId, 20000);
  REQUIRE(line.size() > 3000);
  const auto ours = support::chunk_messages(line, kCommandId, kTaskId);
  const std::string other_line =
      std::string(kResultPrefix) + support::big_envelope_json("cmd-other", "task-x", 6000);
  const auto theirs = support::chunk_messages(other_line, "cmd-other", "task-x");

  using LineMaker = std::string (*)(std::string_view, std::string_view);
  const std::pair<const char*, LineMaker> formats[] = {
      {"time", support::time_line},
      {"threadtime", support::threadtime_line},
      {"brief", support::brief_line},
  };
  for (const auto& [format_name, make_line] : formats) {
    std::string stream;
    const auto add = [&stream, make = make_line](std::string_view tag, std::string_view message) {
      stream += make(tag, message);
      stream += '\n';
    };
    for (std::size_t i = 0; i < ours.size(); ++i) {
      add("ActivityManager", "Start proc 1234:com.example/u0a12 for service ü漢🙂");
      if (i < theirs.size()) add(kOperatorTag, theirs[i]);
      if (i == 2) {
        // Another command's broken record, and one with our id in an unrelated field.
        add(kOperatorTag, R"([Clawperator-Result-Chunk] {"commandId":"cmd-other","index":)");
        add(kOperatorTag, R"([Clawperator-Result-Chunk] {"commandId":"cmd-other","note":")" +
                              kCommandId + R"(","index":0})");
        add("chatty", "uid=1000(system) expire 3 lines");
      }
      add(kOperatorTag, ours[i]);
      stream += "--------- beginning of crash\n";
    }

    for (unsigned seed : {1U, 7U, 99U}) {
      for (std::size_t max_piece : {std::size_t{1}, std::size_t{137}, std::size_t{4096}}) {
        if (max_piece == 1 && seed != 1) continue;  // one byte-by-byte run per format is enough
        INFO("format " << format_name << ", seed " << seed << ", max piece " << max_piece);
        ResultStreamDecoder decoder = capturing_decoder();
        for (std::string_view piece : support::random_pieces(stream, seed, max_piece)) {
          decoder.feed(piece);
        }
        const CompleteResult& complete = require_complete(decoder);
        CHECK(complete.chunked);
        CHECK(complete.canonical_line == line);
        CHECK(complete.envelope.commandId == kCommandId);
        CHECK(complete.envelope.taskId == kTaskId);
        CHECK(complete.envelope.steps.size() > 10);
        CHECK(decoder.chunk_diagnostics() ==
              ChunkDiagnostics{ours.size(), line.size(), ours.size(), line.size()});
        CHECK(decoder.stdout_bytes_seen() == stream.size());
        CHECK(decoder.correlated_lines().size() == ResultStreamDecoder::kMaxCorrelatedLines);
      }
    }
  }
}

TEST_CASE("result stream: a chunk violation settles as malformed with diagnostics",
          "[transport][result-stream]") {
  const std::string line =
      std::string(kResultPrefix) + support::big_envelope_json(kCommandId, kTaskId, 5000);
  const auto records = support::chunk_records(line, kCommandId, kTaskId);
  ResultStreamDecoder decoder = capturing_decoder();
  decoder.feed(support::time_line(kOperatorTag, records[0].message()) + "\n");
  decoder.feed(support::time_line(kOperatorTag, records[2].message()) + "\n");
  const MalformedResult& malformed = require_malformed(decoder);
  CHECK(malformed.reason == "index out of order: expectedIndex=1, receivedIndex=2");
  CHECK(malformed.chunk_failure == ChunkErrorKind::IndexOutOfOrder);
  CHECK(malformed.transport == ChunkDiagnostics{1, 1024, records.size(), line.size()});
  CHECK(decoder.chunk_diagnostics() == malformed.transport);

  // The first outcome stands.
  decoder.feed(support::time_line(kOperatorTag, single_line()) + "\n");
  CHECK(require_malformed(decoder).reason ==
        "index out of order: expectedIndex=1, receivedIndex=2");
}

TEST_CASE("result stream: an incomplete chunk sequence stays pending",
          "[transport][result-stream]") {
  const std::string line =
      std::string(kResultPrefix) + support::big_envelope_json(kCommandId, kTaskId, 5000);
  const auto records = support::chunk_records(line, kCommandId, kTaskId);
  ResultStreamDecoder decoder = capturing_decoder();
  for (std::size_t i = 0; i + 1 < records.size(); ++i) {
    decoder.feed(support::threadtime_line(kOperatorTag, records[i].message()) + "\n");
  }
  decoder.finish();
  CHECK(pending(decoder));
  CHECK(decoder.chunk_diagnostics() == ChunkDiagnostics{records.size() - 1,
                                                        (records.size() - 1) * 1024, records.size(),
                                                        line.size()});
}

TEST_CASE("result stream: a single-line envelope in each logcat format",
          "[transport][result-stream]") {
  const std::string message = single_line();
  const std::string lines[] = {
      support::time_line(kOperatorTag, message),
      support::threadtime_line(kOperatorTag, message),
      support::brief_line(kOperatorTag, message),
      "I/" + kOperatorTag + ": " + message,
      message,
      "some prefix text " + message,
  };
  for (const std::string& stdout_line : lines) {
    INFO("line: " << stdout_line);
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.feed(stdout_line + "\r\n");
    const CompleteResult& complete = require_complete(decoder);
    CHECK_FALSE(complete.chunked);
    CHECK(complete.canonical_line == message);
    CHECK(complete.envelope.commandId == kCommandId);
    CHECK(complete.envelope.taskId == kTaskId);
    REQUIRE(complete.envelope.steps.size() == 1);
    CHECK(complete.envelope.steps[0].actionType == "sleep");
    CHECK(decoder.correlated_lines() == std::vector<std::string>{stdout_line});
  }
}

TEST_CASE("result stream: other commands' envelopes are ignored, even malformed",
          "[transport][result-stream]") {
  ResultStreamDecoder decoder = capturing_decoder();
  decoder.feed(support::time_line(kOperatorTag, single_line("cmd-other", "t")) + "\n");
  decoder.feed(support::time_line(kOperatorTag, "[Clawperator-Result] {\"commandId\":\"cmd-ot") +
               "\n");
  decoder.feed(support::time_line(kOperatorTag, "[Clawperator-Result] not json") + "\n");
  // Valid, names our id in a value, but belongs to another command.
  decoder.feed(
      support::time_line(kOperatorTag,
                         R"([Clawperator-Result] {"commandId":"cmd-other","taskId":"t","status":)"
                         R"("failed","stepResults":[],"error":"see \")" +
                             kCommandId + R"(\" ","note":")" + kCommandId + R"("})") +
      "\n");
  // The prefix without its space is not the result marker.
  decoder.feed("[Clawperator-Result]" + support::small_envelope_json(kCommandId, kTaskId) + "\n");
  CHECK(pending(decoder));

  decoder.feed(support::time_line(kOperatorTag, single_line()) + "\n");
  CHECK(require_complete(decoder).envelope.commandId == kCommandId);
}

TEST_CASE("result stream: a malformed envelope for our command", "[transport][result-stream]") {
  SECTION("truncated JSON") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.feed(support::time_line(kOperatorTag, "[Clawperator-Result] {\"commandId\":\"" +
                                                      kCommandId + "\",\"taskId\":") +
                 "\n");
    const MalformedResult& malformed = require_malformed(decoder);
    CHECK(malformed.reason == "malformed envelope: envelope is not valid JSON");
    CHECK_FALSE(malformed.chunk_failure.has_value());
    CHECK(malformed.transport == ChunkDiagnostics{});
  }
  SECTION("a status the wire does not have") {
    std::string envelope_json = support::small_envelope_json(kCommandId, kTaskId);
    envelope_json.replace(envelope_json.find("\"success\""), 9, "\"ok\"");
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.feed(support::time_line(kOperatorTag, std::string(kResultPrefix) + envelope_json) +
                 "\n");
    CHECK(require_malformed(decoder).reason ==
          "malformed envelope: status must be \"success\" or \"failed\"");
  }
  SECTION("our command with another taskId") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.feed(single_line(kCommandId, "task-other") + "\n");
    CHECK(require_malformed(decoder).reason ==
          R"(correlation mismatch: envelope taskId "task-other" is not "task-1")");
  }
}

TEST_CASE("result stream: nothing before begin_capture counts", "[transport][result-stream]") {
  ResultStreamDecoder decoder(kCommandId, kTaskId);
  const std::string early = support::time_line(kOperatorTag, single_line()) + "\n";
  decoder.feed(early);
  CHECK(pending(decoder));
  CHECK(decoder.correlated_lines().empty());
  CHECK_FALSE(decoder.capturing());

  // A line that began before the cut is dropped whole, even if it ends after it.
  const std::string straddling = support::time_line(kOperatorTag, single_line());
  decoder.feed(straddling.substr(0, 40));
  decoder.begin_capture();
  CHECK(decoder.capturing());
  decoder.feed(straddling.substr(40) + "\n");
  CHECK(pending(decoder));
  CHECK(decoder.stdout_bytes_seen() == early.size() + straddling.size() + 1);

  decoder.feed(straddling + "\n");
  CHECK(require_complete(decoder).canonical_line == single_line());
}

TEST_CASE("result stream: an unterminated final line is read at finish",
          "[transport][result-stream]") {
  ResultStreamDecoder decoder = capturing_decoder();
  const std::string line = support::threadtime_line(kOperatorTag, single_line());
  for (char byte : line) decoder.feed(std::string_view(&byte, 1));
  CHECK(pending(decoder));
  decoder.finish();
  CHECK(require_complete(decoder).canonical_line == single_line());
}

TEST_CASE("result stream: the complete result is moved out, not copied",
          "[transport][result-stream]") {
  ResultStreamDecoder decoder = capturing_decoder();
  decoder.feed(support::time_line(kOperatorTag, single_line()) + "\n");
  REQUIRE(decoder.settled());
  const char* const line_bytes =
      std::get<clawperator::transport::CompleteResult>(decoder.status()).canonical_line.data();
  clawperator::transport::CompleteResult taken = decoder.take_complete();
  CHECK(taken.canonical_line == single_line());
  CHECK(taken.canonical_line.data() == line_bytes);
  CHECK(taken.envelope.status == "success");
  // Still settled, and holding nothing any more.
  CHECK(decoder.settled());
  CHECK(std::get<clawperator::transport::CompleteResult>(decoder.status()).canonical_line.empty());
}

TEST_CASE("result stream: correlated lines keep the last 20, cut to 2048 bytes",
          "[transport][result-stream]") {
  ResultStreamDecoder decoder = capturing_decoder();
  for (int i = 0; i < 25; ++i) {
    decoder.feed("line " + std::to_string(i) + " about " + kCommandId + "\n");
    decoder.feed("unrelated line " + std::to_string(i) + "\n");
  }
  std::vector<std::string> lines = decoder.correlated_lines();
  REQUIRE(lines.size() == 20);
  CHECK(lines.front() == "line 5 about " + kCommandId);
  CHECK(lines.back() == "line 24 about " + kCommandId);

  // 2047 ASCII bytes then a 4-byte character: the character is not cut in half.
  const std::string long_line =
      kCommandId + std::string(2047 - kCommandId.size(), 'x') + "🙂tail";
  decoder.feed(long_line + "\n");
  lines = decoder.correlated_lines();
  CHECK(lines.back() == long_line.substr(0, 2047));
  const std::string exact = kCommandId + std::string(2048 - kCommandId.size(), 'y') + "zzz";
  decoder.feed(exact + "\n");
  CHECK(decoder.correlated_lines().back() == exact.substr(0, 2048));
}

TEST_CASE("result stream: snapshot blocks after this command's marker",
          "[transport][result-stream]") {
  const std::string marker = "[TaskScope] UI Hierarchy [commandId=" + kCommandId + "]:";
  ResultStreamDecoder decoder = capturing_decoder();
  const auto log = [&decoder](std::string_view tag, std::string_view message) {
    decoder.feed(support::time_line(tag, message) + "\n");
  };
  SECTION("a block ends after </hierarchy>, other tags interleaved") {
    log("TaskScope", marker + " <?xml version='1.0' ?>");
    log("OtherApp", "<not part of it/>");
    log("TaskScope", "<hierarchy rotation=\"0\">");
    log("TaskScope", "  <node text=\"漢字 🙂\"/>");
    log("TaskScope", "</hierarchy>");
    log("TaskScope", "<after the end/>");
    REQUIRE(decoder.snapshot_blocks().size() == 1);
    CHECK(decoder.snapshot_blocks()[0] ==
          "<?xml version='1.0' ?>\n<hierarchy rotation=\"0\">\n  <node text=\"漢字 🙂\"/>\n"
          "</hierarchy>");
  }
  SECTION("a block ends before a message starting with [") {
    log("TaskScope", marker);
    log("TaskScope", "<hierarchy>");
    log("TaskScope", "<node/>");
    log("TaskScope", "[TaskScope] step 2 done");
    log("TaskScope", "<node-after/>");
    REQUIRE(decoder.snapshot_blocks().size() == 1);
    CHECK(decoder.snapshot_blocks()[0] == "<hierarchy>\n<node/>");
  }
  SECTION("a marker on one line with the whole dump") {
    log("TaskScope", marker + "<hierarchy><node/></hierarchy>");
    log("TaskScope", marker + "   ");  // empty block: dropped
    log("TaskScope", "[next record]");
    REQUIRE(decoder.snapshot_blocks().size() == 1);
    CHECK(decoder.snapshot_blocks()[0] == "<hierarchy><node/></hierarchy>");
  }
  SECTION("another command's marker or the legacy marker start nothing") {
    log("TaskScope", "[TaskScope] UI Hierarchy [commandId=cmd-other]: <hierarchy>");
    log("TaskScope", "[TaskScope] UI Hierarchy: <hierarchy>");
    log("TaskScope", "</hierarchy>");
    decoder.finish();
    CHECK(decoder.snapshot_blocks().empty());
  }
  SECTION("an open block is closed by the result and by finish") {
    log("TaskScope", marker + " <hierarchy>");
    log("TaskScope", "<node/>");
    log(kOperatorTag, single_line());
    REQUIRE(std::holds_alternative<CompleteResult>(decoder.status()));
    REQUIRE(decoder.snapshot_blocks().size() == 1);
    CHECK(decoder.snapshot_blocks()[0] == "<hierarchy>\n<node/>");
    log("TaskScope", marker + " <hierarchy>");
    log("TaskScope", "<late/>");
    decoder.finish();
    REQUIRE(decoder.snapshot_blocks().size() == 2);
    CHECK(decoder.snapshot_blocks()[1] == "<hierarchy>\n<late/>");
  }
  SECTION("markers before capture are not read") {
    ResultStreamDecoder early(kCommandId, kTaskId);
    early.feed(support::time_line("TaskScope", marker + "<hierarchy/></hierarchy>") + "\n");
    early.begin_capture();
    early.finish();
    CHECK(early.snapshot_blocks().empty());
  }
}

TEST_CASE("result stream: unrelated traffic leaves nothing behind", "[transport][result-stream]") {
  ResultStreamDecoder decoder = capturing_decoder();
  const std::string noise =
      support::threadtime_line("SurfaceFlinger", std::string(300, 'n')) + "\n" +
      support::time_line(kOperatorTag, "[Clawperator-Result-Chunk] {\"commandId\":\"x\"}") + "\n";
  for (int i = 0; i < 2000; ++i) decoder.feed(noise);
  decoder.finish();
  CHECK(pending(decoder));
  CHECK(decoder.correlated_lines().empty());
  CHECK(decoder.snapshot_blocks().empty());
  CHECK(decoder.chunk_diagnostics() == ChunkDiagnostics{});
  CHECK(decoder.stdout_bytes_seen() == noise.size() * 2000);
  CHECK(decoder.overlong_lines() == 0);
}

TEST_CASE("result stream: only the Operator's uid writes the result",
          "[transport][result-stream]") {
  // `-v time -v uid`: "L/Tag(uid: pid): message" (liblog's logprint.cpp).
  const auto by = [](std::string_view uid, std::string_view message) {
    return "12-05 02:30:00.123 I/" + std::string(kOperatorTag) + "(" + std::string(uid) +
           ": 4567): " + std::string(message) + "\n";
  };
  const std::string forged =
      std::string(kResultPrefix) + R"({"commandId":")" + kCommandId + R"(","taskId":")" + kTaskId +
      R"(","status":"success","stepResults":[{"id":"s1","actionType":"read_text","success":true,"data":{"text":"forged"}}],"error":null})";
  const std::string genuine = single_line();

  SECTION("a forged line before the Operator's is counted, never used") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"10123"});
    decoder.feed(by("10666", forged) + by("10666", forged));
    CHECK(pending(decoder));
    decoder.feed(by("10123", genuine));
    const CompleteResult& result = require_complete(decoder);
    CHECK(result.canonical_line == genuine);
    CHECK(decoder.foreign_lines() == 2);
    CHECK(decoder.unattributed_lines() == 0);
  }
  SECTION("forged chunks cannot break the Operator's chunked result") {
    const std::string line =
        std::string(kResultPrefix) + support::big_envelope_json(kCommandId, kTaskId, 9000);
    const auto ours = support::chunk_messages(line, kCommandId, kTaskId);
    const auto fake = support::chunk_messages(
        std::string(kResultPrefix) + support::big_envelope_json(kCommandId, kTaskId, 5000),
        kCommandId, kTaskId);
    REQUIRE(ours.size() >= 3);
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"1010123", "10123"});
    for (std::size_t i = 0; i < ours.size(); ++i) {
      if (i < fake.size()) decoder.feed(by("10666", fake[i]));
      decoder.feed(by("10123", ours[i]));
    }
    CHECK(require_complete(decoder).canonical_line == line);
    CHECK(decoder.foreign_lines() == fake.size());
  }
  SECTION("the Operator running for another user (a work profile) is still the Operator") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"10123"});
    decoder.feed(by("1010666", forged));
    decoder.feed(by("1010123", genuine));
    CHECK(require_complete(decoder).canonical_line == genuine);
    CHECK(decoder.foreign_lines() == 1);
    CHECK(decoder.writer_uid() == "1010123");
  }
  SECTION("other apps' lines for other commands are not counted") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"10123"});
    decoder.feed(by(
        "10666", std::string(kResultPrefix) + support::small_envelope_json("cmd-other", "task-x")));
    decoder.feed(by("shell", "hello"));
    decoder.feed(by("10123", genuine));
    require_complete(decoder);
    CHECK(decoder.foreign_lines() == 0);
  }
  SECTION("a forged hierarchy is not the Operator's") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"10123"});
    const std::string marker =
        "[TaskScope] UI Hierarchy [commandId=" + std::string(kCommandId) + "]:";
    decoder.feed(by("10666", marker + " <hierarchy><forged/></hierarchy>"));
    decoder.feed(by("10123", marker + " <hierarchy><node/></hierarchy>"));
    decoder.feed(by("10123", genuine));
    require_complete(decoder);
    REQUIRE(decoder.snapshot_blocks().size() == 1);
    CHECK(decoder.snapshot_blocks()[0] == "<hierarchy><node/></hierarchy>");
    CHECK(decoder.foreign_lines() == 1);
  }
  SECTION("lines without a uid are read, and counted as unproven") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.expect_writer({"10123"});
    decoder.feed(support::time_line(kOperatorTag, genuine) + "\n");
    require_complete(decoder);
    CHECK(decoder.unattributed_lines() == 1);
    CHECK(decoder.foreign_lines() == 0);
  }
  SECTION("an unknown writer: the first result wins, as without the check") {
    ResultStreamDecoder decoder = capturing_decoder();
    decoder.feed(by("10666", forged));
    CHECK(require_complete(decoder).canonical_line == forged);
    CHECK(decoder.foreign_lines() == 0);
  }
}
