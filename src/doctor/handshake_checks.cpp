// The Operator itself: does it answer a doctor_ping through the same path an
// execution takes, is the device ready for interaction, and (--full) does a
// small real execution work.

#include "checks.hpp"
#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/operator_app/permissions.hpp"

namespace clawperator::doctor {
namespace {

constexpr double kSmokeTimeoutMs = 10000;

FixStep grant_step(DoctorContext& context) {
  FixStep step;
  step.kind = FixStep::Kind::Shell;
  step.value = "clawperator grant-device-permissions" + target_flags(context);
  DoctorContext* shared = &context;
  step.apply = [shared] {
    const operator_app::PermissionReport report = operator_app::grant_permissions(
        shared->client, *shared->serial, shared->options.operator_package);
    FixOutcome outcome;
    outcome.ok = !report.error;
    if (report.error) outcome.detail = report.error->code + ": " + report.error->message;
    return outcome;
  };
  return step;
}

Json optional_flag(const std::optional<bool>& value) {
  return value ? Json(*value) : Json(nullptr);
}

void describe_probe_failure(DoctorContext& context, Check& check,
                            const contract::HostError& error) {
  check.status = Status::Fail;
  check.code = error.code;
  check.detail = error.message;
  check.evidence["broadcastDispatchStatus"] =
      error.details.value("broadcastDispatchStatus", std::string("unknown"));
  if (error.code == "DEVICE_ACCESSIBILITY_NOT_RUNNING") {
    check.summary = "The Operator's accessibility service is not running";
    check.fix =
        Fix{"Enable the Operator's accessibility service", {grant_step(context)}, kPermissionsDocs};
    check.device_guidance = DeviceGuidance{
        "Accessibility Settings",
        {"Open Settings > Accessibility", "Find Clawperator Operator under installed apps",
         "Turn the service on and confirm the dialog"}};
  } else if (error.code == "RESULT_ENVELOPE_TIMEOUT") {
    check.summary = "The Operator did not answer doctor_ping";
    check.detail += " (broadcast " + check.evidence["broadcastDispatchStatus"].get<std::string>() +
                    ", package " + context.options.operator_package + ", device " +
                    *context.serial + ")";
    check.fix =
        Fix{"Start the Operator and try a command with diagnostics",
            {manual_step("Open the Operator app once on the device so Android starts it"),
             FixStep{FixStep::Kind::Shell,
                     "clawperator snapshot" + target_flags(context) + " --timeout 5000 --verbose",
                     nullptr}},
            kPermissionsDocs};
  } else {
    check.summary = "The doctor_ping handshake failed";
    check.fix = Fix{"Check the connection to the device",
                    {manual_step("Reconnect the device and rerun clawperator doctor")},
                    kDevicesDocs};
  }
}

}  // namespace

Check check_handshake(DoctorContext& context) {
  Check check;
  check.id = "readiness.handshake";
  exec::ProbeRequest request;
  request.serial = *context.serial;
  request.operator_package = context.options.operator_package;
  request.adb = context.options.adb;
  request.timeout = context.options.handshake_timeout;
  request.probe_command_id = context.options.probe_command_id;
  const exec::ProbeReport probe = exec::run_readiness_probe(request, context.runner);
  if (!probe.state) {
    const contract::HostError& error = probe.state.error();
    const bool reader_failed =
        error.code == "ADB_NOT_FOUND" || error.code == "RESULT_TRANSPORT_SPAWN_FAILED" ||
        error.code == "LOGCAT_UNAVAILABLE" || error.code == "RESULT_TRANSPORT_CANCELLED";
    if (reader_failed) {
      check.status = Status::Fail;
      check.code = error.code;
      check.summary = error.code == "LOGCAT_UNAVAILABLE" ? "adb logcat exited at once"
                      : error.code == "RESULT_TRANSPORT_CANCELLED"
                          ? "Interrupted"
                          : "The logcat reader could not start";
      check.detail = error.details.contains("stderr") ? error.details["stderr"].get<std::string>()
                                                      : error.message;
      if (error.details.contains("reader")) check.evidence["reader"] = error.details["reader"];
      return check;
    }
    check.evidence = Json{{"commandId", probe.command_id}, {"elapsedMs", probe.elapsed_ms}};
    describe_probe_failure(context, check, error);
    return check;
  }
  check.evidence = Json{{"commandId", probe.command_id}, {"elapsedMs", probe.elapsed_ms}};
  context.interactive = *probe.state;
  check.summary =
      "The Operator answered doctor_ping in " + std::to_string(probe.elapsed_ms) + " ms";
  return check;
}

Check check_interactive(DoctorContext& context) {
  Check check;
  check.id = "readiness.device.interactive";
  const exec::InteractiveState& state = *context.interactive;
  check.evidence = Json{{"screenOn", optional_flag(state.screen_on)},
                        {"deviceLocked", optional_flag(state.device_locked)},
                        {"userUnlocked", optional_flag(state.user_unlocked)}};
  const bool asleep = state.screen_on == false;
  const bool locked = state.device_locked == true || state.user_unlocked == false;
  if (!asleep && !locked) {
    check.summary = "The screen is on and unlocked";
    return check;
  }
  check.status = Status::Fail;
  check.code = "DEVICE_NOT_INTERACTIVE";
  check.summary = asleep ? "The screen is off" : "The device is locked";
  check.detail =
      "Commands that touch the screen would fail until the device is awake and "
      "unlocked.";
  Fix fix{"Wake and unlock the device", {}, kDevicesDocs};
  if (asleep) fix.steps.push_back(device_shell_step(context, "input keyevent KEYCODE_WAKEUP"));
  fix.steps.push_back(manual_step("Unlock the device (PIN, pattern or password)"));
  check.fix = std::move(fix);
  check.device_guidance = DeviceGuidance{"Lock screen",
                                         {"Wake the screen", "Unlock it",
                                          "Keep it unlocked while "
                                          "automation runs"}};
  return check;
}

exec::ExecutionReport run_check_execution(DoctorContext& context, const Json& payload) {
  contract::ValidationOutcome validated = contract::validate_execution(payload);
  exec::ExecutionRequest request;
  request.execution = std::move(*validated.valid);
  request.device = *context.serial;
  request.operator_package = context.options.operator_package;
  request.adb = context.options.adb;
  request.state = context.options.state;
  return exec::run_execution(request, context.runner);
}

void describe_execution_failure(const exec::ExecutionReport& result, Check& check) {
  if (result.document.contains("code")) {
    check.evidence["failureCode"] = result.document["code"];
    check.detail = result.document["code"].get<std::string>() + ": " +
                   result.document.value("message", std::string());
    return;
  }
  for (const Json& step : result.document["envelope"]["stepResults"]) {
    if (step.value("success", false)) continue;
    const Json& data = step.contains("data") ? step["data"] : Json::object();
    check.detail = "step " + step.value("id", std::string("?")) +
                   " failed: " + data.value("error", std::string("")) + " " +
                   data.value("message", std::string(""));
    check.evidence["failureCode"] = data.value("error", std::string(""));
    return;
  }
}

Check check_smoke(DoctorContext& context) {
  Check check;
  check.id = "readiness.smoke";
  const std::string command_id =
      "doctor-smoke-" + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
  const Json settings = Json{{"applicationId", "com.android.settings"}};
  Json payload = Json::object();
  payload["commandId"] = command_id;
  payload["taskId"] = "doctor-smoke";
  payload["source"] = "clawperator-doctor";
  payload["expectedFormat"] = contract::kExpectedFormat;
  payload["timeoutMs"] = kSmokeTimeoutMs;
  payload["actions"] = Json::array({Json{{"id", "s1"}, {"type", "close_app"}, {"params", settings}},
                                    Json{{"id", "s2"}, {"type", "open_app"}, {"params", settings}},
                                    Json{{"id", "s3"}, {"type", "snapshot"}}});
  const exec::ExecutionReport result = run_check_execution(context, payload);
  check.evidence = Json{{"commandId", command_id}, {"exitCode", result.exit_code}};
  if (result.exit_code == contract::exit_code::kSuccess) {
    check.summary = "Closing, opening and reading Settings works";
    if (result.document.contains("timing")) {
      check.evidence["totalMs"] = result.document["timing"]["totalMs"];
    }
    return check;
  }
  check.status = Status::Fail;
  check.code = "SMOKE_OPEN_SETTINGS_FAILED";
  check.summary = "A test execution (close, open and snapshot Settings) failed";
  describe_execution_failure(result, check);
  check.fix =
      Fix{"Run the same steps yourself with diagnostics",
          {FixStep{FixStep::Kind::Shell,
                   "clawperator open com.android.settings" + target_flags(context) + " --verbose",
                   nullptr}},
          kDevicesDocs};
  return check;
}

}  // namespace clawperator::doctor
