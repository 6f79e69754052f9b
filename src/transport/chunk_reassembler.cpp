#include "clawperator/transport/chunk_reassembler.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <utility>

#include "clawperator/json.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/chunk_record.hpp"

namespace clawperator::transport {

namespace {

// A JSON integer in [minimum, maximum]; floats ("1.0") are not integers on this wire.
std::optional<std::uint64_t> integer_in_range(const ChunkField& value, std::uint64_t minimum,
                                              std::uint64_t maximum) {
  if (value.kind != ChunkField::Kind::Unsigned) return std::nullopt;
  if (value.unsigned_value < minimum || value.unsigned_value > maximum) return std::nullopt;
  return value.unsigned_value;
}

}  // namespace

ChunkReassembler::ChunkReassembler(std::string command_id,
                                   std::optional<std::string> expected_task_id)
    : command_id_(std::move(command_id)),
      expected_task_id_(std::move(expected_task_id)),
      quoted_command_id_(quote_json(command_id_)) {}

ChunkFeedResult ChunkReassembler::feed(std::string_view message) {
  if (!message.starts_with(kChunkPrefix)) return ChunkFeedResult::NotAChunk;
  if (state_ != State::Collecting) return ChunkFeedResult::Ignored;
  try {
    return accept_record(message.substr(kChunkPrefix.size()));
  } catch (const std::bad_alloc&) {
    return fail(ChunkErrorKind::OutOfMemory, "out of memory");
  } catch (const std::exception& exception) {
    return fail(ChunkErrorKind::MalformedChunkJson,
                std::string("malformed chunk JSON: ") + exception.what());
  }
}

ChunkFeedResult ChunkReassembler::accept_record(std::string_view json_text) {
  // The Operator's records take the fast path; nlohmann settles everything else, so that odd
  // but valid JSON means the same and invalid JSON fails the same way.
  if (const std::optional<ChunkRecordFields> fields = scan_chunk_record(json_text)) {
    return accept_fields(*fields);
  }
  const nlohmann::json record =
      nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded() || !record.is_object()) {
    // A cut or garbled record can only be blamed on us if it names us.
    if (json_text.find(quoted_command_id_) == std::string_view::npos) {
      return ChunkFeedResult::Ignored;
    }
    return fail(ChunkErrorKind::MalformedChunkJson, "malformed chunk JSON");
  }
  return accept_fields(chunk_fields_from_json(record));
}

ChunkFeedResult ChunkReassembler::accept_fields(const ChunkRecordFields& record) {
  using Kind = ChunkField::Kind;
  if (record.commandId.kind != Kind::String || record.commandId.text != command_id_) {
    return ChunkFeedResult::Ignored;
  }

  const ChunkField& task_id = record.taskId;
  if (task_id.kind != Kind::String || task_id.text.empty() ||
      task_id.text.size() > kMaxChunkTaskIdLength) {
    return fail(ChunkErrorKind::InvalidTaskId, "invalid taskId");
  }
  const std::optional<std::uint64_t> byte_length =
      integer_in_range(record.byteLength, 1, kMaxResultBytes);
  if (!byte_length) return fail(ChunkErrorKind::ByteLengthOutOfRange, "byteLength out of range");
  const std::optional<std::uint64_t> count = integer_in_range(record.count, 1, kMaxChunkCount);
  if (!count) return fail(ChunkErrorKind::CountOutOfRange, "count out of range");
  const std::uint64_t required_count = (*byte_length + kChunkSliceBytes - 1) / kChunkSliceBytes;
  if (*count != required_count) {
    return fail(ChunkErrorKind::CountMismatch,
                "count mismatch: count=" + std::to_string(*count) +
                    ", ceil(byteLength/1024)=" + std::to_string(required_count));
  }
  const ChunkField& sha256 = record.sha256;
  // After the first record, the usual digest is the one already validated.
  if (sha256.kind != Kind::String ||
      !((header_seen_ && sha256.text == sha256_) || is_lowercase_sha256_hex(sha256.text))) {
    return fail(ChunkErrorKind::InvalidSha256, "invalid sha256");
  }

  // count follows from byteLength (checked above), so a constant byteLength keeps it constant.
  if (header_seen_) {
    if (task_id.text != task_id_) {
      return fail(ChunkErrorKind::InconsistentHeader, "inconsistent header: taskId");
    }
    if (*byte_length != diagnostics_.expectedBytes) {
      return fail(ChunkErrorKind::InconsistentHeader, "inconsistent header: byteLength");
    }
    if (sha256.text != sha256_) {
      return fail(ChunkErrorKind::InconsistentHeader, "inconsistent header: sha256");
    }
  } else {
    header_seen_ = true;
    task_id_ = task_id.text;
    sha256_ = sha256.text;
    diagnostics_.expectedBytes = static_cast<std::size_t>(*byte_length);
    diagnostics_.expectedChunks = static_cast<std::size_t>(*count);
    if (expected_task_id_ && task_id_ != *expected_task_id_) {
      return fail(ChunkErrorKind::CorrelationMismatch, "correlation mismatch: taskId " +
                                                           quote_json(task_id_) + " is not " +
                                                           quote_json(*expected_task_id_));
    }
    // Validated above to at most 64 MiB: one allocation for the whole result.
    line_.reserve(static_cast<std::size_t>(*byte_length));
  }

  const ChunkField& index = record.index;
  if (index.kind != Kind::Unsigned && index.kind != Kind::Signed) {
    return fail(ChunkErrorKind::InvalidIndex, "invalid index");
  }
  if (index.kind != Kind::Unsigned || index.unsigned_value != diagnostics_.receivedChunks) {
    const std::string received = index.kind == Kind::Unsigned ? std::to_string(index.unsigned_value)
                                                              : std::to_string(index.signed_value);
    return fail(ChunkErrorKind::IndexOutOfOrder,
                "index out of order: expectedIndex=" + std::to_string(diagnostics_.receivedChunks) +
                    ", receivedIndex=" + received);
  }

  if (record.data.kind != Kind::String) {
    return fail(ChunkErrorKind::InvalidBase64, "invalid base64");
  }
  const std::string_view text = record.data.text;
  const std::size_t expected_size = std::min(
      kChunkSliceBytes, static_cast<std::size_t>(*byte_length) - diagnostics_.receivedBytes);
  const std::optional<std::size_t> decoded_size = base64_decoded_size(text);
  if (!decoded_size) return fail(ChunkErrorKind::InvalidBase64, "invalid base64");
  // Checked before decoding so that the buffer never grows past byteLength.
  if (*decoded_size != expected_size) {
    return fail(ChunkErrorKind::WrongDataLength,
                "wrong data length: expected " + std::to_string(expected_size) + " bytes, got " +
                    std::to_string(*decoded_size));
  }
  if (!append_base64_decoded(text, line_)) {
    return fail(ChunkErrorKind::InvalidBase64, "invalid base64");
  }
  diagnostics_.receivedBytes = line_.size();
  // Hashed in runs of kHashRunBytes rather than per 1 KiB record: each update has a fixed
  // cost that 65,536 records of a 64 MiB result would pay one by one.
  if (line_.size() - hashed_bytes_ >= kHashRunBytes) hash_pending();
  ++diagnostics_.receivedChunks;

  if (diagnostics_.receivedChunks < *count) return ChunkFeedResult::Accepted;
  return finish_sequence();
}

void ChunkReassembler::hash_pending() noexcept {
  hasher_.update(std::string_view(line_).substr(hashed_bytes_));
  hashed_bytes_ = line_.size();
}

ChunkFeedResult ChunkReassembler::finish_sequence() {
  hash_pending();
  if (hasher_.finish_hex() != sha256_) {
    return fail(ChunkErrorKind::ChecksumMismatch, "checksum mismatch");
  }
  const std::string_view line = line_;
  if (!line.starts_with(kResultPrefix)) {
    return fail(ChunkErrorKind::MissingResultPrefix, "missing result prefix");
  }
  Expected<Envelope, Problem> envelope = parse_envelope(line.substr(kResultPrefix.size()));
  if (!envelope) {
    return fail(ChunkErrorKind::MalformedEnvelope,
                "malformed envelope: " + envelope.error().text());
  }
  if (envelope->commandId != command_id_) {
    return fail(ChunkErrorKind::CorrelationMismatch,
                "correlation mismatch: envelope commandId " + quote_json(envelope->commandId));
  }
  if (envelope->taskId != task_id_) {
    return fail(ChunkErrorKind::CorrelationMismatch, "correlation mismatch: envelope taskId " +
                                                         quote_json(envelope->taskId) +
                                                         ", chunk taskId " + quote_json(task_id_));
  }
  envelope_ = std::move(envelope).value();
  state_ = State::Complete;
  return ChunkFeedResult::Complete;
}

ChunkFeedResult ChunkReassembler::fail(ChunkErrorKind kind, std::string reason) {
  failure_ = ChunkError{kind, std::move(reason), diagnostics_};
  state_ = State::Failed;
  std::string().swap(line_);  // a dead sequence must not hold up to 64 MiB
  return ChunkFeedResult::Failed;
}

std::string ChunkReassembler::take_line() noexcept {
  if (state_ != State::Complete) return {};
  return std::exchange(line_, std::string());
}

std::optional<Envelope> ChunkReassembler::take_envelope() noexcept {
  return std::exchange(envelope_, std::nullopt);
}

}  // namespace clawperator::transport
