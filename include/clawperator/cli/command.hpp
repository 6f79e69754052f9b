// What a command is to the dispatcher: a CLI11 subcommand plus a handler that
// turns the resolved options into the one JSON document and the exit code.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/cli/command_line.hpp"
#include "clawperator/cli/global_options.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/report/report.hpp"
#include "clawperator/service/session.hpp"
#include "clawperator/skills/script_guard.hpp"

namespace CLI {
class App;
}

namespace clawperator::exec {
enum class ResultTransport;  // clawperator/exec/execution.hpp
}  // namespace clawperator::exec

namespace clawperator::policy {
struct Policy;  // clawperator/policy/policy.hpp
}  // namespace clawperator::policy

namespace clawperator::skills {
struct SearchFilter;  // clawperator/skills/queries.hpp
}  // namespace clawperator::skills

namespace clawperator::cli {

struct CommandResult {
  Json document;
  int exit_code = 0;
  // Printed instead of the document under --output pretty, for a person
  // (snapshot's tree); absent: the indented document.
  std::optional<std::string> pretty_text = std::nullopt;
  // The command wrote its own output (`logs` streams the log file).
  bool already_written = false;
  // The actions of the execution the command sent (or planned: --dry-run), for --report: the
  // steps the Operator never reached are test cases too. Filled only when a report is asked for.
  std::vector<report::PlannedStep> planned_steps = {};
  // A sequence's: each payload's command id and planned steps, in order (a suite each).
  struct PlannedPart {
    std::string command_id;
    std::vector<report::PlannedStep> steps;
  };
  std::vector<PlannedPart> planned_parts = {};
};

CommandResult success(Json document);
CommandResult failure(const contract::HostError& error);
// A service's answer (src/service/) as the CLI's result: success() or failure().
CommandResult result_of(contract::Outcome<Json> outcome);
// A USAGE failure (exit 2) with `details` ({"flag": …}, {"argument": …}) beside its phase.
CommandResult usage_failure(std::string message, Json details = Json::object());

struct Command {
  CLI::App* app = nullptr;
  std::function<CommandResult(const GlobalOptions&)> run;
  // Flags this command accepts besides the global ones, for "did you mean".
  std::vector<std::string> flags;
  // The command runs an execution (run_on_device) and honours --timeout as its wall-clock
  // budget; any other command refuses --timeout rather than ignore it (docs/commands.md).
  bool takes_timeout = false;
  // Offered the first extra argument that looks like a flag and is none; true when the command
  // took it as its own (exec: a payload file whose name starts with '-').
  std::function<bool(const std::string&)> claim_argument = nullptr;
  // Receives the words after `--` that fill none of the command's positional arguments
  // (`skills run ID -- ARGS...`: the script's arguments, verbatim); without it such words are
  // refused as unexpected arguments.
  std::function<void(std::vector<std::string>)> take_rest = nullptr;
  // The command writes a report of its run when --report asks (src/cli/run_report.cpp): what
  // the report is of. Empty command words: the command's name. nullopt (or no function): this
  // command (or this word of it: `skills list`) refuses --report.
  std::function<std::optional<report::Subject>()> report_subject = nullptr;
};

// Runs a validated execution on the device (the exec path), shared by every
// command that acts on a device.
CommandResult run_on_device(contract::Execution execution, const GlobalOptions& options);
// The same for a sequence of payloads (docs/payload.md §12).
CommandResult run_sequence_on_device(contract::Sequence sequence, const GlobalOptions& options);

// The state directory of this run (io/state_directory.hpp); its warning, if any, is printed
// on stderr here, once.
io::StateSelection state_directory_for_run();

// The documents of `devices` and `errors [CODE]`, shared with the front ends that answer with
// the same document (mcp serve's tools, the HTTP server's routes).
CommandResult run_devices(const GlobalOptions& options);
CommandResult list_devices(const adb::AdbSettings& settings);
CommandResult run_errors(const std::string& code);
// The documents of `skills list` (an empty filter), `skills search` and `skills get ID`, from
// the registry `registry` names (nullopt: the lookup of docs/skills.md), shared with mcp serve's
// skills_list / skills_get and serve's GET /skills routes.
CommandResult run_skills_list(const skills::SearchFilter& filter,
                              const std::optional<std::string>& registry);
CommandResult run_skills_get(const std::string& skill_id,
                             const std::optional<std::string>& registry);

// mcp serve (src/cli/command_mcp.cpp: the start; the server is src/mcp/host.cpp)
void register_mcp_commands(CommandLine root, std::vector<Command>& commands);

// One registration function per command group; each adds its subcommands.
void register_exec_commands(CommandLine root, std::vector<Command>& commands);
// approve [ID]: a person at this terminal grants a pending approval (src/cli/command_approve.cpp)
void register_approve_commands(CommandLine root, std::vector<Command>& commands);
void register_catalog_commands(CommandLine root, std::vector<Command>& commands);
void register_device_commands(CommandLine root, std::vector<Command>& commands);
// snapshot, click, type, read, … (src/cli/command_actions.cpp)
void register_action_commands(CommandLine root, std::vector<Command>& commands);
// packages list
void register_package_commands(CommandLine root, std::vector<Command>& commands);
// doctor, version
void register_setup_commands(CommandLine root, std::vector<Command>& commands);
// operator setup, grant-device-permissions
void register_operator_commands(CommandLine root, std::vector<Command>& commands);
// logs
void register_log_commands(CommandLine root, std::vector<Command>& commands);
// serve (src/cli/command_serve.cpp)
void register_serve_commands(CommandLine root, std::vector<Command>& commands);
// skills list|get|search|… (src/cli/command_skills.cpp)
void register_skills_commands(CommandLine root, std::vector<Command>& commands);
// recording start|stop|pull|parse|compile|export|compare (src/cli/command_recording.cpp)
void register_recording_commands(CommandLine root, std::vector<Command>& commands);
void register_emulator_commands(CommandLine root, std::vector<Command>& commands);
// evidence capture|verify|video … (src/cli/command_evidence.cpp)
void register_evidence_commands(CommandLine root, std::vector<Command>& commands);
// webview list|query|click|type|eval|wait|screenshot (src/cli/command_webview.cpp)
void register_webview_commands(CommandLine root, std::vector<Command>& commands);

// The action policy of this run (--policy, CLAWPERATOR_POLICY, else the default file when it
// exists; docs/guardrails.md): null when there is none, POLICY_INVALID when it does not load.
contract::Outcome<std::shared_ptr<const policy::Policy>> load_action_policy(
    const GlobalOptions& options);
// Asks the person at the controlling terminal (/dev/tty) about a step that needs confirmation,
// when this process has one and is in its foreground process group, whatever stdin and stdout
// are (as sudo asks); empty otherwise: no terminal, a background job, a skill's script in a
// group of its own (the run then refuses, recording an approval a person may grant).
std::function<bool(const std::string&)> terminal_confirmation();
// What a run the policy judges needs beside its request (exec, the action commands, webview):
// the session (its policy loaded: load_action_policy) and who may confirm a step: --confirm's
// approval, the person at the controlling terminal (terminal_confirmation). Installs the
// interrupt handlers: Ctrl-C then stops the children and still prints the JSON error.
struct DeviceRun {
  service::Session session;
  std::optional<std::string> approval_id;
  std::function<bool(const std::string& question)> ask_person;
  std::string ask_person_through;
};
contract::Outcome<DeviceRun> prepare_device_run(const GlobalOptions& options);
// prepare_device_run for one request of the service (an execution or sequence call, a webview
// or visual-text request): who may confirm is given to `request`, the session returned.
template <typename Request>
contract::Outcome<service::Session> prepare_device_run(const GlobalOptions& options,
                                                       Request& request) {
  CLAWPERATOR_TRY_ASSIGN(DeviceRun prepared, prepare_device_run(options));
  request.approval_id = std::move(prepared.approval_id);
  request.ask_person = std::move(prepared.ask_person);
  request.ask_person_through = std::move(prepared.ask_person_through);
  return std::move(prepared.session);
}
// What a skill's script inherits of this run's rules: `policy` (loaded by load_action_policy),
// the authenticity demand and the result transport of `options`.
skills::ScriptGuard script_guard(const GlobalOptions& options,
                                 const std::shared_ptr<const policy::Policy>& policy);

// The adb executable and server the global options name.
adb::AdbSettings adb_settings(const GlobalOptions& options);
// How results come back (--result-transport, CLAWPERATOR_RESULT_TRANSPORT): the same for
// `exec`, every action command, `mcp serve` and `serve` (docs/wire-protocol.md §11).
exec::ResultTransport result_transport(const GlobalOptions& options);

}  // namespace clawperator::cli
