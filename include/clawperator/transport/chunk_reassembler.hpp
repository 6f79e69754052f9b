// Reassembles one command's `[Clawperator-Result-Chunk]` records into the canonical result
// line, with every check of docs/wire-protocol.md §7.5. An incomplete or inconsistent
// sequence never becomes a result.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/transport/chunk_record.hpp"
#include "clawperator/transport/envelope.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::transport {

inline constexpr std::string_view kChunkPrefix = "[Clawperator-Result-Chunk]";
inline constexpr std::size_t kChunkSliceBytes = 1024;
inline constexpr std::size_t kMaxChunkCount = 65536;
inline constexpr std::size_t kMaxResultBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxChunkTaskIdLength = 128;

enum class ChunkFeedResult {
  NotAChunk,  // not a chunk record: the caller reads it as an ordinary message
  Ignored,    // another command's record, or anything after Complete or Failed
  Accepted,
  Complete,  // take_line() / take_envelope() now hold the result
  Failed,    // failure() says why; the sequence is dead
};

enum class ChunkErrorKind {
  MalformedChunkJson,
  InvalidTaskId,
  ByteLengthOutOfRange,
  CountOutOfRange,
  CountMismatch,
  InvalidSha256,
  InconsistentHeader,
  InvalidIndex,
  IndexOutOfOrder,
  InvalidBase64,
  WrongDataLength,
  ChecksumMismatch,
  MissingResultPrefix,
  MalformedEnvelope,
  CorrelationMismatch,
  OutOfMemory,
};

// `details.transport` (docs/wire-protocol.md §7.5). The expected values are unknown until a
// valid header.
struct ChunkDiagnostics {
  std::size_t receivedChunks = 0;
  std::size_t receivedBytes = 0;
  std::optional<std::size_t> expectedChunks;
  std::optional<std::size_t> expectedBytes;

  friend bool operator==(const ChunkDiagnostics&, const ChunkDiagnostics&) = default;
};

struct ChunkError {
  ChunkErrorKind kind;
  // Starts with a fixed phrase ("index out of order", "checksum mismatch", ...), possibly
  // followed by ": " and the values involved.
  std::string reason;
  ChunkDiagnostics diagnostics;  // as they were when the failing record arrived
};

class ChunkReassembler {
 public:
  // With expected_task_id, a sequence declaring another taskId fails as a correlation
  // mismatch; without it, the taskId only has to be constant and match the inner envelope.
  explicit ChunkReassembler(std::string command_id,
                            std::optional<std::string> expected_task_id = std::nullopt);

  // One logcat message (already stripped of its logcat prefix).
  ChunkFeedResult feed(std::string_view message);

  const ChunkDiagnostics& diagnostics() const noexcept { return diagnostics_; }
  const std::optional<ChunkError>& failure() const noexcept { return failure_; }
  bool complete() const noexcept { return state_ == State::Complete; }

  // After Complete: the canonical line "[Clawperator-Result] {...}", byte-exact, and the
  // envelope parsed from it. Each can be taken once; empty/nullopt otherwise.
  std::string take_line() noexcept;
  std::optional<Envelope> take_envelope() noexcept;

 private:
  enum class State { Collecting, Complete, Failed };

  ChunkFeedResult accept_record(std::string_view json_text);
  ChunkFeedResult accept_fields(const ChunkRecordFields& record);
  ChunkFeedResult fail(ChunkErrorKind kind, std::string reason);
  ChunkFeedResult finish_sequence();

  std::string command_id_;
  std::optional<std::string> expected_task_id_;
  std::string quoted_command_id_;  // as JSON writes it, to spot records about this command

  // Set by the first valid record; every later one must agree.
  std::string task_id_;
  std::string sha256_;
  bool header_seen_ = false;

  std::string line_;
  Sha256 hasher_;
  std::size_t hashed_bytes_ = 0;  // line_ bytes already given to hasher_
  static constexpr std::size_t kHashRunBytes = std::size_t{64} << 10;
  void hash_pending() noexcept;
  ChunkDiagnostics diagnostics_;
  std::optional<ChunkError> failure_;
  std::optional<Envelope> envelope_;
  State state_ = State::Collecting;
};

}  // namespace clawperator::transport
