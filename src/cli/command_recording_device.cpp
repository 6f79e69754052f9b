// `recording start`, `stop` and `pull`: the commands that reach the device (docs/recording.md).
// start and stop are one-step executions through the exec path, so their wrapper, its promoted
// step code and its exit code are every action command's; pull is adb's file copy.
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/recording/compile.hpp"
#include "clawperator/recording/pull.hpp"
#include "clawperator/service/actions.hpp"
#include "command_actions_support.hpp"
#include "command_recording.hpp"

namespace clawperator::cli {
namespace {

// A session id typed as "" is a script's empty variable, not a request for a generated id.
std::optional<CommandResult> refuse_empty_session_id(const RecordingFlags& flags) {
  if (!flags.session_id || !flags.session_id->empty()) return std::nullopt;
  contract::HostError error = contract::usage_error(
      "USAGE", "--session-id needs a value; leave the flag out to let the " +
                   std::string(flags.action == "pull" ? "device's latest recording be pulled"
                                                      : "Operator choose the session"));
  error.details["flag"] = "--session-id";
  return failure(error);
}

}  // namespace

CommandResult run_recording_control(const RecordingFlags& flags, const GlobalOptions& options) {
  if (auto refused = refuse_empty_session_id(flags)) return std::move(*refused);
  const service::RecordingControl control =
      flags.action == "start" ? service::RecordingControl::Start : service::RecordingControl::Stop;
  static const actions::ActionState kNoModes;
  return actions::execute(
      service::build_recording_control(service::make_id_stamp(), control, flags.session_id),
      kNoModes, options);
}

CommandResult run_recording_pull(const RecordingFlags& flags, const GlobalOptions& options) {
  if (auto refused = refuse_empty_session_id(flags)) return std::move(*refused);
  recording::PullRequest request;
  request.session_id = flags.session_id;
  if (flags.out) {
    if (flags.out->empty()) {
      contract::HostError error =
          contract::usage_error("USAGE", "--out needs a directory; leave it out for ./recordings");
      error.details["flag"] = "--out";
      return failure(error);
    }
    request.out_dir = *flags.out;
  }
  request.force = flags.force;
  request.operator_package = options.operator_package;
  // A mistake that needs no device costs no adb call.
  if (auto refused = recording::check_pull_request(request); !refused)
    return failure(refused.error());
  const actions::TimeoutReading budget = actions::finite_global_timeout(options);
  if (!budget) return failure(budget.error());

  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, adb_settings(options));
  if (*budget) {
    client.set_deadline(std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(**budget)));
  }
  const contract::Outcome<std::string> serial = adb::resolve_device(client, options.device);
  if (!serial) return failure(serial.error());
  auto pulled = recording::pull_recording(client, *serial, request);
  if (!pulled) return failure(pulled.error());
  return success(std::move(*pulled));
}

}  // namespace clawperator::cli
