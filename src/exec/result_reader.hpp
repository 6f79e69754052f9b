// The logcat reader process and what it has told us: stdout goes to the result
// decoder of the command being waited for; the rest is metadata (a bounded
// timeline, a stderr tail), never stream contents.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/transport/line_splitter.hpp"
#include "clawperator/transport/result_stream.hpp"

namespace clawperator::exec {

class ResultReader {
 public:
  static constexpr std::size_t kMaxTimelineEvents = 32;
  static constexpr std::size_t kMaxStderrTail = 8192;
  // What callers give wait_attached: logcat prints nothing until the next log line, and this
  // long is enough to attach.
  static constexpr std::chrono::milliseconds kAttachFallback{100};
  // How long attach_reader waits for the reader's first output once it logged its marker.
  static constexpr std::chrono::milliseconds kAttachAfterMarker{3000};

  // `warm`: a reader kept from an earlier execution (WarmFollowers), attached already;
  // `shows_uids`: what that execution learned of its lines (shows_uids()).
  explicit ResultReader(std::unique_ptr<process::Stream> stream, bool warm = false,
                        std::optional<bool> shows_uids = std::nullopt);
  ~ResultReader();
  ResultReader(const ResultReader&) = delete;
  ResultReader& operator=(const ResultReader&) = delete;

  struct Wait {
    bool exited = false;
    bool cancelled = false;
  };
  // Waits up to `timeout` for output, feeding stdout to `decoder` (when given).
  Wait pump(std::chrono::milliseconds timeout, transport::ResultStreamDecoder* decoder);
  // Returns once the reader shows it is attached (any stdout), it exited, or the
  // fallback delay passed: logcat prints nothing until the next log line.
  Wait wait_attached(std::chrono::milliseconds fallback);

  void note(const std::string& event);
  void terminate(const std::string& reason);
  // The reader itself, for the next execution on the device: nullptr when it exited or was
  // terminated. Either way this object reads no more.
  std::unique_ptr<process::Stream> keep_warm();

  // Whether the device's logcat prints each line's uid (`-v uid`; a logd that does not know
  // the writer prints blanks): decided by the first log line the reader printed, nullopt
  // before one (docs/guardrails.md).
  std::optional<bool> shows_uids() const { return shows_uids_; }
  // Attached: it printed something, now or in an earlier execution.
  bool stdout_observed() const { return attached_; }
  bool exited() const { return exited_; }
  int exit_code() const { return exit_code_; }
  int exit_signal() const { return exit_signal_; }
  // It exited, but something it started held its output open; we closed it.
  bool drain_incomplete() const { return drain_incomplete_; }
  const std::string& stderr_tail() const { return stderr_tail_; }
  // details.reader of docs/contract.md §4.1.
  Json timeline() const;

 private:
  void record(std::string name, Json extra = Json::object());
  long long elapsed_ms() const;

  void observe_uids(std::string_view stdout_bytes);

  std::unique_ptr<process::Stream> stream_;
  std::optional<bool> shows_uids_;
  transport::LineSplitter uid_lines_{8192};
  std::chrono::steady_clock::time_point started_;
  std::string started_at_;
  std::deque<Json> events_;
  std::size_t dropped_events_ = 0;
  int reader_pid_ = -1;
  bool attached_ = false;
  std::uint64_t stdout_bytes_ = 0;
  std::uint64_t stderr_bytes_ = 0;
  std::optional<long long> last_stdout_ms_;
  std::optional<long long> last_stderr_ms_;
  std::string stderr_tail_;
  bool exited_ = false;
  int exit_code_ = -1;
  int exit_signal_ = 0;
  bool drain_incomplete_ = false;
  bool terminated_ = false;
};

// The reader attached before anything is sent (docs/wire-protocol.md §6.2): its first output, or,
// when none came within kAttachFallback (a loaded host's `adb logcat` still starting, or an
// empty log buffer), one line logged on the device (`log -t Clawperator attach`) and then its
// first output, up to kAttachAfterMarker: an attached `logcat -T 1` prints the newest line at
// once, so once the buffer holds the marker any attached reader prints. Dispatching on the
// fallback alone lost results: a reader that attached after the broadcast showed only the
// newest line, the fifth chunk of a result (RESULT_ENVELOPE_MALFORMED, index out of order) or
// nothing of it (RESULT_ENVELOPE_TIMEOUT).
ResultReader::Wait attach_reader(ResultReader& reader, adb::AdbClient& client,
                                 const std::string& serial);

}  // namespace clawperator::exec
