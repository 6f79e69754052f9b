#include "result_reader.hpp"

#include <unistd.h>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/transport/logcat_line.hpp"
#include "trace.hpp"

namespace clawperator::exec {
ResultReader::ResultReader(std::unique_ptr<process::Stream> stream, bool warm,
                           std::optional<bool> shows_uids)
    : stream_(std::move(stream)),
      shows_uids_(shows_uids),
      started_(std::chrono::steady_clock::now()),
      started_at_(io::utc_timestamp(std::chrono::system_clock::now())),
      reader_pid_(stream_->pid()),
      attached_(warm) {
  record(warm ? "warm_reader_reused" : "process_created");
}

ResultReader::~ResultReader() {
  terminate("settled");
}

long long ResultReader::elapsed_ms() const {
  return millis_since(started_);
}

void ResultReader::record(std::string name, Json extra) {
  Json event = Json::object();
  event["event"] = std::move(name);
  event["elapsedMs"] = elapsed_ms();
  for (auto& [key, value] : extra.items()) event[key] = std::move(value);
  events_.push_back(std::move(event));
  if (events_.size() > kMaxTimelineEvents) {
    events_.pop_front();
    ++dropped_events_;
  }
}

void ResultReader::note(const std::string& event) {
  record(event);
}

ResultReader::Wait ResultReader::pump(std::chrono::milliseconds timeout,
                                      transport::ResultStreamDecoder* decoder) {
  Wait wait;
  if (exited_) {
    wait.exited = true;
    return wait;
  }
  process::StreamEvent event = stream_->wait(timeout);
  if (!event.out.empty()) {
    if (stdout_bytes_ == 0) record("first_stdout");
    attached_ = true;
    stdout_bytes_ += event.out.size();
    last_stdout_ms_ = elapsed_ms();
    if (!shows_uids_) observe_uids(event.out);
    // Without a decoder nobody waits for a result yet: the bytes only prove attachment.
    if (decoder != nullptr) decoder->feed(event.out);
  }
  if (!event.err.empty()) {
    if (stderr_bytes_ == 0) record("first_stderr");
    stderr_bytes_ += event.err.size();
    last_stderr_ms_ = elapsed_ms();
    stderr_tail_ += event.err;
    if (stderr_tail_.size() > kMaxStderrTail) {
      stderr_tail_.erase(0, stderr_tail_.size() - kMaxStderrTail);
    }
  }
  if (event.exited) {
    exited_ = true;
    exit_code_ = event.exit_code;
    exit_signal_ = event.signal;
    drain_incomplete_ = event.drain_incomplete;
    Json extra = Json::object();
    extra["exitCode"] = event.exit_code;
    extra["signal"] = event.signal;
    record("exit", extra);
    record(event.drain_incomplete ? "pipes_closed_by_host" : "close");
    if (decoder != nullptr) decoder->finish();
    wait.exited = true;
  }
  wait.cancelled = event.cancelled;
  return wait;
}

void ResultReader::observe_uids(std::string_view stdout_bytes) {
  // Only until the first log line: one look decides it for the reader's lifetime.
  uid_lines_.feed(stdout_bytes, [this](std::string_view line) {
    if (shows_uids_) return;
    const transport::LogcatLine parsed = transport::parse_logcat_line(line);
    if (parsed.level != 0) shows_uids_ = !parsed.uid.empty();
  });
}

ResultReader::Wait ResultReader::wait_attached(std::chrono::milliseconds fallback) {
  const auto deadline = std::chrono::steady_clock::now() + fallback;
  while (!attached_) {
    const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (remaining.count() <= 0) break;
    const Wait wait = pump(remaining, nullptr);
    if (wait.exited || wait.cancelled) return wait;
  }
  return {};
}

void ResultReader::terminate(const std::string& reason) {
  if (terminated_) return;
  terminated_ = true;
  Json extra = Json::object();
  extra["reason"] = reason;
  record("cleanup_requested", extra);
  stream_->terminate();
}

std::unique_ptr<process::Stream> ResultReader::keep_warm() {
  if (terminated_ || exited_) return nullptr;
  terminated_ = true;
  record("kept_warm");
  return std::move(stream_);
}

Json ResultReader::timeline() const {
  Json out = Json::object();
  out["hostPid"] = static_cast<long long>(::getpid());
  out["readerPid"] = reader_pid_ > 0 ? Json(reader_pid_) : Json(nullptr);
  out["startedAt"] = started_at_;
  out["elapsedMs"] = elapsed_ms();
  out["stdoutBytes"] = stdout_bytes_;
  out["stderrBytes"] = stderr_bytes_;
  out["lastStdoutElapsedMs"] = last_stdout_ms_ ? Json(*last_stdout_ms_) : Json(nullptr);
  out["lastStderrElapsedMs"] = last_stderr_ms_ ? Json(*last_stderr_ms_) : Json(nullptr);
  out["events"] = Json::array();
  for (const Json& event : events_) out["events"].push_back(event);
  out["droppedEvents"] = dropped_events_;
  return out;
}

ResultReader::Wait attach_reader(ResultReader& reader, adb::AdbClient& client,
                                 const std::string& serial) {
  ResultReader::Wait attached = reader.wait_attached(ResultReader::kAttachFallback);
  if (attached.exited || attached.cancelled || reader.stdout_observed()) return attached;
  reader.note("attach_marker");
  // Its own failure changes nothing: the wait below is then the fallback it always was.
  (void)adb::run_device_shell(client, serial, {"log -t Clawperator attach", "log"});
  return reader.wait_attached(ResultReader::kAttachAfterMarker);
}

}  // namespace clawperator::exec
