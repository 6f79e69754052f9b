// The host's side of the direct result transport (docs/wire-protocol.md §11): the frames the
// Operator sends over the forwarded socket, read in order and checked — ready, pong, the
// result header, exactly one result frame of byteLength bytes with that SHA-256, then an
// optional timing frame. Pure: the caller owns the socket and the clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/problem.hpp"
#include "clawperator/transport/envelope.hpp"
#include "clawperator/transport/result_stream.hpp"

namespace clawperator::transport {

inline constexpr std::size_t kMaxControlFrameBytes = 4096;
inline constexpr std::size_t kMaxDirectResultBytes = std::size_t{32} << 20;

// A 4-byte big-endian length, then the bytes (which must fit kMaxDirectResultBytes).
std::string encode_frame(std::string_view payload);

// What the prepare broadcast asked for: every frame must name this session and command.
struct DirectSessionIds {
  std::string session_id;
  std::string operator_package;
  std::string command_id;
  std::string task_id;
};

class DirectFrameReader {
 public:
  enum class Stage {
    Ready,         // waiting for {"type":"ready"}
    Pong,          // the host pinged; waiting for the pong
    ResultHeader,  // set up; waiting for {"type":"result"}
    ResultBytes,   // the header came; waiting for its frame
    Timing,        // the result is verified and may be taken; the host acks
    Done,          // the timing frame came, or the Operator closed after the result
    Failed,
  };

  explicit DirectFrameReader(DirectSessionIds ids);

  // The host sent its ping (stage Ready -> Pong once ready has come).
  void ping_sent();
  void feed(std::string_view bytes);
  // The Operator closed the connection (or it dropped).
  void end_of_stream();

  Stage stage() const noexcept { return stage_; }
  bool failed() const noexcept { return stage_ == Stage::Failed; }
  bool ready_received() const noexcept { return ready_received_; }
  bool pong_received() const noexcept { return pong_received_; }
  bool result_verified() const noexcept { return stage_ == Stage::Timing || stage_ == Stage::Done; }
  // Why it failed, in words for details (no result bytes in it).
  const std::string& failure() const noexcept { return failure_; }
  // From the result header (0 before it), and how many result bytes arrived.
  std::uint64_t expected_bytes() const noexcept { return expected_bytes_; }
  std::uint64_t received_bytes() const noexcept { return received_bytes_; }
  std::uint64_t frames() const noexcept { return frames_; }
  // The verified canonical line "[Clawperator-Result] {…}" (moved out; once).
  std::string take_result_line();
  // The timing frame's two numbers, when it came.
  std::optional<std::int64_t> android_write_ms() const noexcept { return android_write_ms_; }
  std::optional<std::int64_t> android_ack_round_trip_ms() const noexcept { return android_ack_ms_; }

 private:
  void read_frames();
  void control(std::string_view frame);
  void result_bytes_complete();
  void fail(std::string why);

  DirectSessionIds ids_;
  Stage stage_ = Stage::Ready;
  std::string buffer_;
  std::size_t offset_ = 0;         // of the next unread byte in buffer_
  bool frames_in_result_ = false;  // inside the result frame, after its length
  bool ready_received_ = false;
  bool pong_received_ = false;
  bool ping_pending_ = false;
  std::uint64_t expected_bytes_ = 0;
  std::uint64_t received_bytes_ = 0;
  std::uint64_t frames_ = 0;
  std::string expected_sha256_;
  std::string result_;
  std::string failure_;
  std::optional<std::int64_t> android_write_ms_;
  std::optional<std::int64_t> android_ack_ms_;
};

// The verified line as the execution's result: the prefix, a valid envelope, this command's
// commandId and taskId. The error says what is wrong.
Expected<CompleteResult, Problem> direct_result(std::string line, const std::string& command_id,
                                                const std::string& task_id);

}  // namespace clawperator::transport
