// `clawperator mcp serve`: MCP over stdio. The reader thread reads newline-delimited JSON-RPC
// from `input`, answers the lifecycle (initialize, ping, tools/list) itself and hands each
// tools/call to a bounded pool of call threads; every line written to `output` is one
// protocol message, under one mutex. stdin EOF, SIGINT or SIGTERM: every call in flight is
// cancelled and answered, the threads joined, and serve() returns.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/json.hpp"
#include "clawperator/mcp/tool_calls.hpp"
#include "clawperator/process/cancel.hpp"

namespace clawperator::mcp {

// Who a call is for, after the session's defaults.
struct CallTarget {
  std::optional<std::string> device_id;
  std::optional<std::string> operator_package;
  // Asks the human at the client (MCP elicitation) whether a step the action policy wants
  // confirmed may go; empty when the client cannot be asked (docs/guardrails.md).
  std::function<bool(const std::string& question)> ask_person = nullptr;
};

// What the tools run: the front end's executions and commands. Called from several call
// threads at once.
class ToolHost {
 public:
  virtual ~ToolHost() = default;
  // The document `clawperator exec` prints for this validated execution; `cancel` stops it
  // (RESULT_TRANSPORT_CANCELLED with the truthful dispatch state).
  virtual Json run_execution(const contract::Execution& execution, const CallTarget& target,
                             const process::CancelToken& cancel) = 0;
  // The same for a validated sequence (docs/payload.md §12).
  virtual Json run_sequence(const contract::Sequence& sequence, const CallTarget& target,
                            const process::CancelToken& cancel) = 0;
  // The documents of `devices`, `doctor [--full]` and `errors CODE`.
  virtual Json devices() = 0;
  virtual Json doctor(const CallTarget& target, bool full) = 0;
  virtual Json explain_error(const std::string& code) = 0;
  // The documents of `skills list` / `skills search` (arguments: app, intent, keyword) and
  // `skills get ID`, from the registry this server's environment names (docs/skills.md).
  virtual Json skills_list(const Json& arguments) = 0;
  virtual Json skills_get(const std::string& skill_id) = 0;
  // The document of `skills run` (arguments: skillId, args, expectContains, skipValidate,
  // timeoutMs, already checked against the tool's schema); `cancel` stops the script's group.
  virtual Json skills_run(const Json& arguments, const CallTarget& target,
                          const process::CancelToken& cancel) = 0;
  // The document of a device recording compiled for replay (arguments: sessionId,
  // closeAppFirst, checked against the tool's schema); nothing of it stays on the host.
  virtual Json recording_compile(const Json& arguments, const CallTarget& target,
                                 const process::CancelToken& cancel) = 0;
  // The document of `emulator provision` (arguments: api, target, abi, profile, headless, wipe,
  // keepAnimations, bootTimeoutMs, checked against the tool's schema); `cancel` stops the wait
  // and the emulator a start began.
  virtual Json emulator_provision(const Json& arguments, const process::CancelToken& cancel) = 0;
  // The document of `evidence capture` (arguments: label, context, timeoutMs, checked); the
  // bundle goes to the default bundles directory, never to a caller-named path.
  virtual Json evidence_capture(const Json& arguments, const CallTarget& target,
                                const process::CancelToken& cancel) = 0;
  // The documents of `evidence video start|status|stop` (start: durationSeconds, size, label,
  // context, recorder; status and stop: sessionId).
  virtual Json evidence_video(std::string_view action, const Json& arguments,
                              const CallTarget& target) = 0;
  // The document of `webview ACTION` (arguments as webview_* tools take them, already read by
  // service::read_webview_arguments); a screenshot's PNG in a new file of the temp directory
  // (`path`), which the server reads into the result and removes.
  virtual Json webview(service::WebviewAction action, const Json& arguments,
                       const CallTarget& target, const process::CancelToken& cancel) = 0;
  // The document of `click|wait|read|query --visual-text` (arguments as visual_text_* tools
  // take them, already read by service::read_visual_text_arguments).
  virtual Json visual_text(service::VisualTextAction action, const Json& arguments,
                           const CallTarget& target, const process::CancelToken& cancel) = 0;
  // A compact snapshot's document with the text read on the screen attached to its wordless
  // nodes (service::with_recognised_text), or the error object of the reading.
  virtual Json with_recognised_text(Json document, const process::CancelToken& cancel) = 0;
  // Where the server may create its own new private file `name` (one path component): in the
  // state directory; nullopt when this run has none.
  virtual std::optional<std::string> artifact_path(const std::string& name) {
    (void)name;
    return std::nullopt;
  }
};

struct ServerOptions {
  int input_fd = 0;
  int output_fd = 1;
  std::size_t max_calls_in_flight = 8;
  // Lines longer than this are refused (-32600) without being held in memory.
  std::size_t max_line_bytes = std::size_t{4} << 20;
  SessionDefaults session;  // the defaults before any configure
};

// Returns the process exit code: 0 after stdin EOF, 130/143 after SIGINT/SIGTERM (the
// interrupt handlers must be installed by the caller).
int serve(const ServerOptions& options, ToolHost& host);

}  // namespace clawperator::mcp
