// The direct result transport's I/O (docs/wire-protocol.md §11): the prepare broadcast, the
// adb forward to the Operator's abstract socket, the TCP connection and its frames (read by
// transport::DirectFrameReader). The forward lives exactly as long as this object.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/forward_registry.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/transport/direct_frames.hpp"
#include "trace.hpp"

namespace clawperator::exec {

// The registry lives in adb/ since webview/ records its forwards there too.
using adb::ForwardRegistry;

// The whole setup (prepare, forward, connect, ready, ping, pong) gets this long.
inline constexpr std::chrono::milliseconds kDirectSetupTimeout{10000};

class DirectReader {
 public:
  using Clock = std::chrono::steady_clock;

  struct SetupError {
    std::string message;  // which step failed and how
    Json details;         // details.direct
    bool interrupted = false;
  };

  // Sets the session up before anything is dispatched; `lifetime` is the session's
  // lifetimeMs. Every forward it creates is recorded in `forwards` until removed.
  static Expected<std::unique_ptr<DirectReader>, SetupError> open(
      adb::AdbClient& client, const std::string& serial, const ExecutionTrace& trace,
      const ForwardRegistry& forwards, std::chrono::milliseconds lifetime,
      std::chrono::milliseconds setup_timeout = kDirectSetupTimeout);

  ~DirectReader();  // closes the connection, removes the forward and its record
  DirectReader(const DirectReader&) = delete;
  DirectReader& operator=(const DirectReader&) = delete;

  const std::string& session_id() const { return session_id_; }

  enum class Wait { Result, Failed, TimedOut, Cancelled };
  // Until the result is verified (then acks it and waits up to 1 s for the timing frame),
  // the frames fail, the deadline passes or an interrupt arrives.
  Wait wait_result(Clock::time_point deadline);
  // The verified line (after Wait::Result).
  std::string take_result_line() { return std::move(line_); }
  const transport::DirectFrameReader& frames() const { return frames_; }
  // details.direct: session, port, stage, failure, byte counts, timeline.
  Json details() const;

 private:
  DirectReader(adb::AdbClient& client, std::string serial, const ForwardRegistry& forwards,
               std::string session_id, transport::DirectSessionIds ids);
  enum class Io { Progress, Closed, TimedOut, Cancelled, Error };
  // Reads what is there (waiting up to the deadline) into the frame reader.
  Io read_some(Clock::time_point deadline);
  bool send_frame(std::string_view json_text);
  void note(std::string event, Json extra = Json::object());

  adb::AdbClient& client_;
  std::string serial_;
  const ForwardRegistry& forwards_;
  std::string session_id_;
  transport::DirectFrameReader frames_;
  Clock::time_point started_ = Clock::now();
  std::optional<int> port_;
  int fd_ = -1;
  std::string io_error_;
  std::string line_;  // the verified result
  Json timeline_ = Json::array();
};

}  // namespace clawperator::exec
