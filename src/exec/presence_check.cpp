#include "presence_check.hpp"

#include "clawperator/operator_app/presence.hpp"

namespace clawperator::exec {

PresenceCheck::PresenceCheck(process::Runner& runner, const adb::AdbSettings& adb,
                             std::optional<std::chrono::steady_clock::time_point> deadline,
                             std::string serial, std::string operator_package) {
  thread_ = std::thread([this, &runner, adb, deadline, serial = std::move(serial),
                         package = std::move(operator_package)] {
    adb::AdbClient client(runner, adb);
    if (deadline) client.set_deadline(*deadline);
    answer_ = operator_app::require_operator(client, serial, package);
    done_.store(true, std::memory_order_release);
  });
}

PresenceCheck::~PresenceCheck() {
  if (thread_.joinable()) thread_.join();
}

const contract::Status& PresenceCheck::answer() {
  if (thread_.joinable()) thread_.join();
  return answer_;
}

bool PresenceCheck::proves_absence(const contract::HostError& error) {
  return error.code == "OPERATOR_NOT_INSTALLED" || error.code == "OPERATOR_VARIANT_MISMATCH";
}

contract::HostError absence_failure(ExecutionTrace& trace, contract::HostError error) {
  trace.phase = contract::Phase::Readiness;
  trace.dispatch_state = contract::DispatchState::NotDispatched;
  error.details["presenceCheck"] = "beside_dispatch";
  return trace.attach(std::move(error));
}

}  // namespace clawperator::exec
