// Builders shared by the transport tests: result lines and chunk records made the way the
// Operator makes them, and logcat framing in each `-v` format.
#pragma once

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::transport::test {

// The command and task of the tests' results (a test about another one names its own).
inline const std::string kCommandId = "cmd-7f3a";
inline const std::string kTaskId = "task-1";

// A valid envelope whose canonical line exceeds min_bytes, with multi-byte UTF-8 throughout
// so that 1024-byte slices cut characters in half.
inline std::string big_envelope_json(const std::string& command_id, const std::string& task_id,
                                     std::size_t min_bytes) {
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  std::size_t size = 0;
  for (int i = 0; size < min_bytes; ++i) {
    std::string text =
        "step " + std::to_string(i) + " héllo wörld ✓ 漢字 🙂 \"quoted\" \\ ";
    size += text.size() + 80;
    steps.push_back({{"id", "s" + std::to_string(i)},
                     {"actionType", "snapshot_ui"},
                     {"success", true},
                     {"data", {{"text", text}, {"n", i}}}});
  }
  nlohmann::ordered_json envelope{{"commandId", command_id},
                                  {"taskId", task_id},
                                  {"status", "success"},
                                  {"stepResults", steps},
                                  {"error", nullptr}};
  return envelope.dump();
}

inline std::string small_envelope_json(const std::string& command_id, const std::string& task_id) {
  return R"({"commandId":")" + command_id + R"(","taskId":")" + task_id +
         R"(","status":"success","stepResults":[{"id":"a1","actionType":"sleep",)"
         R"("success":true,"data":{"ms":"10"}}],"error":null})";
}

struct ChunkRecord {
  nlohmann::ordered_json commandId;
  nlohmann::ordered_json taskId;
  nlohmann::ordered_json index;
  nlohmann::ordered_json count;
  nlohmann::ordered_json byteLength;
  nlohmann::ordered_json sha256;
  nlohmann::ordered_json data;

  std::string message() const {
    const nlohmann::ordered_json record{
        {"commandId", commandId},   {"taskId", taskId}, {"index", index}, {"count", count},
        {"byteLength", byteLength}, {"sha256", sha256}, {"data", data}};
    return "[Clawperator-Result-Chunk] " + record.dump();
  }
};

// The Operator's framing of one canonical line: 1024-byte slices, standard base64.
inline std::vector<ChunkRecord> chunk_records(std::string_view canonical_line,
                                              const std::string& command_id,
                                              const std::string& task_id) {
  std::vector<ChunkRecord> records;
  const std::size_t count = (canonical_line.size() + 1023) / 1024;
  const std::string digest = sha256_hex(canonical_line);
  for (std::size_t index = 0; index < count; ++index) {
    records.push_back(ChunkRecord{command_id, task_id, index, count, canonical_line.size(), digest,
                                  encode_base64(canonical_line.substr(index * 1024, 1024))});
  }
  return records;
}

inline std::vector<std::string> chunk_messages(std::string_view canonical_line,
                                               const std::string& command_id,
                                               const std::string& task_id) {
  std::vector<std::string> messages;
  for (const ChunkRecord& record : chunk_records(canonical_line, command_id, task_id)) {
    messages.push_back(record.message());
  }
  return messages;
}

inline std::string time_line(std::string_view tag, std::string_view message) {
  return "02-19 12:00:00.123 I/" + std::string(tag) + "( 4321): " + std::string(message);
}

inline std::string threadtime_line(std::string_view tag, std::string_view message) {
  return "02-19 12:00:00.123  4321  4455 I " + std::string(tag) + ": " + std::string(message);
}

inline std::string brief_line(std::string_view tag, std::string_view message) {
  return "I/" + std::string(tag) + "(  321): " + std::string(message);
}

// Pieces of random length in [1, max_piece].
inline std::vector<std::string_view> random_pieces(std::string_view bytes, unsigned seed,
                                                   std::size_t max_piece) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> length(1, max_piece);
  std::vector<std::string_view> pieces;
  while (!bytes.empty()) {
    const std::size_t take = std::min(bytes.size(), length(random));
    pieces.push_back(bytes.substr(0, take));
    bytes.remove_prefix(take);
  }
  return pieces;
}

}  // namespace clawperator::transport::test
