#include "clawperator/transport/chunk_reassembler.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "transport_test_support.hpp"

using namespace clawperator::transport;
using clawperator::transport::test::big_envelope_json;
using clawperator::transport::test::chunk_records;
using clawperator::transport::test::ChunkRecord;
using clawperator::transport::test::kCommandId;
using clawperator::transport::test::kTaskId;
using clawperator::transport::test::small_envelope_json;

namespace {

std::string canonical_line(std::size_t min_bytes = 5000, const std::string& command = kCommandId,
                           const std::string& task = kTaskId) {
  return std::string(kResultPrefix) + big_envelope_json(command, task, min_bytes);
}

// Feeds records until one is not Accepted; returns that result.
ChunkFeedResult feed_all(ChunkReassembler& reassembler, const std::vector<ChunkRecord>& records) {
  ChunkFeedResult last = ChunkFeedResult::Ignored;
  for (const ChunkRecord& record : records) {
    last = reassembler.feed(record.message());
    if (last != ChunkFeedResult::Accepted) break;
  }
  return last;
}

ChunkDiagnostics diagnostics(std::size_t chunks, std::size_t bytes,
                             std::optional<std::size_t> expected_chunks,
                             std::optional<std::size_t> expected_bytes) {
  return ChunkDiagnostics{chunks, bytes, expected_chunks, expected_bytes};
}

void check_failure(const ChunkReassembler& reassembler, ChunkErrorKind kind,
                   const std::string& reason, const ChunkDiagnostics& expected) {
  REQUIRE(reassembler.failure().has_value());
  CHECK(reassembler.failure()->kind == kind);
  CHECK(reassembler.failure()->reason == reason);
  CHECK(reassembler.failure()->diagnostics == expected);
  CHECK(reassembler.diagnostics() == expected);
}

}  // namespace

TEST_CASE("chunks: a chunked envelope reassembles byte-exact", "[transport][chunks]") {
  const std::string line = canonical_line(5000);
  REQUIRE(line.size() > 3000);
  const auto records = chunk_records(line, kCommandId, kTaskId);
  const std::size_t count = records.size();
  REQUIRE(count == (line.size() + 1023) / 1024);

  ChunkReassembler reassembler(kCommandId);
  CHECK(reassembler.diagnostics() == diagnostics(0, 0, std::nullopt, std::nullopt));
  for (std::size_t i = 0; i + 1 < count; ++i) {
    CHECK(reassembler.feed(records[i].message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.diagnostics() == diagnostics(i + 1, (i + 1) * 1024, count, line.size()));
  }
  CHECK_FALSE(reassembler.complete());
  CHECK(reassembler.feed(records.back().message()) == ChunkFeedResult::Complete);
  CHECK(reassembler.complete());
  CHECK(reassembler.diagnostics() == diagnostics(count, line.size(), count, line.size()));
  CHECK_FALSE(reassembler.failure().has_value());

  const std::optional<Envelope> envelope = reassembler.take_envelope();
  REQUIRE(envelope.has_value());
  CHECK(envelope->commandId == kCommandId);
  CHECK(envelope->taskId == kTaskId);
  CHECK(envelope->status == "success");
  CHECK(reassembler.take_line() == line);
  // Taken once.
  CHECK(reassembler.take_line().empty());
  CHECK_FALSE(reassembler.take_envelope().has_value());
  // Anything after completion, even a fresh valid sequence, is ignored.
  CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Ignored);
  CHECK(reassembler.feed("plain message") == ChunkFeedResult::NotAChunk);
}

TEST_CASE("chunks: exact multiple of 1024 and a large result", "[transport][chunks]") {
  std::string line = canonical_line(3000);
  line.append(1024 - line.size() % 1024, ' ');  // JSON tolerates trailing spaces
  REQUIRE(line.size() % 1024 == 0);
  {
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Complete);
    CHECK(reassembler.take_line() == line);
  }
  const std::string large = canonical_line(600000);
  ChunkReassembler reassembler(kCommandId);
  CHECK(feed_all(reassembler, chunk_records(large, kCommandId, kTaskId)) ==
        ChunkFeedResult::Complete);
  CHECK(reassembler.diagnostics().receivedBytes == large.size());
  CHECK(reassembler.take_line() == large);
}

TEST_CASE("chunks: what is not ours is NotAChunk or Ignored", "[transport][chunks]") {
  ChunkReassembler reassembler(kCommandId);
  CHECK(reassembler.feed("hello") == ChunkFeedResult::NotAChunk);
  CHECK(reassembler.feed(" [Clawperator-Result-Chunk] {}") == ChunkFeedResult::NotAChunk);
  // A normal envelope whose JSON merely contains the marker text.
  CHECK(reassembler.feed(std::string(kResultPrefix) +
                         R"({"commandId":"cmd-7f3a","x":"[Clawperator-Result-Chunk] {}"})") ==
        ChunkFeedResult::NotAChunk);

  const std::string other_line = canonical_line(4000, "other-cmd", "other-task");
  for (const ChunkRecord& record : chunk_records(other_line, "other-cmd", "other-task")) {
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Ignored);
  }
  CHECK(reassembler.feed(R"([Clawperator-Result-Chunk] {"commandId":"other-cmd","ind)") ==
        ChunkFeedResult::Ignored);
  CHECK(reassembler.feed("[Clawperator-Result-Chunk] not json at all") == ChunkFeedResult::Ignored);
  CHECK(reassembler.feed(R"([Clawperator-Result-Chunk] {"taskId":"x"})") ==
        ChunkFeedResult::Ignored);
  CHECK(reassembler.diagnostics() == diagnostics(0, 0, std::nullopt, std::nullopt));
  CHECK_FALSE(reassembler.failure().has_value());
}

TEST_CASE("chunks: malformed JSON that names our command fails", "[transport][chunks]") {
  const std::string line = canonical_line(4000);
  const auto records = chunk_records(line, kCommandId, kTaskId);
  ChunkReassembler reassembler(kCommandId);
  CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
  const std::string truncated = records[1].message().substr(0, 120);
  CHECK(reassembler.feed(truncated) == ChunkFeedResult::Failed);
  check_failure(reassembler, ChunkErrorKind::MalformedChunkJson, "malformed chunk JSON",
                diagnostics(1, 1024, records.size(), line.size()));
  // Dead: even the right next record is ignored now.
  CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Ignored);
  CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Ignored);
}

TEST_CASE("chunks: ordering violations", "[transport][chunks]") {
  const std::string line = canonical_line(5000);
  const auto records = chunk_records(line, kCommandId, kTaskId);
  const std::size_t count = records.size();
  ChunkReassembler reassembler(kCommandId);

  SECTION("a sequence that starts late") {
    CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=0, receivedIndex=1",
                  diagnostics(0, 0, count, line.size()));
  }
  SECTION("a gap") {
    CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.feed(records[2].message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=1, receivedIndex=2",
                  diagnostics(1, 1024, count, line.size()));
  }
  SECTION("a duplicate") {
    CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=2, receivedIndex=1",
                  diagnostics(2, 2048, count, line.size()));
  }
  SECTION("a reorder") {
    CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.feed(records[2].message()) == ChunkFeedResult::Failed);
    CHECK(reassembler.feed(records[1].message()) == ChunkFeedResult::Ignored);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=1, receivedIndex=2",
                  diagnostics(1, 1024, count, line.size()));
  }
  SECTION("an index past the end") {
    ChunkRecord record = records[0];
    record.index = count;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=0, receivedIndex=" + std::to_string(count),
                  diagnostics(0, 0, count, line.size()));
  }
  SECTION("a negative or non-integer index") {
    ChunkRecord record = records[0];
    record.index = -1;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::IndexOutOfOrder,
                  "index out of order: expectedIndex=0, receivedIndex=-1",
                  diagnostics(0, 0, count, line.size()));
    ChunkReassembler second(kCommandId);
    record.index = "0";
    CHECK(second.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(second, ChunkErrorKind::InvalidIndex, "invalid index",
                  diagnostics(0, 0, count, line.size()));
  }
  SECTION("a missing final chunk never completes") {
    for (std::size_t i = 0; i + 1 < count; ++i) {
      CHECK(reassembler.feed(records[i].message()) == ChunkFeedResult::Accepted);
    }
    CHECK_FALSE(reassembler.complete());
    CHECK_FALSE(reassembler.failure().has_value());
    CHECK(reassembler.take_line().empty());
    CHECK(reassembler.diagnostics() ==
          diagnostics(count - 1, (count - 1) * 1024, count, line.size()));
  }
}

TEST_CASE("chunks: header fields must be valid and constant", "[transport][chunks]") {
  const std::string line = canonical_line(5000);
  const auto records = chunk_records(line, kCommandId, kTaskId);
  const std::size_t count = records.size();
  const ChunkDiagnostics after_first = diagnostics(1, 1024, count, line.size());
  ChunkReassembler reassembler(kCommandId);
  REQUIRE(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
  ChunkRecord second = records[1];

  SECTION("taskId changes") {
    second.taskId = "task-2";
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InconsistentHeader, "inconsistent header: taskId",
                  after_first);
  }
  SECTION("byteLength changes within the same count") {
    second.byteLength = line.size() + 1;
    REQUIRE((line.size() + 1 + 1023) / 1024 == count);
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InconsistentHeader,
                  "inconsistent header: byteLength", after_first);
  }
  SECTION("count changes with byteLength") {
    second.byteLength = line.size() + 1024;
    second.count = count + 1;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InconsistentHeader,
                  "inconsistent header: byteLength", after_first);
  }
  SECTION("count that is not ceil(byteLength/1024)") {
    second.count = count + 1;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::CountMismatch,
                  "count mismatch: count=" + std::to_string(count + 1) +
                      ", ceil(byteLength/1024)=" + std::to_string(count),
                  after_first);
  }
  SECTION("sha256 changes") {
    second.sha256 = sha256_hex("something else");
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InconsistentHeader, "inconsistent header: sha256",
                  after_first);
  }
  SECTION("sha256 not lowercase hex") {
    second.sha256 = sha256_hex(line).substr(0, 63) + "A";
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidSha256, "invalid sha256", after_first);
  }
  SECTION("taskId empty or longer than 128") {
    second.taskId = "";
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidTaskId, "invalid taskId", after_first);
  }
  SECTION("taskId of a wrong type") {
    second.taskId = 12;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidTaskId, "invalid taskId", after_first);
  }
}

TEST_CASE("chunks: declared sizes out of range", "[transport][chunks]") {
  const std::string line = canonical_line(4000);
  ChunkRecord record = chunk_records(line, kCommandId, kTaskId)[0];
  ChunkReassembler reassembler(kCommandId);
  const ChunkDiagnostics nothing = diagnostics(0, 0, std::nullopt, std::nullopt);

  SECTION("oversize byteLength") {
    record.byteLength = 67108865;
    record.count = 65537;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::ByteLengthOutOfRange, "byteLength out of range",
                  nothing);
  }
  SECTION("zero byteLength") {
    record.byteLength = 0;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::ByteLengthOutOfRange, "byteLength out of range",
                  nothing);
  }
  SECTION("fractional byteLength") {
    record.byteLength = 4000.5;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::ByteLengthOutOfRange, "byteLength out of range",
                  nothing);
  }
  SECTION("count above 65536") {
    record.count = 65537;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::CountOutOfRange, "count out of range", nothing);
  }
  SECTION("count that is not ceil(byteLength/1024)") {
    record.count = 3;
    record.byteLength = 1025;
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::CountMismatch,
                  "count mismatch: count=3, ceil(byteLength/1024)=2", nothing);
  }
  SECTION("the largest legal declaration is accepted") {
    record.byteLength = 67108864;
    record.count = 65536;
    record.sha256 = sha256_hex("");
    CHECK(reassembler.feed(record.message()) == ChunkFeedResult::Accepted);
    CHECK(reassembler.diagnostics() == diagnostics(1, 1024, 65536, 67108864));
  }
}

TEST_CASE("chunks: data must be canonical base64 of the right length", "[transport][chunks]") {
  const std::string line = canonical_line(4000);
  const auto records = chunk_records(line, kCommandId, kTaskId);
  const std::size_t count = records.size();
  ChunkReassembler reassembler(kCommandId);
  REQUIRE(reassembler.feed(records[0].message()) == ChunkFeedResult::Accepted);
  const ChunkDiagnostics after_first = diagnostics(1, 1024, count, line.size());
  ChunkRecord second = records[1];

  SECTION("a character outside the alphabet") {
    std::string data = second.data.get<std::string>();
    data[10] = '*';
    second.data = data;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidBase64, "invalid base64", after_first);
  }
  SECTION("URL-safe alphabet") {
    std::string data = second.data.get<std::string>();
    data[0] = '-';
    second.data = data;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidBase64, "invalid base64", after_first);
  }
  SECTION("missing padding") {
    second.data = "Zg";
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidBase64, "invalid base64", after_first);
  }
  SECTION("not a string") {
    second.data = nullptr;
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::InvalidBase64, "invalid base64", after_first);
  }
  SECTION("one byte short") {
    second.data = encode_base64(std::string_view(line).substr(1024, 1023));
    CHECK(reassembler.feed(second.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::WrongDataLength,
                  "wrong data length: expected 1024 bytes, got 1023", after_first);
  }
  SECTION("the last chunk longer than the rest of byteLength") {
    for (std::size_t i = 1; i + 1 < count; ++i) {
      REQUIRE(reassembler.feed(records[i].message()) == ChunkFeedResult::Accepted);
    }
    ChunkRecord last = records.back();
    const std::size_t rest = line.size() - (count - 1) * 1024;
    last.data = encode_base64(line.substr((count - 1) * 1024) + "x");
    CHECK(reassembler.feed(last.message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::WrongDataLength,
                  "wrong data length: expected " + std::to_string(rest) + " bytes, got " +
                      std::to_string(rest + 1),
                  diagnostics(count - 1, (count - 1) * 1024, count, line.size()));
  }
  SECTION("non-zero pad bits in the last chunk") {
    // Make the final slice a length that needs padding, then flip a pad bit.
    std::string padded_line = line;
    while ((padded_line.size() % 1024) % 3 != 1) padded_line += ' ';
    const auto padded = chunk_records(padded_line, kCommandId, kTaskId);
    ChunkReassembler fresh(kCommandId);
    for (std::size_t i = 0; i + 1 < padded.size(); ++i) {
      REQUIRE(fresh.feed(padded[i].message()) == ChunkFeedResult::Accepted);
    }
    ChunkRecord last = padded.back();
    std::string data = last.data.get<std::string>();
    REQUIRE(data.ends_with("=="));
    // The canonical character here is one of A, Q, g, w (low bits zero); its successor is
    // still in the alphabet but sets a pad bit.
    ++data[data.size() - 3];
    last.data = data;
    CHECK(fresh.feed(last.message()) == ChunkFeedResult::Failed);
    REQUIRE(fresh.failure().has_value());
    CHECK(fresh.failure()->kind == ChunkErrorKind::InvalidBase64);
  }
}

TEST_CASE("chunks: completion checks", "[transport][chunks]") {
  SECTION("checksum mismatch") {
    const std::string line = canonical_line(4000);
    auto records = chunk_records(line, kCommandId, kTaskId);
    for (ChunkRecord& record : records) record.sha256 = sha256_hex(line + " ");
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, records) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::ChecksumMismatch, "checksum mismatch",
                  diagnostics(records.size(), line.size(), records.size(), line.size()));
    CHECK(reassembler.take_line().empty());
  }
  SECTION("a corrupted slice with the original checksum") {
    const std::string line = canonical_line(4000);
    std::string corrupted = line;
    corrupted[2000] = corrupted[2000] == 'x' ? 'y' : 'x';
    auto records = chunk_records(corrupted, kCommandId, kTaskId);
    for (ChunkRecord& record : records) record.sha256 = sha256_hex(line);
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, records) == ChunkFeedResult::Failed);
    REQUIRE(reassembler.failure().has_value());
    CHECK(reassembler.failure()->reason == "checksum mismatch");
  }
  SECTION("text without the result prefix") {
    const std::string line = "[Clawperator-Result]" + big_envelope_json(kCommandId, kTaskId, 4000);
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Failed);
    REQUIRE(reassembler.failure().has_value());
    CHECK(reassembler.failure()->kind == ChunkErrorKind::MissingResultPrefix);
    CHECK(reassembler.failure()->reason == "missing result prefix");
  }
  SECTION("inner envelope for another task") {
    const std::string line = canonical_line(4000, kCommandId, "task-other");
    ChunkReassembler reassembler(kCommandId);
    const auto records = chunk_records(line, kCommandId, kTaskId);
    CHECK(feed_all(reassembler, records) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::CorrelationMismatch,
                  R"(correlation mismatch: envelope taskId "task-other", chunk taskId "task-1")",
                  diagnostics(records.size(), line.size(), records.size(), line.size()));
  }
  SECTION("inner envelope for another command") {
    const std::string line = canonical_line(4000, "cmd-other", kTaskId);
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Failed);
    REQUIRE(reassembler.failure().has_value());
    CHECK(reassembler.failure()->kind == ChunkErrorKind::CorrelationMismatch);
    CHECK(reassembler.failure()->reason ==
          R"(correlation mismatch: envelope commandId "cmd-other")");
  }
  SECTION("a header taskId other than the expected one fails at once") {
    const std::string line = canonical_line(4000);
    const auto records = chunk_records(line, kCommandId, kTaskId);
    ChunkReassembler reassembler(kCommandId, std::string("task-expected"));
    CHECK(reassembler.feed(records[0].message()) == ChunkFeedResult::Failed);
    check_failure(reassembler, ChunkErrorKind::CorrelationMismatch,
                  R"(correlation mismatch: taskId "task-1" is not "task-expected")",
                  diagnostics(0, 0, records.size(), line.size()));
  }
  SECTION("an inner envelope that is not a valid envelope") {
    std::string envelope_json = big_envelope_json(kCommandId, kTaskId, 4000);
    envelope_json.replace(envelope_json.find("\"success\""), 9, "\"ok\"");
    const std::string line = std::string(kResultPrefix) + envelope_json;
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Failed);
    REQUIRE(reassembler.failure().has_value());
    CHECK(reassembler.failure()->kind == ChunkErrorKind::MalformedEnvelope);
    CHECK(reassembler.failure()->reason ==
          "malformed envelope: status must be \"success\" or \"failed\"");
  }
  SECTION("the expected taskId matches") {
    const std::string line = canonical_line(4000);
    ChunkReassembler reassembler(kCommandId, kTaskId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Complete);
    CHECK(reassembler.take_line() == line);
  }
  SECTION("a small line may be chunked too") {
    const std::string line = std::string(kResultPrefix) + small_envelope_json(kCommandId, kTaskId);
    ChunkReassembler reassembler(kCommandId);
    CHECK(feed_all(reassembler, chunk_records(line, kCommandId, kTaskId)) ==
          ChunkFeedResult::Complete);
    CHECK(reassembler.take_line() == line);
  }
}
