#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "authenticity_gate.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/forward_registry.hpp"
#include "clawperator/adb/screencap.hpp"
#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/contract/action_table.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/process/interrupt.hpp"
#include "device_lock.hpp"
#include "direct_reader.hpp"
#include "dispatch.hpp"
#include "near_matches.hpp"
#include "payload_decoder.hpp"
#include "phases.hpp"
#include "policy_gate.hpp"
#include "post_processing.hpp"
#include "preflight.hpp"
#include "presence_check.hpp"
#include "readiness.hpp"
#include "result_reader.hpp"

namespace clawperator::exec {
namespace {

using contract::DispatchState;
using contract::HostError;
using contract::Phase;
using Clock = std::chrono::steady_clock;

// The direct session outlives the result deadline a little (docs/wire-protocol.md §11.1), at
// most the Operator's cap.
constexpr std::chrono::milliseconds kDirectLifetimeGrace{15000};
constexpr std::chrono::milliseconds kMaxDirectLifetime{150000};
// How long the reader may take to bring a stopped adb server up, and how often to look.
constexpr std::chrono::milliseconds kServerStartWait{10000};
constexpr std::chrono::milliseconds kServerStartPoll{5};

ExecutionReport report(const HostError& error) {
  return {contract::to_json(error), contract::exit_code_of(error)};
}

// adb's client says so on stderr when it starts a server, and again when it is done.
bool starting_adb_server(const std::string& reader_stderr) {
  return reader_stderr.find("daemon not running; starting now") != std::string::npos &&
         reader_stderr.find("daemon started successfully") == std::string::npos &&
         reader_stderr.find("failed to start daemon") == std::string::npos;
}

// The reader found no adb server (client.server_stopped()) and is starting one: until that
// server accepts connections, another adb call would race it for the port. Bounded: a server
// that never comes up is then reported by the next call, in adb's own words.
ResultReader::Wait wait_for_server(adb::AdbClient& client, ResultReader& reader) {
  const Clock::time_point until = Clock::now() + kServerStartWait;
  while (!reader.stdout_observed() && starting_adb_server(reader.stderr_tail()) &&
         !client.local_server_accepts() && Clock::now() < until) {
    const ResultReader::Wait wait = reader.pump(kServerStartPoll, nullptr);
    if (wait.exited || wait.cancelled) return wait;
  }
  return {};
}

// A result that arrived but whose step data does not decode (a data.payload, a data.query) is
// malformed like one whose framing is: what the Operator did cannot be read back. So it is a
// failure of reading the result (result_wait, dispatched: delivered_unverified, exit 4; retry
// safe only when every action only reads), never "verified" for a mutation (docs/contract.md
// §5.1). `details` keeps the received envelope.
HostError undecodable_result(const ExecutionTrace& trace, std::string message, Json details) {
  HostError error = trace.fail("RESULT_ENVELOPE_MALFORMED", std::move(message), std::move(details));
  error.phase = Phase::ResultWait;
  error.dispatch_state = DispatchState::Dispatched;
  return error;
}

bool is_screenshot_step(const transport::StepResult& step) {
  const contract::ActionSpec* spec = contract::find_action(step.actionType);
  return spec != nullptr && spec->post_processing == contract::PostProcessing::CaptureScreenshot;
}

bool has_screenshot_step(const transport::Envelope& envelope) {
  return std::any_of(envelope.steps.begin(), envelope.steps.end(), is_screenshot_step);
}

// `adb exec-out screencap -p`, written atomically to a path the user named, else to a new
// file in $TMPDIR (docs/wire-protocol.md §9).
void capture_screenshot(adb::AdbClient& client, const std::string& serial,
                        transport::Envelope& envelope, const contract::Execution& execution,
                        const ExecutionTrace& trace) {
  std::filesystem::path path;
  for (const contract::Action& action : execution.actions) {
    if (contract::action_spec(action.type).post_processing ==
        contract::PostProcessing::CaptureScreenshot) {
      path = action.params_or_empty().path.value_or("");
      break;
    }
  }
  // The default path is in a shared directory: a new file, never one someone prepared.
  const bool default_path = path.empty();
  // Reported absolute: the caller's working directory is not the reader's.
  if (std::error_code ignored; !default_path) {
    if (auto absolute = std::filesystem::absolute(path, ignored); !ignored) path = absolute;
  }
  if (default_path) {
    const auto stamp = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    path = io::temp_directory(io::process_state_environment()) /
           ("clawperator-screenshot-" + io::escape_file_name(trace.command_id) + "-" +
            std::to_string(stamp) + ".png");
  }
  transport::StepResult* step = nullptr;
  for (auto& candidate : envelope.steps) {
    if (is_screenshot_step(candidate)) {
      step = &candidate;
      break;
    }
  }
  auto capture = adb::capture_screen_png(client, serial);
  std::optional<std::string> problem;
  if (!capture) problem = capture.error();
  const char* code = "ACTION_FAILED";
  if (!problem) {
    if (auto saved = default_path ? io::write_new_file(path, *capture)
                                  : io::write_file_atomically(path, *capture);
        !saved) {
      problem = "could not write " + path.string() + ": " + saved.error().message;
      code = "SNAPSHOT_ARTIFACT_WRITE_FAILED";
    }
  }
  if (problem) {
    io::warn("failed to capture screenshot via adb: {}", *problem);
    step->success = false;
    set_step_data(*step, "error", code);
    set_step_data(*step, "message", *problem);
    set_step_data(*step, "failurePhase", "post_processing");
    set_step_data(*step, "dispatchState", "dispatched");
    return;
  }
  const std::string* error = step->data_value("error");
  if (!step->success && error != nullptr && *error == "UNSUPPORTED_RUNTIME_SCREENSHOT") {
    step->success = true;
    erase_step_data(*step, "error");
    erase_step_data(*step, "message");
  }
  set_step_data(*step, "path", path.string());
}

}  // namespace

// Every on-screen node, for the policy's judged steps (policy_gate.hpp) and NODE_NOT_FOUND's
// near matches (near_matches.hpp): a query_ui on the same device, with the same transport and
// state, under the lock the caller holds, no policy of its own, and a budget of its own
// (kPolicyScreenReadBudget), never the execution's.
Expected<Json, ScreenReadError> query_screen(const ExecutionRequest& request,
                                             process::Runner& runner, const std::string& serial,
                                             std::string_view purpose,
                                             const std::string& lock_token) {
  const std::string id = std::string(purpose) + "-query-" + io::random_hex(16);
  const Json payload = {
      {"commandId", id},
      {"taskId", id},
      {"source", "clawperator-" + std::string(purpose)},
      {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", static_cast<long long>(kPolicyScreenReadBudget.count())},
      {"actions",
       Json::array({{{"id", "screen"}, {"type", "query_ui"}, {"params", {{"limit", 1000}}}}})}};
  contract::ValidationOutcome validated = contract::validate_execution(payload);
  if (!validated.valid) {
    return Unexpected(ScreenReadError{"EXECUTION_VALIDATION_FAILED", "invalid query payload"});
  }
  ExecutionRequest query;
  query.execution = std::move(*validated.valid);
  query.device = serial;
  query.operator_package = request.operator_package;
  query.adb = request.adb;
  query.lock_wait_ms = request.lock_wait_ms;
  query.lock_token = lock_token;
  query.state = request.state;
  query.result_transport = request.result_transport;
  query.require_authentic_result = request.require_authentic_result;
  query.budget = kPolicyScreenReadBudget;
  query.warm_followers = request.warm_followers;
  ExecutionReport answer = run_execution(query, runner);
  const Json& document = answer.document;
  const auto found = document.find("query");
  if (document.value("ok", false) == true && found != document.end()) return std::move(*found);
  // The read's error, or, when the Operator answered without a screen, the envelope's (whose
  // error and errorCode may be null).
  const auto text = [](const Json& object, const char* key) {
    const auto member = object.find(key);
    return member != object.end() && member->is_string() ? member->get<std::string>()
                                                         : std::string();
  };
  ScreenReadError failure{text(document, "code"), text(document, "message")};
  if (const auto envelope = document.find("envelope");
      failure.code.empty() && envelope != document.end() && envelope->is_object()) {
    failure.code = text(*envelope, "errorCode");
    failure.message = text(*envelope, "error");
  }
  if (failure.code.empty()) failure.code = "ACTION_FAILED";
  if (failure.message.empty()) failure.message = "the Operator's query_ui gave no screen";
  return Unexpected(std::move(failure));
}

ExecutionReport run_phases(const ExecutionRequest& request, process::Runner& runner) {
  const auto started = Clock::now();
  const contract::Execution& execution = request.execution;
  ExecutionTrace trace = start_trace(execution, request.operator_package);
  adb::AdbClient client(runner, request.adb);
  if (request.budget) client.set_deadline(started + *request.budget + kResultGrace);
  if (request.state.refused) return report(state_directory_refused(trace, *request.state.refused));

  // 1. The device.
  const contract::Outcome<std::string> resolved = resolve_device(client, request.device, trace);
  if (!resolved) return report(resolved.error());
  const std::string& serial = *resolved;
  // Only logcat shows who wrote a result line (docs/guardrails.md).
  const bool require_authentic = request.require_authentic_result;
  if (require_authentic && request.result_transport == ResultTransport::Direct) {
    return report(authenticity_unavailable(trace, serial,
                                           std::string(kDirectTransportUnproven) + "; use logcat"));
  }
  const ResultTransport result_transport =
      require_authentic ? ResultTransport::Logcat : request.result_transport;
  // The policy, before the lock and anything sent (docs/guardrails.md). What lies under a
  // step's point is read with an execution of its own (one query_ui), which takes and gives back
  // the device lock before this one waits for it.
  // A payload in segments comes here one segment at a time, judged already (segmented_run.cpp).
  const ScreenReader read_screen = [&]() {
    return query_screen(request, runner, serial, "policy", request.lock_token);
  };
  if (request.policy) {
    PolicyRun policy_run;
    const std::vector<policy::Segment> segments =
        policy::plan_segments(*request.policy, request.execution);
    if (contract::Status allowed = check_policy(request, client, serial, trace, read_screen,
                                                segments.front().judged, policy_run);
        !allowed) {
      return report(allowed.error());
    }
  }
  // One key for this device however its adb server was named (docs/wire-protocol.md §4.3).
  const std::string device_key = adb::device_key(request.adb, serial);
  const ReadinessCache readiness(request.state.directory.get(), lock_file_name(device_key));
  auto fail = [&](const HostError& error) {
    readiness.invalidate();
    return report(error);
  };

  // 2. One execution per device.
  DeviceLock lock;
  const contract::Outcome<DeviceLock::Outcome> locked = lock_for_execution(
      lock, request.state.directory, device_key,
      client.within_deadline(std::chrono::milliseconds(request.lock_wait_ms)), request.lock_wait_ms,
      runner.cancel_token(), request.lock_token, trace, execution.command_id);
  if (!locked) return report(locked.error());

  // 3. The reader starts now so that it is attached by the time preflight is done; a long-lived
  // front end may have kept the last execution's, attached already (§6.5).
  WarmFollowers::Reader kept;
  if (request.warm_followers != nullptr) {
    kept = request.warm_followers->take(device_key, runner.cancel_token());
  }
  const bool warm = kept.stream != nullptr;
  if (warm && kept.shell_server) client.use_shell_server(*kept.shell_server);
  process::Started spawned =
      warm ? process::Started(std::move(kept.stream)) : client.follow_logcat(serial);
  if (!spawned) {
    const int spawn_errno = spawned.error().code;
    Json details = Json::object();
    details["adbPath"] = request.adb.executable;
    details["processErrorCode"] = spawn_errno;
    details["originalMessage"] = std::strerror(spawn_errno);
    if (spawn_errno == ECANCELED && runner.cancelled()) {
      return fail(interrupted(trace, "Interrupted before dispatch"));
    }
    if (process::spawn_error_is_not_found(spawn_errno)) {
      return fail(trace.fail("ADB_NOT_FOUND",
                             "ADB command not found at path: " + request.adb.executable, details));
    }
    return fail(trace.fail(
        "RESULT_TRANSPORT_SPAWN_FAILED",
        "The logcat reader could not start: " + std::string(std::strerror(spawn_errno)), details));
  }
  ResultReader reader(std::move(*spawned), warm, kept.shows_uids);

  // 4. Preflight: the Operator, the host's force-stops, interactive readiness. They run while
  // the reader attaches, except when the reader is starting the adb server: then after it.
  // When this Operator answered this device lately (a warm reader brought its result, §6.5, or
  // the fresh readiness record names it, §4.4) and no readiness probe goes first, its presence
  // is asked beside the dispatch instead of before it (§4.1): the broadcast waits only for the
  // reader.
  const std::optional<std::string> answered = readiness.fresh_answer();
  const bool needs_probe =
      execution.readiness() == contract::ActionReadiness::Interactive && !answered;
  // --require-authentic-result needs the Operator's uid before anything is sent.
  const bool presence_beside_dispatch =
      !needs_probe && !require_authentic &&
      ((warm && kept.answered_package == request.operator_package) ||
       (answered && *answered == request.operator_package));
  std::optional<PresenceCheck> presence;
  const auto start_presence_check = [&] {
    if (presence_beside_dispatch) {
      presence.emplace(runner, request.adb, client.deadline(), serial, request.operator_package,
                       client.shell_server());
    }
  };
  const auto preflight = [&]() -> contract::Status {
    if (!presence_beside_dispatch) {
      if (contract::Status installed = check_operator_installed(client, serial, trace);
          !installed) {
        return installed;
      }
    }
    if (contract::Status gestures = require_gesture_sdk(client, serial, execution, trace);
        !gestures) {
      return gestures;
    }
    return force_stop_closed_apps(client, serial, execution, trace);
  };
  const bool preflight_first = !client.server_stopped();
  // Through a relay (or with a kept reader whose relay proved the server) the check may speak
  // to the server once the follower attached, costing a device round trip and no adb process
  // competing with the follower's start: it waits for that. Otherwise it starts now, so that an
  // Operator proven absent meanwhile stops the execution before anything is sent.
  const bool presence_after_attach =
      !preflight_first || client.relays_logcat() || client.shell_server().has_value();
  if (preflight_first) {
    if (!presence_after_attach) start_presence_check();
    if (contract::Status ready = preflight(); !ready) return fail(ready.error());
  }
  ResultReader::Wait attached = attach_reader(reader, client, serial);
  if (!preflight_first && !attached.exited && !attached.cancelled) {
    attached = wait_for_server(client, reader);
  }
  if (attached.cancelled || attached.exited) {
    Json details = Json::object();
    details["dispatchAttempted"] = false;
    details["stderr"] = reader.stderr_tail();
    details["reader"] = reader.timeline();
    if (attached.cancelled) return fail(interrupted(trace, "Interrupted before dispatch", details));
    if (auto classified = adb::adb_call_failure(
            process::Completion{process::Completion::Status::Exited, reader.exit_code(), 0, 0, "",
                                reader.stderr_tail()},
            request.adb, "adb logcat", "RESULT_TRANSPORT_EXITED", serial);
        !classified) {
      // adb's own words (device offline, unauthorized …) name the cause better.
      if (classified.error().code != "RESULT_TRANSPORT_EXITED") {
        return fail(trace.attach(std::move(classified.error())));
      }
    }
    return fail(trace.fail("RESULT_TRANSPORT_EXITED",
                           "The logcat reader exited before dispatch (exit " +
                               std::to_string(reader.exit_code()) + ")",
                           details));
  }
  // The follower printed through its relay: this adb executable reached the server, and the
  // device answered it, so the calls from here on (the broadcast first) may speak to that
  // server without starting an adb process each (adb/server_shell.hpp, wire-protocol §2.7).
  if (reader.stdout_observed()) client.allow_shell_via_server();
  if (presence_after_attach) start_presence_check();
  if (!preflight_first) {
    if (contract::Status ready = preflight(); !ready) return fail(ready.error());
  }
  if (require_authentic) {
    if (contract::Status authentic = require_authentic_source(client, serial, reader, trace);
        !authentic) {
      return fail(authentic.error());
    }
  }
  if (execution.readiness() != contract::ActionReadiness::Interactive) {
    // Background actions run screen-off and locked: no probe, no wake (wire-protocol §4.4).
    if (contract::Status unlocked = ensure_user_unlocked(client, serial, trace); !unlocked) {
      return fail(unlocked.error());
    }
  } else if (needs_probe) {
    contract::Status interactive =
        ensure_interactive(client, serial, reader, trace, request.probe_command_id);
    if (!interactive) return fail(interactive.error());
    readiness.store(request.operator_package);
  }

  // 5. The direct session, when asked for: set up before anything is dispatched.
  const ForwardRegistry forwards(request.state.directory.get(), device_key, serial);
  std::unique_ptr<DirectReader> direct;
  Json direct_fallback;
  // A forward left by a run that was killed goes first, whichever transport this run uses.
  forwards.sweep_stale(client, request.operator_package + ".result.");
  if (result_transport != ResultTransport::Logcat) {
    const auto lifetime = std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(static_cast<long long>(execution.timeout_ms.value())) +
            kDirectLifetimeGrace,
        kMaxDirectLifetime);
    auto opened = DirectReader::open(client, serial, trace, forwards, lifetime);
    if (!opened) {
      DirectReader::SetupError& failure = opened.error();
      Json details = Json::object();
      details["dispatchAttempted"] = false;
      details["resultTransport"] = "direct";
      details["direct"] = failure.details;
      if (failure.interrupted) {
        return fail(interrupted(trace, failure.message + "; nothing was dispatched", details));
      }
      if (result_transport == ResultTransport::Direct) {
        return fail(trace.fail("RESULT_TRANSPORT_FAILED",
                               "The direct result connection could not be set up (" +
                                   failure.message + "); nothing was dispatched",
                               details));
      }
      direct_fallback = Json::object();
      direct_fallback["reason"] = failure.message;
      direct_fallback["direct"] = std::move(failure.details);
      reader.note("direct_setup_failed_using_logcat");
      io::log_event(io::LogLevel::Info, "exec.direct_fallback",
                    Json{{"commandId", execution.command_id}, {"reason", failure.message}});
    } else {
      direct = std::move(*opened);
    }
  }

  // 6. Dispatch and wait.
  DispatchOptions options;
  options.result_timeout = request.result_timeout.value_or(
      std::chrono::milliseconds(static_cast<long long>(execution.timeout_ms.value())) +
      kResultGrace);
  options.show_progress = request.show_progress;
  options.direct = direct.get();
  options.payload_state = request.state.directory.get();
  options.payload_directory = request.state.directory
                                  ? request.state.directory->path()
                                  : io::temp_directory(io::process_state_environment());
  if (presence) options.presence = &*presence;
  const contract::Action& last = execution.actions.back();
  auto outcome = dispatch_and_wait(
      client, serial, reader, dump_json(contract::to_device_json(execution)), trace,
      {last.id, std::string(contract::action_spec(last.type).name)}, options);
  // A reader that is still attached serves the device's next execution, unless this one was
  // cancelled (its token is this call's; the next call gets a reader of its own anyway).
  if (request.warm_followers != nullptr && !runner.cancelled()) {
    const std::optional<bool> shows_uids = reader.shows_uids();
    request.warm_followers->keep(
        device_key, {reader.keep_warm(), outcome ? request.operator_package : std::string(),
                     shows_uids, client.shell_server()});
  }
  reader.terminate("settled");
  direct.reset();  // the forward goes now, whatever the outcome
  if (!outcome) {
    // A broadcast or reader failure beside a check that proves the Operator gone: the absence
    // is the cause (the device may be fine).
    if (presence) {
      if (auto absent = presence->proven_absence(trace); !absent) return fail(absent.error());
    }
    return fail(outcome.error());
  }
  Dispatched& dispatched = *outcome;

  // 7. Post-processing.
  trace.phase = Phase::PostProcessing;
  transport::Envelope& envelope = dispatched.result.envelope;
  std::set<std::string> force_stopped;
  for (const Json& effect : trace.earlier_effects) force_stopped.insert(effect["actionId"]);
  attach_snapshots(envelope, dispatched.snapshot_blocks);
  normalize_close_app(envelope, execution, force_stopped);
  add_settle_warnings(envelope, execution);
  if (has_screenshot_step(envelope)) capture_screenshot(client, serial, envelope, execution, trace);
  reconcile_status(envelope);
  auto payloads = decode_payloads(envelope);
  if (!payloads) {
    const PayloadError& undecodable = payloads.error();
    Json details = Json::object();
    details["stepId"] = undecodable.step_id;
    details["actionType"] = undecodable.action_type;
    details["payloadPath"] = undecodable.problem.path;
    details["envelope"] = render_envelope(std::move(envelope), serial);
    return fail(undecodable_result(
        trace,
        "Step " + undecodable.step_id + " (" + undecodable.action_type +
            ") returned a data.payload that does not decode: " + undecodable.problem.text(),
        std::move(details)));
  }
  auto query = parsed_query(envelope);
  const contract::EnvelopeOutcome summary = envelope_outcome(envelope, *payloads);
  const contract::Disposition disposition = contract::disposition_of(summary, trace.actions);
  Json failure = failure_fields(envelope, disposition, serial);
  if (const contract::NodeMatcher* missed = missed_matcher(execution, failure);
      missed != nullptr && !runner.cancelled()) {
    // Read under this run's lock: the holder's record gets a token for the read (only now, so
    // that a run that finds its node pays nothing), or the parent's token is passed on.
    std::string token = request.lock_token;
    if (*locked == DeviceLock::Outcome::Acquired) {
      token = io::random_hex(16);
      lock.record_holder(execution.command_id, token);
    }
    const ScreenReader read_near = [&]() {
      return query_screen(request, runner, serial, "near-matches", token);
    };
    if (std::optional<Json> near = near_matches_json(*missed, read_near)) {
      failure["details"] = Json{{"nearMatches", std::move(*near)}};
    }
  }
  Json envelope_json = render_envelope(std::move(envelope), serial);
  attach_payloads(envelope_json, std::move(*payloads));
  if (!query) {
    Json details = Json::object();
    details["actionId"] = query.error().step_id;
    details["reason"] = query.error().reason;
    details["envelope"] = std::move(envelope_json);
    return fail(undecodable_result(trace,
                                   "The query_ui result of step " + query.error().step_id +
                                       " is malformed: " + query.error().reason,
                                   std::move(details)));
  }
  if (runner.cancelled()) {
    // The Operator's answer arrived, so it is kept: the caller learns what ran.
    Json details = Json::object();
    details["envelope"] = std::move(envelope_json);
    return fail(interrupted(trace,
                            "Interrupted during post-processing; the Operator's result is in "
                            "details.envelope",
                            std::move(details)));
  }

  const bool ok = contract::envelope_ok(summary);
  if (!ok) readiness.invalidate();
  // Holds the envelope: must not grow (json.hpp). Eight members always, query and
  // resultTransport when present, and the failure's.
  Json document = object_with_capacity(10 + failure.size());
  document["ok"] = ok;
  // The failure members lead, as in a host error (docs/contract.md §4); none when ok.
  for (auto& [key, value] : failure.items()) document[key] = std::move(value);
  document["envelope"] = std::move(envelope_json);
  if (*query) document["query"] = std::move(**query);
  document["deviceId"] = serial;
  document["terminalSource"] = "clawperator_result";
  document["isCanonicalTerminal"] = true;
  document["disposition"] = contract::to_json(disposition);
  Json timing = Json::object();
  timing["totalMs"] = millis_since(started);
  timing["dispatchMs"] = dispatched.dispatch_ms;
  timing["resultMs"] = dispatched.result_ms;
  document["timing"] = std::move(timing);
  document["resultAuthenticity"] = std::move(dispatched.authenticity);
  if (result_transport != ResultTransport::Logcat) {
    // Which transport carried it; the default output (logcat) stays as it always was.
    Json transport = Json::object();
    transport["used"] = dispatched.direct.is_null() ? "logcat" : "direct";
    if (!dispatched.direct.is_null()) transport["direct"] = std::move(dispatched.direct);
    if (!direct_fallback.is_null()) transport["fallback"] = std::move(direct_fallback);
    document["resultTransport"] = std::move(transport);
  }
  return {std::move(document), ok ? contract::exit_code::kSuccess : contract::exit_code::kFailed};
}

ExecutionReport run_execution(const ExecutionRequest& request, process::Runner& runner) {
  const contract::Execution& execution = request.execution;
  Json action_types = Json::array();
  for (const contract::Action& action : execution.actions) {
    action_types.push_back(contract::action_spec(action.type).name);
  }
  io::log_event(io::LogLevel::Info, "exec.start",
                Json{{"commandId", execution.command_id},
                     {"taskId", execution.task_id},
                     {"requestedDevice", request.device ? Json(*request.device) : Json(nullptr)},
                     {"actionTypes", std::move(action_types)}});
  ExecutionReport report =
      request.policy ? run_under_policy(request, runner) : run_phases(request, runner);
  Json& document = report.document;
  // Only an outcome document holds the envelope; a host error has details instead.
  if (!document.contains("envelope")) {
    const Json& details = document["details"];
    // The file's record of it; stderr already has the failure's own line.
    io::log_event_to_file(io::LogLevel::Warn, "exec.failure",
                          Json{{"commandId", execution.command_id},
                               {"code", document["code"]},
                               {"phase", details.value("phase", "")},
                               {"dispatchState", details.value("dispatchState", "")},
                               {"exitCode", report.exit_code}});
    if (const std::string path = io::current_log_path(); !path.empty()) {
      document["details"]["logPath"] = path;
    }
  } else {
    Json fields{{"commandId", execution.command_id},
                {"deviceId", document["deviceId"]},
                {"status", document["envelope"]["status"]},
                {"ok", document["ok"]},
                {"totalMs", document["timing"]["totalMs"]}};
    // A failed execution's line says what failed and where, as a host error's does.
    if (const auto code = document.find("code"); code != document.end()) fields["code"] = *code;
    if (const auto step = document.find("failedStep"); step != document.end()) {
      fields["failedStepId"] = (*step)["id"];
    }
    io::log_event(io::LogLevel::Info, "exec.result", std::move(fields));
  }
  return report;
}

}  // namespace clawperator::exec
