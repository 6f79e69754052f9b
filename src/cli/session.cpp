#include "clawperator/cli/session.hpp"

#include <unistd.h>

#include <cstdlib>

#include "clawperator/cli/command.hpp"

namespace clawperator::cli {

service::Session session_of(const GlobalOptions& options,
                            std::shared_ptr<const policy::Policy> policy) {
  service::Session session;
  session.adb = adb_settings(options);
  session.device = options.device;
  session.operator_package = options.operator_package;
  session.state = state_directory_for_run();
  session.result_transport = result_transport(options);
  session.require_authentic_result = options.require_authentic_result;
  session.script_guard = script_guard(options, policy);
  session.policy = std::move(policy);
  session.lock_wait_ms = options.lock_wait_ms;
  // A skill's script: the device its `skills run` holds is ours too (docs/wire-protocol.md §4.3).
  if (const char* token = std::getenv("CLAWPERATOR_DEVICE_LOCK_TOKEN")) {
    session.lock_token = token;
  }
  session.show_progress = ::isatty(STDERR_FILENO) == 1;
  return session;
}

}  // namespace clawperator::cli
