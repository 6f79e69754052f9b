#include "authenticity_gate.hpp"

#include <chrono>

#include "clawperator/adb/device_shell.hpp"

namespace clawperator::exec {
namespace {

using Clock = std::chrono::steady_clock;

// How long the line `log` wrote may take to come through the reader.
constexpr std::chrono::milliseconds kLogLineWait{3000};

}  // namespace

contract::HostError authenticity_unavailable(const ExecutionTrace& trace, const std::string& serial,
                                             const std::string& reason) {
  Json details = Json::object();
  details["reason"] = reason;
  details["dispatchAttempted"] = false;
  return trace.fail("RESULT_AUTHENTICITY_UNAVAILABLE",
                    "The Operator's result could not be told from another app's on " + serial +
                        ": " + reason + "; nothing was sent (--require-authentic-result)",
                    details);
}

contract::Status require_authentic_source(adb::AdbClient& client, const std::string& serial,
                                          ResultReader& reader, const ExecutionTrace& trace) {
  if (trace.operator_uids.empty()) {
    return contract::failed(authenticity_unavailable(
        trace, serial, "the package manager did not print the Operator's uid"));
  }
  if (!reader.shows_uids()) {
    // An empty or quiet log buffer: a line of our own shows whether uids are printed.
    auto logged = adb::run_device_shell_checked(
        client, serial, {"log -t ClawperatorUidCheck 'does logcat show uids'", "log"});
    if (!logged) return contract::failed(trace.attach(std::move(logged).error()));
    const Clock::time_point until = Clock::now() + client.within_deadline(kLogLineWait);
    while (!reader.shows_uids() && Clock::now() < until) {
      const auto remaining =
          std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
      const ResultReader::Wait wait = reader.pump(remaining, nullptr);
      if (wait.cancelled)
        return contract::failed(interrupted(trace, "Interrupted before dispatch"));
      if (wait.exited) break;
    }
  }
  if (!reader.shows_uids()) {
    return contract::failed(authenticity_unavailable(
        trace, serial, "no log line came through logcat to show whether it prints uids"));
  }
  if (!*reader.shows_uids()) {
    return contract::failed(authenticity_unavailable(
        trace, serial,
        "the device's logcat prints no uid for its lines (its logd does not record the writer)"));
  }
  return {};
}

}  // namespace clawperator::exec
