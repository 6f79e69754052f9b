// prepare_device_for_script (execution.hpp): what `exec` makes sure of before a broadcast, for a
// program that then drives the device itself (a skill's script) while the lock is held for it.
#include <cstring>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/io/utc_time.hpp"
#include "device_lock.hpp"
#include "preflight.hpp"
#include "readiness.hpp"
#include "result_reader.hpp"

namespace clawperator::exec {
namespace {

using contract::HostError;

// The probe needs a reader of its own, attached, as an execution's does (wire-protocol §4.4).
contract::Status probe_interactive(adb::AdbClient& client, const std::string& serial,
                                   ExecutionTrace& trace, const std::string& probe_id,
                                   const std::string& adb_executable) {
  process::Started spawned = client.follow_logcat(serial);
  if (!spawned) {
    const int spawn_errno = spawned.error().code;
    Json details = Json::object();
    details["adbPath"] = adb_executable;
    details["processErrorCode"] = spawn_errno;
    details["originalMessage"] = std::strerror(spawn_errno);
    if (spawn_errno == ECANCELED) {
      return contract::failed(interrupted(trace, "Interrupted before the skill started"));
    }
    return contract::failed(trace.fail(
        process::spawn_error_is_not_found(spawn_errno) ? "ADB_NOT_FOUND"
                                                       : "RESULT_TRANSPORT_SPAWN_FAILED",
        "The logcat reader could not start: " + std::string(std::strerror(spawn_errno)), details));
  }
  ResultReader reader(std::move(*spawned));
  const ResultReader::Wait attached = attach_reader(reader, client, serial);
  if (attached.cancelled) {
    return contract::failed(interrupted(trace, "Interrupted before the skill started"));
  }
  if (attached.exited) {
    Json details = Json::object();
    details["stderr"] = reader.stderr_tail();
    details["reader"] = reader.timeline();
    return contract::failed(
        trace.fail("RESULT_TRANSPORT_EXITED",
                   "The logcat reader exited before the readiness probe (exit " +
                       std::to_string(reader.exit_code()) + ")",
                   details));
  }
  contract::Status ready = ensure_interactive(client, serial, reader, trace, probe_id);
  reader.terminate("settled");
  return ready;
}

}  // namespace

ScriptDeviceSession::ScriptDeviceSession() = default;
ScriptDeviceSession::~ScriptDeviceSession() = default;
ScriptDeviceSession::ScriptDeviceSession(ScriptDeviceSession&&) noexcept = default;
ScriptDeviceSession& ScriptDeviceSession::operator=(ScriptDeviceSession&&) noexcept = default;

contract::Outcome<ScriptDeviceSession> prepare_device_for_script(const ScriptDeviceRequest& request,
                                                                 process::Runner& runner) {
  ExecutionTrace trace;
  trace.command_id = request.session_id;
  trace.task_id = request.task_id;
  trace.operator_package = request.operator_package;
  // A script may do anything: never "read-only", so a retry is never called safe for it.
  trace.actions = {true, false};
  trace.started_at = io::utc_timestamp(std::chrono::system_clock::now());
  if (request.state.refused) {
    return contract::failed(state_directory_refused(trace, *request.state.refused));
  }
  adb::AdbClient client(runner, request.adb);
  contract::Outcome<std::string> resolved = resolve_device(client, request.device, trace);
  if (!resolved) return contract::failed(std::move(resolved).error());

  ScriptDeviceSession session;
  session.serial = *resolved;
  const std::string device_key = adb::device_key(request.adb, *resolved);
  const ReadinessCache readiness(request.state.directory.get(), lock_file_name(device_key));
  session.lock = std::make_unique<DeviceLock>();
  DeviceLock& lock = *session.lock;
  switch (lock.acquire(request.state.directory, device_key,
                       std::chrono::milliseconds(request.lock_wait_ms), runner.cancel_token(),
                       request.lock_token)) {
    case DeviceLock::Outcome::Acquired:
      session.lock_token = io::random_uuid();
      session.lock_path = lock.path();
      lock.record_holder(request.session_id, session.lock_token);
      break;
    case DeviceLock::Outcome::Inherited:
      // A skill run from a skill's script: the parent's token stays the one to pass on.
      session.lock_token = request.lock_token;
      session.lock_path = lock.path();
      break;
    case DeviceLock::Outcome::NoDirectory:
      break;
    case DeviceLock::Outcome::Busy:
      return contract::failed(lock_busy_error(trace, lock, request.lock_wait_ms));
    case DeviceLock::Outcome::Interrupted:
      return contract::failed(interrupted(trace, "Interrupted while waiting for the device lock"));
    case DeviceLock::Outcome::Unavailable:
      // Fail open, as exec does: a read-only state directory must not stop automation.
      io::warn("cannot lock {} ({}); continuing unlocked", lock.path().string(), lock.error());
      break;
  }

  // This Operator answered a probe on this device lately (wire-protocol §4.4's record): the
  // device was ready seconds ago, and the script's own executions ask for the Operator's
  // presence again beside their dispatch. So a skill that runs often costs one adb call here
  // (the device list), not a probe (bench/run.sh, "skills").
  if (const std::optional<std::string> answered = readiness.fresh_answer();
      answered && *answered == request.operator_package) {
    return session;
  }
  if (contract::Status installed = check_operator_installed(client, *resolved, trace); !installed) {
    readiness.invalidate();
    return contract::failed(std::move(installed).error());
  }
  if (contract::Status ready = probe_interactive(client, *resolved, trace, request.probe_command_id,
                                                 request.adb.executable);
      !ready) {
    readiness.invalidate();
    return contract::failed(std::move(ready).error());
  }
  readiness.store(request.operator_package);
  return session;
}

}  // namespace clawperator::exec
