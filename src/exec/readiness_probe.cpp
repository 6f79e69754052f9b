// run_readiness_probe (execution.hpp): the probe an execution's readiness phase sends,
// on its own reader, for doctor.
#include <cstring>

#include "clawperator/exec/execution.hpp"
#include "clawperator/io/utc_time.hpp"
#include "readiness.hpp"
#include "result_reader.hpp"

namespace clawperator::exec {

ProbeReport run_readiness_probe(const ProbeRequest& request, process::Runner& runner) {
  ProbeReport report;
  report.command_id =
      request.probe_command_id.empty() ? new_probe_command_id() : request.probe_command_id;
  adb::AdbClient client(runner, request.adb);
  ExecutionTrace trace;
  trace.command_id = report.command_id;
  trace.task_id = "doctor-handshake";
  trace.operator_package = request.operator_package;
  trace.device_id = request.serial;
  trace.actions = {true, true};
  trace.started_at = io::utc_timestamp(std::chrono::system_clock::now());

  process::Started spawned = client.follow_logcat(request.serial);
  if (!spawned) {
    const int spawn_errno = spawned.error().code;
    Json details = Json::object();
    details["processErrorCode"] = spawn_errno;
    report.state = contract::failed(trace.fail(process::spawn_error_is_not_found(spawn_errno)
                                                   ? "ADB_NOT_FOUND"
                                                   : "RESULT_TRANSPORT_SPAWN_FAILED",
                                               std::strerror(spawn_errno), details));
    return report;
  }
  ResultReader reader(std::move(*spawned));
  const ResultReader::Wait attached = attach_reader(reader, client, request.serial);
  if (attached.cancelled || attached.exited) {
    Json details = Json::object();
    details["stderr"] = reader.stderr_tail();
    details["reader"] = reader.timeline();
    report.state =
        contract::failed(attached.cancelled ? interrupted(trace, "Interrupted", details)
                                            : trace.fail("LOGCAT_UNAVAILABLE",
                                                         "adb logcat exited at once", details));
    return report;
  }
  const auto started = std::chrono::steady_clock::now();
  report.state =
      probe_operator(client, request.serial, reader, trace, report.command_id, request.timeout);
  reader.terminate("settled");
  report.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  return report;
}

}  // namespace clawperator::exec
