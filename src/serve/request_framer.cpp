#include "clawperator/serve/request_framer.hpp"

#include <algorithm>

#include "clawperator/text.hpp"

namespace clawperator::serve {
namespace {

constexpr std::string_view kLineEnd = "\r\n";
constexpr std::size_t kMaxChunkSizeLine = 256;

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

RequestFramer::State RequestFramer::feed(std::string_view bytes) {
  if (state_ != State::NeedMore) return state_;
  buffer_.append(bytes);
  while (state_ == State::NeedMore) {
    const std::size_t before = position_;
    const Phase phase = phase_;
    state_ = step();
    if (state_ == State::NeedMore && position_ == before && phase_ == phase) break;
  }
  if (state_ == State::Complete) buffer_.resize(position_);
  if (state_ == State::Refused) buffer_.clear();
  return state_;
}

RequestFramer::State RequestFramer::refuse(int status, std::string code, std::string message) {
  refusal_ = {status, std::move(code), std::move(message)};
  return State::Refused;
}

RequestFramer::State RequestFramer::step() {
  const std::string_view rest = std::string_view(buffer_).substr(position_);
  const bool head =
      phase_ == Phase::RequestLine || phase_ == Phase::Headers || phase_ == Phase::Trailers;
  if (phase_ == Phase::Body || phase_ == Phase::ChunkData) {
    const std::size_t take = std::min(rest.size(), remaining_);
    position_ += take;
    remaining_ -= take;
    if (remaining_ > 0) return State::NeedMore;
    if (phase_ == Phase::Body) return State::Complete;
    phase_ = Phase::ChunkEnd;
    return State::NeedMore;
  }
  if (phase_ == Phase::ChunkEnd) {
    if (rest.size() < kLineEnd.size()) return State::NeedMore;
    if (rest.substr(0, kLineEnd.size()) != kLineEnd) {
      return refuse(400, "MALFORMED_REQUEST", "A chunk of the body does not end with CRLF");
    }
    position_ += kLineEnd.size();
    framing_bytes_ += kLineEnd.size();
    phase_ = Phase::ChunkSize;
    return State::NeedMore;
  }
  const std::size_t end = rest.find(kLineEnd);
  const std::size_t length = end == std::string_view::npos ? rest.size() : end;
  if (head && head_bytes_ + length + kLineEnd.size() > limits_.max_head_bytes) {
    return refuse(
        431, "REQUEST_HEADERS_TOO_LARGE",
        "The request line and headers exceed " + std::to_string(limits_.max_head_bytes) + " bytes");
  }
  if (phase_ == Phase::ChunkSize && length > kMaxChunkSizeLine) {
    return refuse(400, "MALFORMED_REQUEST", "A chunk-size line is too long");
  }
  if (end == std::string_view::npos) return State::NeedMore;
  const std::string_view line = rest.substr(0, end);
  position_ += end + kLineEnd.size();
  if (head) head_bytes_ += end + kLineEnd.size();

  switch (phase_) {
    case Phase::RequestLine:
      if (line.empty()) return refuse(400, "MALFORMED_REQUEST", "The request line is empty");
      phase_ = Phase::Headers;
      return State::NeedMore;
    case Phase::Headers:
      if (line.empty()) return end_of_head();
      return header_line(line);
    case Phase::Trailers:
      if (line.empty()) return State::Complete;
      if (++header_lines_ > limits_.max_header_lines) {
        return refuse(431, "REQUEST_HEADERS_TOO_LARGE",
                      "The request has more than " + std::to_string(limits_.max_header_lines) +
                          " header lines");
      }
      return State::NeedMore;
    case Phase::ChunkSize: {
      framing_bytes_ += end + kLineEnd.size();
      if (framing_bytes_ > limits_.max_framing_bytes) {
        return refuse(413, "PAYLOAD_TOO_LARGE", "Payload exceeds 100kb limit");
      }
      const std::string_view digits = trim(line.substr(0, line.find(';')));
      if (digits.empty()) return refuse(400, "MALFORMED_REQUEST", "A chunk size is missing");
      std::size_t size = 0;
      for (const char c : digits) {
        const int value = hex_value(c);
        if (value < 0) return refuse(400, "MALFORMED_REQUEST", "A chunk size is not hexadecimal");
        // Over the limit already: no need to read further digits into an overflow.
        if (size > limits_.max_body_bytes) break;
        size = size * 16 + static_cast<std::size_t>(value);
      }
      if (size > limits_.max_body_bytes - body_bytes_) {
        return refuse(413, "PAYLOAD_TOO_LARGE", "Payload exceeds 100kb limit");
      }
      body_bytes_ += size;
      remaining_ = size;
      phase_ = size == 0 ? Phase::Trailers : Phase::ChunkData;
      return State::NeedMore;
    }
    default:
      return State::NeedMore;
  }
}

RequestFramer::State RequestFramer::header_line(std::string_view line) {
  if (++header_lines_ > limits_.max_header_lines) {
    return refuse(
        431, "REQUEST_HEADERS_TOO_LARGE",
        "The request has more than " + std::to_string(limits_.max_header_lines) + " header lines");
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return refuse(400, "MALFORMED_REQUEST", "A header line has no name");
  }
  const std::string name = lowercase(line.substr(0, colon));
  const std::string_view value = trim(line.substr(colon + 1));
  if (name == "content-length") {
    ++content_lengths_;
    content_length_ = std::string(value);
  } else if (name == "transfer-encoding") {
    ++transfer_encodings_;
    transfer_encoding_ = lowercase(value);
  }
  return State::NeedMore;
}

RequestFramer::State RequestFramer::end_of_head() {
  if (transfer_encodings_ > 0) {
    // Two framings, or one we do not read, could be taken differently by the next parser.
    if (content_lengths_ > 0 || transfer_encodings_ > 1 || transfer_encoding_ != "chunked") {
      return refuse(400, "MALFORMED_REQUEST",
                    "The body must be framed by Content-Length or by chunked alone");
    }
    phase_ = Phase::ChunkSize;
    return State::NeedMore;
  }
  if (content_lengths_ == 0) return State::Complete;
  if (content_lengths_ > 1 || !all_digits(content_length_)) {
    return refuse(400, "MALFORMED_REQUEST", "The request needs one numeric Content-Length");
  }
  if (content_length_.size() > 12 || std::stoull(content_length_) > limits_.max_body_bytes) {
    return refuse(413, "PAYLOAD_TOO_LARGE", "Payload exceeds 100kb limit");
  }
  remaining_ = static_cast<std::size_t>(std::stoull(content_length_));
  if (remaining_ == 0) return State::Complete;
  phase_ = Phase::Body;
  return State::NeedMore;
}

}  // namespace clawperator::serve
