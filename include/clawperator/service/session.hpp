// The service layer (docs/architecture.md §1): what the three front ends call, so that a
// capability is decided once. A Session is what a front end knows before any request (its
// options, the server's settings); a request names only what it may choose itself. The CLI
// builds one per run, `mcp serve` and `serve` one per server.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/skills/script_guard.hpp"

namespace clawperator::policy {
struct Policy;  // clawperator/policy/policy.hpp
}  // namespace clawperator::policy

namespace clawperator::service {

struct Session {
  adb::AdbSettings adb;
  std::optional<std::string> device;  // --device / ANDROID_SERIAL: a request's default
  std::string operator_package;       // the same
  io::StateSelection state;
  exec::ResultTransport result_transport = exec::ResultTransport::Logcat;
  bool require_authentic_result = false;
  // The action policy (docs/guardrails.md); null: none. Loaded by the front end, which knows
  // when a policy that does not load must stop it.
  std::shared_ptr<const policy::Policy> policy;
  // Readers kept between executions (a server's); null: each execution starts and stops its own.
  exec::WarmFollowers* warm_followers = nullptr;
  // CLAWPERATOR_DEVICE_LOCK_TOKEN: the lock of the `skills run` whose script this process is.
  std::string lock_token;
  // How long an execution waits for a busy device: --lock-wait on the CLI; nullopt: as long as
  // its own timeoutMs (a server queues its callers).
  std::optional<long> lock_wait_ms;
  // A CONFIRMATION_REQUIRED records a pending approval for a person to grant
  // (docs/guardrails.md §5): off for MCP, whose tools take no approval id.
  bool record_approvals = true;
  bool show_progress = false;  // a progress line on stderr (the CLI on a terminal)
  // What a skill's script inherits of these rules (docs/skills.md, "The script's environment").
  skills::ScriptGuard script_guard;
  // The skills registry (--registry); nullopt: the lookup of docs/skills.md.
  std::optional<std::string> skills_registry;
};

// What one request chose for itself: an HTTP body's deviceId and operatorPackage, an MCP call's
// (after `configure`).
struct Target {
  std::optional<std::string> device;
  std::optional<std::string> operator_package;
};

struct DeviceChoice {
  std::optional<std::string> device;
  std::string operator_package;
};
// The request's device and package, else the session's.
DeviceChoice choose_device(const Session& session, const Target& target);

// A long-lived server's session (`mcp serve`, `serve`), made from the one its start was given:
// the readers it keeps (`warm_followers`, owned by the server); callers queue on a busy device
// for as long as their own timeoutMs (no --lock-wait); no skill's lock token (the script's, not
// its callers'); no progress line. Whether a CONFIRMATION_REQUIRED records an approval is the
// server's own call (MCP: never; HTTP: always), left to it.
Session server_session(Session session, exec::WarmFollowers* warm_followers);

}  // namespace clawperator::service
