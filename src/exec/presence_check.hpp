// The Operator's presence (`pm list packages -U`, operator_app::locate_operator) asked beside the
// dispatch instead of before it: only for a device whose warm reader brought this Operator's
// result in the previous execution (docs/wire-protocol.md §6.5), so that a warm call costs one
// device round trip before its result, not two, and a removed Operator is still reported as
// such within that round trip rather than after the result timeout.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/process/runner.hpp"
#include "trace.hpp"

namespace clawperator::exec {

class PresenceCheck {
 public:
  // Starts the check on a thread of its own, with its own adb client over `runner` (so it is
  // cancelled with the execution) and the execution's deadline; speaking to `shell_server`
  // when the execution's client may (AdbClient::shell_server).
  PresenceCheck(process::Runner& runner, const adb::AdbSettings& adb,
                std::optional<std::chrono::steady_clock::time_point> deadline, std::string serial,
                std::string operator_package,
                std::optional<adb::LoopbackTcpServer> shell_server = std::nullopt);
  // Waits for the check: it is bounded by adb's shell timeout and the deadline.
  ~PresenceCheck();
  PresenceCheck(const PresenceCheck&) = delete;
  PresenceCheck& operator=(const PresenceCheck&) = delete;

  bool done() const noexcept { return done_.load(std::memory_order_acquire); }
  // Waits for the check. When it proves the Operator absent (a successful listing without the
  // package, or with the other variant only: nothing on the device can have received the
  // broadcast), that is this execution's failure, as if the check had run first (phase
  // readiness, not dispatched; the details say the broadcast may have gone out). Any other
  // failure of the check proves nothing: the result itself would prove the Operator present.
  contract::Status proven_absence(ExecutionTrace& trace);
  // After proven_absence: the Operator's uids when the check found it (possibly none printed),
  // nullopt when the check itself failed.
  std::optional<std::vector<std::string>> operator_uids() const;

 private:
  contract::Outcome<std::vector<std::string>> answer_ = std::vector<std::string>{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace clawperator::exec
