// readiness.background.observation (`doctor --capability background-observation`): can the
// Operator read notifications and media sessions right now, without waking or unlocking the
// phone. The same list actions a caller would send, as small as they go.
#include <chrono>

#include "checks.hpp"
#include "clawperator/contract/execution.hpp"

namespace clawperator::doctor {
namespace {

constexpr int kObservationTimeoutMs = 5000;

}  // namespace

Check check_background_observation(DoctorContext& context) {
  Check check;
  check.id = "readiness.background.observation";
  const std::string command_id =
      "doctor-background-" + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count());
  const Json smallest = Json{{"limit", 1}, {"maxTextChars", 1}};
  Json payload = Json::object();
  payload["commandId"] = command_id;
  payload["taskId"] = "doctor-background-observation";
  payload["source"] = "clawperator-doctor";
  payload["expectedFormat"] = contract::kExpectedFormat;
  payload["timeoutMs"] = kObservationTimeoutMs;
  payload["actions"] =
      Json::array({Json{{"id", "n1"}, {"type", "list_notifications"}, {"params", smallest}},
                   Json{{"id", "m1"}, {"type", "list_media_sessions"}, {"params", smallest}}});
  const exec::ExecutionReport result = run_check_execution(context, payload);
  check.evidence = Json{{"commandId", command_id}, {"exitCode", result.exit_code}};
  if (result.exit_code == contract::exit_code::kSuccess) {
    check.summary = "The Operator reads notifications and media sessions without the screen";
    return check;
  }
  check.status = Status::Fail;
  check.summary = "Listing notifications and media sessions in the background failed";
  describe_execution_failure(result, check);
  const std::string failure = check.evidence.value("failureCode", std::string());
  // The code that stopped it (a catalog code of the host or the Operator).
  check.code = failure.empty() ? "DOCTOR_FAILED" : failure;
  if (failure == "NOTIFICATION_ACCESS_DENIED") {
    check.fix =
        Fix{"Grant the Operator's notification listener",
            {FixStep{FixStep::Kind::Shell,
                     "clawperator grant-device-permissions" + target_flags(context), nullptr}},
            kSetupDocs};
  } else if (failure == "DEVICE_USER_NOT_UNLOCKED") {
    check.fix = Fix{"Unlock the device once since boot",
                    {manual_step("Unlock the device with its PIN, pattern or password")},
                    kSetupDocs};
  }
  return check;
}

}  // namespace clawperator::doctor
