#include "clawperator/transport/direct_frames.hpp"

#include <nlohmann/json.hpp>

#include "clawperator/transport/sha256.hpp"

namespace clawperator::transport {
namespace {

using nlohmann::json;

std::uint32_t read_length(const std::string& buffer, std::size_t at) {
  std::uint32_t length = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    length = (length << 8) | static_cast<unsigned char>(buffer[at + i]);
  }
  return length;
}

// The member as a string, or nullopt when absent or not a string.
std::optional<std::string> string_member(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<std::int64_t> integer_member(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

// "" when `key` holds `wanted`, else what is wrong.
std::string mismatch(const json& frame, const char* key, const std::string& wanted) {
  const std::optional<std::string> value = string_member(frame, key);
  if (!value) return std::string(key) + " is missing or not a string";
  if (*value != wanted)
    return std::string(key) + " is " + json(*value).dump() + ", not " + json(wanted).dump();
  return {};
}

}  // namespace

std::string encode_frame(std::string_view payload) {
  std::string frame;
  frame.reserve(payload.size() + 4);
  const auto length = static_cast<std::uint32_t>(payload.size());
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>((length >> shift) & 0xff);
  frame += payload;
  return frame;
}

DirectFrameReader::DirectFrameReader(DirectSessionIds ids) : ids_(std::move(ids)) {}

void DirectFrameReader::fail(std::string why) {
  if (stage_ == Stage::Failed) return;
  stage_ = Stage::Failed;
  failure_ = std::move(why);
  std::string().swap(buffer_);
  std::string().swap(result_);
  offset_ = 0;
}

void DirectFrameReader::ping_sent() {
  ping_pending_ = true;
  if (stage_ == Stage::Ready && ready_received_) stage_ = Stage::Pong;
}

void DirectFrameReader::feed(std::string_view bytes) {
  if (stage_ == Stage::Failed || stage_ == Stage::Done) return;
  buffer_.append(bytes);
  read_frames();
  if (stage_ == Stage::Failed) return;
  buffer_.erase(0, offset_);
  offset_ = 0;
}

void DirectFrameReader::read_frames() {
  while (stage_ != Stage::Failed && stage_ != Stage::Done) {
    const std::size_t available = buffer_.size() - offset_;
    if (stage_ == Stage::ResultBytes && frames_in_result_) {
      const std::uint64_t missing = expected_bytes_ - received_bytes_;
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(missing, available));
      result_.append(buffer_, offset_, take);
      offset_ += take;
      received_bytes_ += take;
      if (received_bytes_ < expected_bytes_) return;
      frames_in_result_ = false;
      ++frames_;
      result_bytes_complete();
      continue;
    }
    if (available < 4) return;
    const std::uint32_t length = read_length(buffer_, offset_);
    if (stage_ == Stage::ResultBytes) {
      if (length != expected_bytes_) {
        fail("the result frame declares " + std::to_string(length) + " bytes but the header said " +
             std::to_string(expected_bytes_));
        return;
      }
      offset_ += 4;
      frames_in_result_ = true;
      result_.reserve(length);
      continue;
    }
    if (length > kMaxControlFrameBytes) {
      fail("a control frame of " + std::to_string(length) + " bytes (at most " +
           std::to_string(kMaxControlFrameBytes) + ")");
      return;
    }
    if (available < 4 + std::size_t{length}) return;
    const std::string_view frame(buffer_.data() + offset_ + 4, length);
    offset_ += 4 + std::size_t{length};
    ++frames_;
    control(frame);
  }
}

void DirectFrameReader::control(std::string_view frame) {
  const json parsed = json::parse(frame, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    fail("a control frame that is not a JSON object");
    return;
  }
  const std::optional<std::string> type = string_member(parsed, "type");
  if (!type) {
    fail("a control frame without a string type");
    return;
  }
  if (*type == "ready") {
    if (stage_ != Stage::Ready || ready_received_) {
      fail("an unexpected ready frame");
      return;
    }
    if (integer_member(parsed, "protocol") != std::optional<std::int64_t>(1)) {
      fail("ready: protocol is not 1");
      return;
    }
    for (const auto& [key, wanted] :
         {std::pair<const char*, const std::string*>{"sessionId", &ids_.session_id},
          {"operatorPackage", &ids_.operator_package},
          {"commandId", &ids_.command_id},
          {"taskId", &ids_.task_id}}) {
      if (std::string problem = mismatch(parsed, key, *wanted); !problem.empty()) {
        fail("ready: " + problem);
        return;
      }
    }
    ready_received_ = true;
    if (ping_pending_) stage_ = Stage::Pong;
    return;
  }
  if (*type == "pong") {
    if (!ping_pending_ || !ready_received_) {
      fail("a pong before the host's ping");
      return;
    }
    if (std::string problem = mismatch(parsed, "sessionId", ids_.session_id); !problem.empty()) {
      fail("pong: " + problem);
      return;
    }
    pong_received_ = true;
    if (stage_ == Stage::Pong) stage_ = Stage::ResultHeader;
    return;
  }
  if (*type == "result") {
    if (stage_ != Stage::ResultHeader) {
      fail(stage_ == Stage::Timing ? "a second result header" : "a result header before the pong");
      return;
    }
    for (const auto& [key, wanted] :
         {std::pair<const char*, const std::string*>{"sessionId", &ids_.session_id},
          {"commandId", &ids_.command_id},
          {"taskId", &ids_.task_id}}) {
      if (std::string problem = mismatch(parsed, key, *wanted); !problem.empty()) {
        fail("result: " + problem);
        return;
      }
    }
    const std::optional<std::int64_t> length = integer_member(parsed, "byteLength");
    if (!length || *length <= 0 || static_cast<std::uint64_t>(*length) > kMaxDirectResultBytes) {
      fail("result: byteLength is not a whole number in 1.." +
           std::to_string(kMaxDirectResultBytes));
      return;
    }
    const std::optional<std::string> sha = string_member(parsed, "sha256");
    if (!sha || !is_lowercase_sha256_hex(*sha)) {
      fail("result: sha256 is not 64 lowercase hex digits");
      return;
    }
    expected_bytes_ = static_cast<std::uint64_t>(*length);
    expected_sha256_ = *sha;
    stage_ = Stage::ResultBytes;
    return;
  }
  if (*type == "timing") {
    if (stage_ != Stage::Timing) {
      fail("a timing frame before the result");
      return;
    }
    android_write_ms_ = integer_member(parsed, "androidResultWriteMs");
    android_ack_ms_ = integer_member(parsed, "androidResultAckRoundTripMs");
    stage_ = Stage::Done;
    return;
  }
  // A newer Operator's frame types: nothing to do with them.
}

void DirectFrameReader::result_bytes_complete() {
  const std::string actual = sha256_hex(result_);
  if (actual != expected_sha256_) {
    fail("the result's SHA-256 is " + actual + ", the header said " + expected_sha256_);
    return;
  }
  stage_ = Stage::Timing;
}

void DirectFrameReader::end_of_stream() {
  switch (stage_) {
    case Stage::Timing:
      stage_ = Stage::Done;  // the timing frame is optional
      return;
    case Stage::Done:
    case Stage::Failed:
      return;
    case Stage::Ready:
      fail(ready_received_ ? "the connection closed before the pong"
                           : "the connection closed before the ready frame");
      return;
    case Stage::Pong:
      fail("the connection closed before the pong");
      return;
    case Stage::ResultHeader:
      fail("the connection closed before the result");
      return;
    case Stage::ResultBytes:
      fail("the connection closed after " + std::to_string(received_bytes_) + " of " +
           std::to_string(expected_bytes_) + " result bytes");
      return;
  }
}

std::string DirectFrameReader::take_result_line() {
  return std::move(result_);
}

Expected<CompleteResult, Problem> direct_result(std::string line, const std::string& command_id,
                                                const std::string& task_id) {
  if (line.rfind(kResultPrefix, 0) != 0) {
    return Unexpected(Problem{"", "the result does not start with [Clawperator-Result]"});
  }
  Expected<Envelope, Problem> envelope =
      parse_envelope(std::string_view(line).substr(kResultPrefix.size()));
  if (!envelope) return Unexpected(Problem{"", "malformed envelope: " + envelope.error().text()});
  if (envelope->commandId != command_id || envelope->taskId != task_id) {
    return Unexpected(Problem{"", "correlation mismatch: the envelope is for commandId " +
                                      json(envelope->commandId).dump() + ", taskId " +
                                      json(envelope->taskId).dump()});
  }
  CompleteResult result;
  result.envelope = std::move(*envelope);
  result.canonical_line = std::move(line);
  return result;
}

}  // namespace clawperator::transport
