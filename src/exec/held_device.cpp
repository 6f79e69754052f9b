#include "held_device.hpp"

#include "clawperator/io/random_id.hpp"
#include "preflight.hpp"

namespace clawperator::exec {

contract::Outcome<HeldDevice> hold_device(const ExecutionRequest& request, adb::AdbClient& client,
                                          DeviceLock& lock, process::Runner& runner,
                                          ExecutionTrace& trace, const std::string& command_id) {
  if (request.state.refused) {
    return contract::failed(state_directory_refused(trace, *request.state.refused));
  }
  CLAWPERATOR_TRY_ASSIGN(std::string serial, resolve_device(client, request.device, trace));
  const std::string own_token = io::random_hex(16);
  CLAWPERATOR_TRY_ASSIGN(
      const DeviceLock::Outcome locked,
      lock_for_execution(lock, request.state.directory, adb::device_key(request.adb, serial),
                         client.within_deadline(std::chrono::milliseconds(request.lock_wait_ms)),
                         request.lock_wait_ms, runner.cancel_token(), request.lock_token, trace,
                         command_id, own_token));
  return HeldDevice{std::move(serial),
                    locked == DeviceLock::Outcome::Acquired ? own_token : request.lock_token};
}

ExecutionReport after_earlier_effects(ExecutionReport report, bool mutated) {
  if (!mutated) return report;
  Json& disposition = report.document["disposition"];
  if (disposition.value("delivery", "") == "not_delivered") {
    disposition["delivery"] = "delivered_verified";
  }
  disposition["retry"] = "unsafe";
  report.document.erase("recovery");
  if (report.exit_code == contract::exit_code::kNotReady) {
    report.exit_code = contract::exit_code::kFailed;
  }
  return report;
}

}  // namespace clawperator::exec
