#include "presence_check.hpp"

#include "clawperator/operator_app/presence.hpp"

namespace clawperator::exec {

PresenceCheck::PresenceCheck(process::Runner& runner, const adb::AdbSettings& adb,
                             std::optional<std::chrono::steady_clock::time_point> deadline,
                             std::string serial, std::string operator_package,
                             std::optional<adb::LoopbackTcpServer> shell_server) {
  thread_ = std::thread([this, &runner, adb, deadline, serial = std::move(serial),
                         package = std::move(operator_package), shell_server] {
    adb::AdbClient client(runner, adb);
    if (deadline) client.set_deadline(*deadline);
    if (shell_server) client.use_shell_server(*shell_server);
    answer_ = operator_app::locate_operator(client, serial, package);
    done_.store(true, std::memory_order_release);
  });
}

PresenceCheck::~PresenceCheck() {
  if (thread_.joinable()) thread_.join();
}

contract::Status PresenceCheck::proven_absence(ExecutionTrace& trace) {
  if (thread_.joinable()) thread_.join();
  if (answer_) return {};
  const std::string& code = answer_.error().code;
  if (code != "OPERATOR_NOT_INSTALLED" && code != "OPERATOR_VARIANT_MISMATCH") return {};
  trace.phase = contract::Phase::Readiness;
  trace.dispatch_state = contract::DispatchState::NotDispatched;
  contract::HostError error = answer_.error();
  error.details["presenceCheck"] = "beside_dispatch";
  return contract::failed(trace.attach(std::move(error)));
}

std::optional<std::vector<std::string>> PresenceCheck::operator_uids() const {
  if (!done() || !answer_) return std::nullopt;
  return *answer_;
}

}  // namespace clawperator::exec
