#include "dispatch.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

#include "clawperator/adb/broadcast.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/text.hpp"

namespace clawperator::exec {
namespace {

using contract::DispatchState;
using contract::HostError;
using contract::Phase;
using process::Completion;
using Clock = std::chrono::steady_clock;

// Time the Operator gets beyond the payload's own timeoutMs (docs/wire-protocol.md §8).
constexpr std::chrono::milliseconds kPumpSlice{250};
constexpr std::chrono::milliseconds kProgressAfter{1000};

long long millis_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

Json chunk_diagnostics_json(const transport::ChunkDiagnostics& diagnostics) {
  Json out = Json::object();
  out["receivedChunks"] = diagnostics.receivedChunks;
  out["receivedBytes"] = diagnostics.receivedBytes;
  if (diagnostics.expectedChunks) out["expectedChunks"] = *diagnostics.expectedChunks;
  if (diagnostics.expectedBytes) out["expectedBytes"] = *diagnostics.expectedBytes;
  return out;
}

// The evidence every result-transport failure carries (docs/contract.md §4.1).
Json transport_details(const ResultReader& reader, const transport::ResultStreamDecoder& decoder,
                       bool dispatch_attempted) {
  Json details = Json::object();
  details["dispatchAttempted"] = dispatch_attempted;
  details["executionPosition"] = "unknown";
  details["stdoutObserved"] = reader.stdout_observed();
  if (reader.exited()) {
    details["exitCode"] = reader.exit_code();
    details["signal"] = reader.exit_signal() != 0 ? Json(reader.exit_signal()) : Json(nullptr);
    if (reader.drain_incomplete()) details["outputDrainIncomplete"] = true;
  }
  details["stderr"] = reader.stderr_tail();
  details["lastCorrelatedEvents"] = decoder.correlated_lines();
  details["transport"] = chunk_diagnostics_json(decoder.chunk_diagnostics());
  details["reader"] = reader.timeline();
  return details;
}

class ProgressLine {
 public:
  ProgressLine(bool enabled, Clock::time_point start, std::chrono::milliseconds budget)
      : enabled_(enabled), start_(start), budget_(budget) {}
  ~ProgressLine() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void update(const char* phase) {
    if (!enabled_) return;
    const auto elapsed = Clock::now() - start_;
    if (elapsed < kProgressAfter) return;
    const double seconds = std::chrono::duration<double>(elapsed).count();
    std::fprintf(stderr, "\r\033[K[clawperator] %s %.1fs / %.1fs", phase, seconds,
                 std::chrono::duration<double>(budget_).count());
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  bool enabled_;
  Clock::time_point start_;
  std::chrono::milliseconds budget_;
  bool shown_ = false;
};

}  // namespace

contract::Outcome<Dispatched> dispatch_and_wait(adb::AdbClient& client, const std::string& serial,
                                                ResultReader& reader,
                                                const std::string& payload_json,
                                                ExecutionTrace& trace,
                                                const LastAction& last_action,
                                                const DispatchOptions& options) {
  transport::ResultStreamDecoder decoder(trace.command_id, trace.task_id);
  // Whatever the pipe holds from before now is pre-dispatch noise.
  reader.pump(std::chrono::milliseconds(0), nullptr);
  decoder.begin_capture();

  trace.phase = Phase::Dispatch;
  trace.dispatch_state = DispatchState::Unknown;
  trace.dispatch_started_at = io::utc_timestamp(std::chrono::system_clock::now());
  reader.note("dispatch_started");
  const auto dispatch_start = Clock::now();
  const Completion broadcast =
      client.shell(serial, adb::broadcast_command(trace.operator_package, payload_json),
                   adb::kShellTimeout, adb::redacted_broadcast_command(trace.operator_package));
  Dispatched dispatched;
  dispatched.dispatch_ms = millis_since(dispatch_start);
  const adb::BroadcastClassification verdict = adb::classify_broadcast(broadcast);

  if (verdict.verdict != adb::BroadcastVerdict::Acknowledged) {
    trace.broadcast_status = "failed: " + verdict.detail;
    // A correlated result already on the stream proves dispatch all the same.
    reader.pump(std::chrono::milliseconds(0), &decoder);
    if (!std::holds_alternative<transport::CompleteResult>(decoder.status())) {
      if (broadcast.status == Completion::Status::Cancelled) {
        return contract::failed(interrupted(trace, "Interrupted while dispatching the command",
                                            transport_details(reader, decoder, true)));
      }
      if (verdict.verdict == adb::BroadcastVerdict::NotSent) {
        trace.dispatch_state = DispatchState::NotDispatched;
        if (auto error = adb::adb_call_failure(broadcast, client.settings(), "am broadcast",
                                               "BROADCAST_FAILED", serial)) {
          return contract::failed(trace.attach(std::move(*error)));
        }
      }
      Json details = Json::object();
      details["adbExitCode"] = broadcast.exit_code;
      details["adbStatus"] = process::to_string(broadcast.status);
      details["lastCorrelatedEvents"] = decoder.correlated_lines();
      if (verdict.verdict == adb::BroadcastVerdict::Refused) {
        trace.dispatch_state = DispatchState::NotDispatched;
        return contract::failed(trace.fail(
            "OPERATOR_NOT_INSTALLED", "Broadcast dispatch failed: " + verdict.detail, details));
      }
      return contract::failed(
          trace.fail("BROADCAST_FAILED", "Broadcast dispatch failed: " + verdict.detail, details));
    }
  } else {
    trace.broadcast_status = "sent";
  }
  trace.phase = Phase::ResultWait;
  trace.dispatch_state = DispatchState::Dispatched;

  // The command's budget, when it has one, ends the wait first (adb_client.hpp set_deadline).
  auto deadline = dispatch_start + options.result_timeout;
  if (const auto budget = client.deadline())
    deadline = std::max(dispatch_start, std::min(deadline, *budget));
  const auto result_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - dispatch_start);
  ProgressLine progress(options.show_progress, dispatch_start, result_timeout);
  while (!decoder.settled()) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (remaining.count() <= 0) {
      reader.note("deadline_reached");
      Json details = transport_details(reader, decoder, true);
      details["lastActionId"] = last_action.id;
      details["lastActionType"] = last_action.type;
      details["lastActionCaveat"] = "payload-last only; Android execution position is unknown";
      details["elapsedMs"] = millis_since(dispatch_start);
      // The nominal wait, so that the message does not vary with the time preflight took.
      details["timeoutMs"] = options.result_timeout.count();
      if (result_timeout < options.result_timeout) details["budgetWaitMs"] = result_timeout.count();
      HostError error = trace.fail("RESULT_ENVELOPE_TIMEOUT",
                                   "No [Clawperator-Result] envelope within " +
                                       std::to_string(options.result_timeout.count()) + "ms",
                                   details);
      if (decoder.correlated_lines().empty()) {
        // Silence from the Operator points elsewhere than the catalog's general advice.
        error.hint =
            "No correlated Android log lines were captured. This often indicates an "
            "APK/CLI version mismatch or an accessibility service issue. Run "
            "'clawperator doctor --device " +
            serial + " --operator-package " + trace.operator_package + "' to diagnose.";
      }
      return contract::failed(std::move(error));
    }
    const ResultReader::Wait wait = reader.pump(std::min(remaining, kPumpSlice), &decoder);
    progress.update("waiting for the result");
    if (decoder.settled()) break;
    if (wait.cancelled) {
      return contract::failed(interrupted(trace,
                                          "Interrupted while waiting for the result; the command "
                                          "may still run on the device",
                                          transport_details(reader, decoder, true)));
    }
    if (wait.exited) {
      return contract::failed(trace.fail("RESULT_TRANSPORT_EXITED",
                                         "The logcat reader exited before a complete result "
                                         "(exit " +
                                             std::to_string(reader.exit_code()) + ")",
                                         transport_details(reader, decoder, true)));
    }
  }

  if (const auto* malformed = std::get_if<transport::MalformedResult>(&decoder.status())) {
    Json details = transport_details(reader, decoder, true);
    Json transport = chunk_diagnostics_json(malformed->transport);
    transport["failure"] = malformed->reason;
    details["transport"] = std::move(transport);
    return contract::failed(trace.fail(
        "RESULT_ENVELOPE_MALFORMED",
        "The Operator's result for this command is malformed: " + malformed->reason, details));
  }
  dispatched.result = decoder.take_complete();
  // Only the parsed envelope is used from here on: do not hold a large result twice.
  std::string().swap(dispatched.result.canonical_line);
  dispatched.snapshot_blocks = decoder.snapshot_blocks();
  dispatched.result_ms = millis_since(dispatch_start);
  return dispatched;
}

}  // namespace clawperator::exec
