#include "dispatch.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

#include "clawperator/adb/broadcast.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/text.hpp"
#include "payload_route.hpp"

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

Json chunk_diagnostics_json(const transport::ChunkDiagnostics& diagnostics) {
  Json out = Json::object();
  out["receivedChunks"] = diagnostics.receivedChunks;
  out["receivedBytes"] = diagnostics.receivedBytes;
  if (diagnostics.expectedChunks) out["expectedChunks"] = *diagnostics.expectedChunks;
  if (diagnostics.expectedBytes) out["expectedBytes"] = *diagnostics.expectedBytes;
  return out;
}

// Chunk indices that never arrived: a gap the reassembler stopped at ("index out of order:
// expectedIndex=X, receivedIndex=Y" with Y > X), or the tail a timeout left. At most 100.
Json missing_indices(const transport::ChunkDiagnostics& diagnostics, std::string_view reason) {
  std::uint64_t first = diagnostics.receivedChunks;
  std::uint64_t end = 0;
  if (const auto at = reason.find("receivedIndex="); at != std::string_view::npos) {
    const std::string_view digits = reason.substr(at + 14);
    std::uint64_t received = 0;
    std::size_t n = 0;
    while (n < digits.size() && n < 12 && digits[n] >= '0' && digits[n] <= '9') {
      received = received * 10 + static_cast<std::uint64_t>(digits[n++] - '0');
    }
    if (n > 0 && received > first) end = received;
  } else if (reason.empty() && diagnostics.expectedChunks) {
    end = *diagnostics.expectedChunks;
  }
  Json indices = Json::array();
  for (std::uint64_t i = first; i < end && indices.size() < 100; ++i) indices.push_back(i);
  return indices;
}

// Records of the result that never reached the reader: logd pruned the Operator's records (its
// chatty notices name its package), or logd cut off a reader that fell behind (logcat's
// "Unexpected EOF!", on its stderr, or on stdout from a device without shell v2). Either is the
// likely reason a chunked result is incomplete: the evidence, and what avoids it.
void explain_lost_lines(HostError& error, const ResultReader& reader,
                        const transport::ResultStreamDecoder& decoder, std::string_view reason) {
  const bool overrun =
      decoder.overrun_reported() || reader.stderr_tail().find("nexpected EOF") != std::string::npos;
  if (decoder.pruned_notices() == 0 && !overrun) return;
  Json& transport = error.details["transport"];
  if (decoder.pruned_notices() > 0) transport["logdPrunedLines"] = decoder.pruned_lines();
  if (overrun) transport["logcatOverrun"] = true;
  Json missing = missing_indices(decoder.chunk_diagnostics(), reason);
  if (!missing.empty()) transport["missingIndices"] = std::move(missing);
  error.hint = decoder.pruned_notices() > 0
                   ? contract::hint_text(contract::HintId::ResultLinesPrunedByLogd,
                                         {{"lines", std::to_string(decoder.pruned_lines())}})
                   : contract::hint_text(contract::HintId::LogcatReaderCutOff);
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
  // Records another app wrote for this command: a forger may be why no result was read.
  if (decoder.foreign_lines() > 0) details["foreignLines"] = decoder.foreign_lines();
  details["reader"] = reader.timeline();
  return details;
}

// resultAuthenticity (docs/guardrails.md): the result is the Operator's when its uid is known
// and every record read showed it.
Json result_authenticity(const ExecutionTrace& trace,
                         const transport::ResultStreamDecoder& decoder) {
  Json out = Json::object();
  const bool verified = !trace.operator_uids.empty() && decoder.unattributed_lines() == 0;
  out["verified"] = verified;
  if (verified) {
    const std::string& uid =
        decoder.writer_uid().empty() ? trace.operator_uids.front() : decoder.writer_uid();
    out["uid"] = std::stoll(uid);
  } else {
    out["reason"] = trace.operator_uids.empty()
                        ? "the Operator's uid is unknown: the package manager did not print it"
                        : "the device's logcat shows no uid for the result's lines";
  }
  out["foreignLines"] = decoder.foreign_lines();
  return out;
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

// The last action and the budget, for a timeout's details.
// `nominal` is the result wait the payload asked for, `effective` what the command's budget left
// of it: timeoutMs stays nominal so that the message does not vary with the time preflight took.
void add_timeout_details(Json& details, const LastAction& last_action, Clock::time_point start,
                         std::chrono::milliseconds nominal, std::chrono::milliseconds effective) {
  details["lastActionId"] = last_action.id;
  details["lastActionType"] = last_action.type;
  details["lastActionCaveat"] = "payload-last only; Android execution position is unknown";
  details["elapsedMs"] = millis_since(start);
  details["timeoutMs"] = nominal.count();
  if (effective < nominal) details["budgetWaitMs"] = effective.count();
}

// The original's log events of one dispatch, under its names (docs/contract.md §2): the
// broadcast acknowledged (`broadcast.dispatched`), the result envelope in (`envelope.received`).
// A readiness probe's dispatch logs them too, with its own ids (taskId `doctor-handshake`).
void log_dispatch_event(std::string_view event, const ExecutionTrace& trace,
                        const std::string& serial, const Json& fields) {
  Json line{{"commandId", trace.command_id},
            {"taskId", trace.task_id},
            {"deviceId", serial},
            {"operatorPackage", trace.operator_package}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  io::log_event(io::LogLevel::Info, event, line);
}

void log_envelope_received(const Dispatched& dispatched, const ExecutionTrace& trace,
                           const std::string& serial) {
  log_dispatch_event(
      "envelope.received", trace, serial,
      Json{{"status", dispatched.result.envelope.status}, {"resultMs", dispatched.result_ms}});
}

// The result over the direct session: verified frames, or RESULT_TRANSPORT_FAILED /
// RESULT_ENVELOPE_TIMEOUT / RESULT_ENVELOPE_MALFORMED with details.direct. Never logcat.
contract::Outcome<Dispatched> wait_direct(DirectReader& direct, Dispatched dispatched,
                                          const std::string& serial,
                                          Clock::time_point dispatch_start,
                                          Clock::time_point deadline, const ExecutionTrace& trace,
                                          const LastAction& last_action,
                                          const DispatchOptions& options) {
  const auto details = [&] {
    Json out = Json::object();
    out["dispatchAttempted"] = true;
    out["executionPosition"] = "unknown";
    out["resultTransport"] = "direct";
    out["direct"] = direct.details();
    return out;
  };
  switch (direct.wait_result(deadline)) {
    case DirectReader::Wait::Result:
      break;
    case DirectReader::Wait::Cancelled:
      return contract::failed(interrupted(trace,
                                          "Interrupted while waiting for the result; the command "
                                          "may still run on the device",
                                          details()));
    case DirectReader::Wait::TimedOut: {
      Json out = details();
      add_timeout_details(
          out, last_action, dispatch_start, options.result_timeout,
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - dispatch_start));
      return contract::failed(trace.fail("RESULT_ENVELOPE_TIMEOUT",
                                         "No result on the direct result connection within " +
                                             std::to_string(options.result_timeout.count()) + "ms",
                                         out));
    }
    case DirectReader::Wait::Failed: {
      const std::string why =
          direct.frames().failed() ? direct.frames().failure() : "the result socket failed";
      return contract::failed(trace.fail("RESULT_TRANSPORT_FAILED",
                                         "The direct result connection failed: " + why, details()));
    }
  }
  auto result =
      transport::direct_result(direct.take_result_line(), trace.command_id, trace.task_id);
  if (!result) {
    Json out = details();
    out["direct"]["failure"] = result.error().text();
    return contract::failed(trace.fail(
        "RESULT_ENVELOPE_MALFORMED",
        "The Operator's result for this command is malformed: " + result.error().text(), out));
  }
  dispatched.result = std::move(*result);
  std::string().swap(dispatched.result.canonical_line);
  dispatched.result_ms = millis_since(dispatch_start);
  dispatched.direct = direct.details();
  dispatched.authenticity = {
      {"verified", false}, {"reason", kDirectTransportUnproven}, {"foreignLines", 0}};
  log_envelope_received(dispatched, trace, serial);
  return dispatched;
}

}  // namespace

contract::Outcome<Dispatched> dispatch_and_wait(adb::AdbClient& client, const std::string& serial,
                                                ResultReader& reader,
                                                const std::string& payload_json,
                                                ExecutionTrace& trace,
                                                const LastAction& last_action,
                                                const DispatchOptions& options) {
  trace.phase = Phase::Dispatch;
  trace.dispatch_state = DispatchState::NotDispatched;
  // A check that has already proven the Operator absent stops the dispatch itself.
  PresenceCheck* const presence = options.presence;
  if (presence != nullptr && presence->done()) {
    CLAWPERATOR_TRY(presence->proven_absence(trace));
  }
  const contract::Outcome<BroadcastRoute> route =
      route_payload(client, serial, payload_json,
                    options.direct != nullptr ? options.direct->session_id() : std::string(),
                    options.payload_state, options.payload_directory, trace);
  if (!route) return contract::failed(route.error());
  if (route->pushed) reader.note("payload_pushed");

  transport::ResultStreamDecoder decoder(trace.command_id, trace.task_id, trace.operator_package);
  // Whatever the pipe holds from before now is pre-dispatch noise.
  reader.pump(std::chrono::milliseconds(0), nullptr);
  decoder.begin_capture();

  trace.dispatch_state = DispatchState::Unknown;
  trace.dispatch_started_at = io::utc_timestamp(std::chrono::system_clock::now());
  reader.note("dispatch_started");
  const auto dispatch_start = Clock::now();
  const Completion broadcast =
      client.shell(serial, route->command, adb::kShellTimeout, route->log_form);
  Dispatched dispatched;
  dispatched.dispatch_ms = millis_since(dispatch_start);
  const adb::BroadcastClassification verdict =
      adb::classify_broadcast(broadcast, route->command.size());
  // The presence check beside the dispatch began before the broadcast, so it is (nearly) done:
  // no result line is read before its answer says who may have written it.
  if (presence != nullptr) {
    CLAWPERATOR_TRY(presence->proven_absence(trace));
    if (auto uids = presence->operator_uids()) trace.operator_uids = std::move(*uids);
  }
  decoder.expect_writer(trace.operator_uids);

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
        if (!verdict.refusal.empty()) {
          Json details = Json::object();
          details["adbRefusal"] = verdict.refusal;
          details["adbExitCode"] = broadcast.exit_code;
          details["adbStatus"] = process::to_string(broadcast.status);
          details["stderr"] = broadcast.err;
          details["commandBytes"] = route->command.size();
          return contract::failed(
              trace.fail("BROADCAST_FAILED",
                         "adb refused the broadcast before it reached the device (" +
                             verdict.refusal + "): " + verdict.detail,
                         details));
        }
        if (auto status = adb::adb_call_failure(broadcast, client.settings(), "am broadcast",
                                                "BROADCAST_FAILED", serial);
            !status) {
          return contract::failed(trace.attach(std::move(status.error())));
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
    log_dispatch_event("broadcast.dispatched", trace, serial,
                       Json{{"dispatchMs", dispatched.dispatch_ms}});
  }
  trace.phase = Phase::ResultWait;
  trace.dispatch_state = DispatchState::Dispatched;

  // The command's budget, when it has one, ends the wait first (adb_client.hpp set_deadline).
  auto deadline = dispatch_start + options.result_timeout;
  if (const auto budget = client.deadline())
    deadline = std::max(dispatch_start, std::min(deadline, *budget));
  const auto result_timeout =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - dispatch_start);
  if (options.direct != nullptr) {
    return wait_direct(*options.direct, std::move(dispatched), serial, dispatch_start, deadline,
                       trace, last_action, options);
  }
  ProgressLine progress(options.show_progress, dispatch_start, result_timeout);
  while (!decoder.settled()) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (remaining.count() <= 0) {
      reader.note("deadline_reached");
      Json details = transport_details(reader, decoder, true);
      add_timeout_details(details, last_action, dispatch_start, options.result_timeout,
                          result_timeout);
      HostError error = trace.fail("RESULT_ENVELOPE_TIMEOUT",
                                   "No [Clawperator-Result] envelope within " +
                                       std::to_string(options.result_timeout.count()) + "ms",
                                   details);
      explain_lost_lines(error, reader, decoder, {});
      if (decoder.correlated_lines().empty() && error.hint.empty()) {
        // Silence from the Operator points elsewhere than the catalog's general advice.
        error.hint = contract::hint_text(contract::HintId::NoCorrelatedLogLines,
                                         {{"serial", serial}, {"package", trace.operator_package}});
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
      HostError error = trace.fail("RESULT_TRANSPORT_EXITED",
                                   "The logcat reader exited before a complete result (exit " +
                                       std::to_string(reader.exit_code()) + ")",
                                   transport_details(reader, decoder, true));
      explain_lost_lines(error, reader, decoder, {});
      return contract::failed(std::move(error));
    }
  }

  if (const auto* malformed = std::get_if<transport::MalformedResult>(&decoder.status())) {
    Json details = transport_details(reader, decoder, true);
    Json transport = chunk_diagnostics_json(malformed->transport);
    transport["failure"] = malformed->reason;
    details["transport"] = std::move(transport);
    HostError error = trace.fail(
        "RESULT_ENVELOPE_MALFORMED",
        "The Operator's result for this command is malformed: " + malformed->reason, details);
    explain_lost_lines(error, reader, decoder, malformed->reason);
    return contract::failed(std::move(error));
  }
  dispatched.result = decoder.take_complete();
  // Only the parsed envelope is used from here on: do not hold a large result twice.
  std::string().swap(dispatched.result.canonical_line);
  dispatched.snapshot_blocks = decoder.snapshot_blocks();
  dispatched.authenticity = result_authenticity(trace, decoder);
  dispatched.result_ms = millis_since(dispatch_start);
  log_envelope_received(dispatched, trace, serial);
  return dispatched;
}

}  // namespace clawperator::exec
