// Where one HTTP/1.1 request ends, decided by our code before cpp-httplib reads a byte of it
// (docs/serve.md §4 "Bounds"): the request line and headers bounded in bytes and lines, the
// body bounded whether Content-Length or chunked frames it (a body with neither is empty, as
// HTTP/1.1 says), and framings that two parsers could read differently refused. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "clawperator/serve/request_body.hpp"

namespace clawperator::serve {

struct RequestLimits {
  std::size_t max_head_bytes = 16 * 1024;      // request line, headers and trailers together
  std::size_t max_header_lines = 64;           // headers and trailers
  std::size_t max_body_bytes = kMaxBodyBytes;  // the body as the route reads it
  std::size_t max_framing_bytes = 16 * 1024;   // chunk-size lines and their CRLFs
};

// Why a request is refused before it is handled: 400 MALFORMED_REQUEST, 413
// PAYLOAD_TOO_LARGE, 431 REQUEST_HEADERS_TOO_LARGE.
struct FrameError {
  int status = 0;
  std::string code;
  std::string message;
};

class RequestFramer {
 public:
  enum class State { NeedMore, Complete, Refused };

  explicit RequestFramer(RequestLimits limits = {}) : limits_(limits) {}

  // Takes the next bytes of the connection. Once Complete or Refused, more bytes change nothing.
  State feed(std::string_view bytes);
  State state() const { return state_; }
  bool started() const { return !buffer_.empty(); }
  // The request's bytes, exactly (bytes after it are not kept): valid once Complete.
  std::string_view request() const { return std::string_view(buffer_).substr(0, position_); }
  const FrameError& refusal() const { return refusal_; }

 private:
  enum class Phase { RequestLine, Headers, Body, ChunkSize, ChunkData, ChunkEnd, Trailers };
  State step();
  State refuse(int status, std::string code, std::string message);
  State end_of_head();
  State header_line(std::string_view line);

  RequestLimits limits_;
  std::string buffer_;
  std::size_t position_ = 0;  // bytes of buffer_ parsed
  Phase phase_ = Phase::RequestLine;
  State state_ = State::NeedMore;
  FrameError refusal_;
  std::size_t head_bytes_ = 0;
  std::size_t header_lines_ = 0;
  std::size_t body_bytes_ = 0;
  std::size_t framing_bytes_ = 0;
  std::size_t remaining_ = 0;  // of the body or the current chunk
  int content_lengths_ = 0;
  int transfer_encodings_ = 0;
  std::string content_length_;
  std::string transfer_encoding_;
};

}  // namespace clawperator::serve
