// Running a validated execution on one device, phase by phase as docs/wire-protocol.md §1
// tells it: resolve the device, preflight, dispatch, wait for the result, post-process. The exec
// path's one public header: front ends and doctor include this and nothing else of exec/
// (docs/architecture.md).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::policy {
struct Policy;  // clawperator/policy/policy.hpp
}  // namespace clawperator::policy

namespace clawperator::exec {

// How the result comes back (docs/wire-protocol.md §11): logcat (the default), direct (the
// Operator's result socket through adb forward; its failures are errors), or auto (direct when
// its setup succeeds, else logcat; the setup happens before dispatch, so never a replay).
enum class ResultTransport { Logcat, Direct, Auto };
// The Operator gets this long beyond the payload's own timeoutMs (docs/wire-protocol.md §8).
inline constexpr std::chrono::milliseconds kResultGrace{5000};

// What a long-lived front end (`mcp serve`) keeps warm between executions: per device (adb
// server and serial), the logcat reader of its last execution, still attached, drained by a
// thread of its own while no execution uses it (docs/wire-protocol.md §6.5). The Operator's
// presence is never kept: it is asked at every execution (`pm list packages`), because a
// stale "installed" would turn a removed Operator into a result timeout; after a reader that
// brought this Operator's result, it is asked beside the dispatch rather than before it.
// Thread-safe.
class WarmFollowers {
 public:
  static constexpr std::size_t kDefaultMaxDevices = 16;
  explicit WarmFollowers(std::size_t max_devices = kDefaultMaxDevices);
  // Stops and reaps every reader kept.
  ~WarmFollowers();
  WarmFollowers(const WarmFollowers&) = delete;
  WarmFollowers& operator=(const WarmFollowers&) = delete;

  struct Reader {
    std::unique_ptr<process::Stream> stream;
    // The Operator package whose result it carried in the execution that kept it.
    std::string answered_package;
    // Whether its lines show their writer's uid, when that execution learned it.
    std::optional<bool> shows_uids;
    // The adb server its relay proved for shell calls spoken to it, when one did
    // (AdbClient::shell_server, docs/wire-protocol.md §2.7): the next execution's calls go
    // there too.
    std::optional<adb::LoopbackTcpServer> shell_server;
  };
  // The reader kept for `device_key`, now answering to `cancel`; no stream when none is kept
  // or the one kept has exited since (the device went away: the caller starts a new one and
  // learns why).
  Reader take(const std::string& device_key, const process::CancelToken& cancel);
  // Keeps `reader` (attached, alive) for the next execution on `device_key`; the least recently
  // used device's reader is stopped when more than max_devices would be kept.
  void keep(const std::string& device_key, Reader reader);
  // The process ids of the readers kept now.
  std::vector<int> reader_pids() const;

  struct Pool;

 private:
  std::unique_ptr<Pool> pool_;
};

struct ExecutionRequest {
  contract::Execution execution;
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  adb::AdbSettings adb;
  long lock_wait_ms = 0;
  // CLAWPERATOR_DEVICE_LOCK_TOKEN: the token of a `skills run` holding the device for the
  // script this process belongs to; a lock held with it is this execution's too
  // (docs/wire-protocol.md §4.3). Empty: none.
  std::string lock_token;
  // Per-user state: device locks and the readiness cache (none: neither; refused: the run
  // stops with STATE_DIRECTORY_UNSAFE before contacting the device).
  io::StateSelection state;
  // A one-line progress display on stderr while waiting (only for a terminal).
  bool show_progress = false;
  ResultTransport result_transport = ResultTransport::Logcat;
  // --require-authentic-result (docs/guardrails.md): refuse before dispatch unless the result
  // can be told from any other app's (RESULT_AUTHENTICITY_UNAVAILABLE). Needs logcat: `auto`
  // then means logcat, `direct` is refused.
  bool require_authentic_result = false;
  // The command's wall-clock budget (--timeout, docs/commands.md): the run ends within
  // budget + kResultGrace of its start, adb calls before dispatch and the lock wait included.
  std::optional<std::chrono::milliseconds> budget;
  // Where the logcat reader comes from and goes back to (none: started and stopped here).
  WarmFollowers* warm_followers = nullptr;
  // The action policy (docs/guardrails.md); null: none. Checked once the device is known,
  // before the lock and anything sent.
  std::shared_ptr<const policy::Policy> policy;
  // The approval a CONFIRMATION_REQUIRED recorded for this payload (--confirm ID, an HTTP
  // body's approvalId): runs once a person approved it (docs/guardrails.md §5).
  std::optional<std::string> approval_id;
  // Asks a person whether a step that needs confirmation may go (the CLI's controlling
  // terminal, an MCP client's elicitation); empty: nobody to ask here.
  std::function<bool(const std::string& question)> ask_person;
  // Through what ask_person reaches its person, for the log: "terminal", "elicitation".
  std::string ask_person_through;
  // A CONFIRMATION_REQUIRED records a pending approval a person may grant (the CLI, HTTP); its
  // id is no credential. Off for MCP, where no tool argument could use one.
  bool record_approvals = true;
  // Labels the host read for a step itself, by step id, judged by the policy beside the
  // payload's and the screen's: a tap on text recognised on the screen (service/visual_text.hpp)
  // carries the phrase read, which the node under its point may not hold.
  std::map<std::string, std::vector<std::string>> read_labels;

  // Test seams: a fixed result deadline instead of timeoutMs + 5 s, and a fixed
  // readiness-probe command id (attempt N gets the suffix "-N" after the first).
  std::optional<std::chrono::milliseconds> result_timeout;
  std::string probe_command_id;
};

struct ExecutionReport {
  Json document;  // the success wrapper or the error object
  int exit_code = 0;
};

ExecutionReport run_execution(const ExecutionRequest& request, process::Runner& runner);

// The screen and lock state the Operator's doctor_ping reports. Absent keys (older
// Operators) are unknown.
struct InteractiveState {
  std::optional<bool> screen_on;
  std::optional<bool> device_locked;
  std::optional<bool> user_unlocked;
};

// One doctor_ping handshake through its own logcat reader, the way an execution's readiness
// probe goes (doctor's readiness.handshake check). Changes nothing on the device.
inline constexpr std::chrono::milliseconds kProbeResultTimeout{7000};

struct ProbeRequest {
  std::string serial;
  std::string operator_package;
  adb::AdbSettings adb;
  std::chrono::milliseconds timeout = kProbeResultTimeout;
  std::string probe_command_id;  // empty: a fresh unique id
};

struct ProbeReport {
  std::string command_id;
  long long elapsed_ms = 0;
  // The Operator's answer, or why there is none: ADB_NOT_FOUND, RESULT_TRANSPORT_SPAWN_FAILED,
  // LOGCAT_UNAVAILABLE (the reader exited at once), RESULT_TRANSPORT_CANCELLED, or the probe's
  // own failure (RESULT_ENVELOPE_TIMEOUT, DEVICE_ACCESSIBILITY_NOT_RUNNING …).
  contract::Outcome<InteractiveState> state = InteractiveState{};
};

ProbeReport run_readiness_probe(const ProbeRequest& request, process::Runner& runner);

// A device made ready for a program that drives it itself (a skill's script, docs/skills.md):
// the device resolved, locked for as long as this object lives, the Operator present, and the
// screen on and unlocked, exactly as `exec` checks them before a broadcast.
class DeviceLock;  // src/exec/device_lock.hpp

struct ScriptDeviceRequest {
  std::optional<std::string> device;  // --device / ANDROID_SERIAL
  std::string operator_package;
  adb::AdbSettings adb;
  long lock_wait_ms = 0;
  io::StateSelection state;
  // Names the session in the lock's holder record and in its errors' commandId/taskId.
  std::string session_id;
  std::string task_id;
  // A lock token this process inherited itself (a skill run from a skill's script).
  std::string lock_token;
  // Test seam: a fixed readiness-probe command id.
  std::string probe_command_id;
};

class ScriptDeviceSession {
 public:
  ScriptDeviceSession();
  ~ScriptDeviceSession();  // releases the device lock
  ScriptDeviceSession(ScriptDeviceSession&&) noexcept;
  ScriptDeviceSession& operator=(ScriptDeviceSession&&) noexcept;

  std::string serial;
  // The token recorded with the lock: a child given it in CLAWPERATOR_DEVICE_LOCK_TOKEN may run
  // executions on the device while this session holds it. Empty when the session holds no lock
  // of its own (no state directory, an unwritable one, or one inherited from a parent).
  std::string lock_token;
  std::filesystem::path lock_path;
  std::unique_ptr<DeviceLock> lock;
};

// Resolves the device, takes its lock (busy: EXECUTION_CONFLICT_IN_FLIGHT), checks the Operator
// (OPERATOR_NOT_INSTALLED) and interactive readiness (a probe through a logcat reader of its
// own, the bounded wake, DEVICE_NOT_INTERACTIVE), always probing: a script runs for long. The
// good answer refreshes the readiness record, so the script's own first exec skips its probe.
// Every failure is a readiness failure of the session: nothing was sent.
contract::Outcome<ScriptDeviceSession> prepare_device_for_script(const ScriptDeviceRequest& request,
                                                                 process::Runner& runner);

}  // namespace clawperator::exec
