// `mcp serve`: the MCP server over stdio (src/mcp/). The one command whose stdout is a stream
// of protocol messages rather than one document: only the server writes to it. The tools run
// what the other commands run, with the global options as the session's first defaults.
#include <unistd.h>

#include <filesystem>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/session.hpp"
#include "clawperator/doctor/doctor.hpp"
#include "clawperator/emulator/request.hpp"
#include "clawperator/evidence/capture.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/host_roots.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/mcp/result.hpp"
#include "clawperator/mcp/server.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/document.hpp"
#include "clawperator/service/errors.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/service/skills.hpp"
#include "clawperator/skills/queries.hpp"

namespace clawperator::cli {
namespace {

class CliToolHost final : public mcp::ToolHost {
 public:
  explicit CliToolHost(const GlobalOptions& options)
      : options_(options),
        state_(state_directory_for_run()),
        policy_(load_action_policy(options)),
        session_(session_of(options, policy_ ? *policy_ : nullptr)) {
    session_.state = state_;
    // Calls for one device queue behind each other (and behind a shell script's) for as long
    // as they may take, instead of failing with EXECUTION_CONFLICT_IN_FLIGHT.
    session_.lock_wait_ms.reset();
    session_.warm_followers = &warm_followers_;
    // A step the policy wants confirmed is refused without a token: nothing a model can send
    // confirms it (docs/guardrails.md); a person may, through the client's elicitation.
    session_.hand_out_tokens = false;
    session_.show_progress = false;
  }

  Json run_execution(const contract::Execution& execution, const mcp::CallTarget& target,
                     const process::CancelToken& cancel) override {
    // The server's policy applies to every tool that sends a payload.
    if (!policy_) return contract::to_json(policy_.error());
    service::ExecutionCall call;
    call.execution = execution;
    call.target = {target.device_id, target.operator_package};
    call.ask_person = target.ask_person;
    const auto runner = process::make_system_runner(cancel);
    return service::run_execution(session_, std::move(call), *runner).document;
  }

  Json devices() override { return run_devices(options_).document; }

  Json doctor(const mcp::CallTarget& target, bool full) override {
    doctor::DoctorOptions request;
    request.device = target.device_id ? target.device_id : options_.device;
    request.operator_package = target.operator_package.value_or(options_.operator_package);
    request.adb = adb_settings(options_);
    request.log_dir = options_.log_dir;
    if (full) request.state = state_;
    request.full = full;
    const auto runner = process::make_system_runner();
    return doctor::to_json(doctor::run_doctor(request, *runner));
  }

  Json explain_error(const std::string& code) override {
    return service::document_of(service::errors_document(code));
  }

  Json skills_list(const Json& arguments) override {
    skills::SearchFilter filter;
    for (const auto& [key, field] :
         {std::pair{"app", &filter.app}, std::pair{"intent", &filter.intent},
          std::pair{"keyword", &filter.keyword}}) {
      if (const auto it = arguments.find(key); it != arguments.end() && it->is_string()) {
        *field = it->get<std::string>();
      }
    }
    return service::document_of(service::skills_list(session_, filter));
  }

  Json skills_get(const std::string& skill_id) override {
    return service::document_of(service::skills_get(session_, skill_id));
  }

  Json skills_run(const Json& arguments, const mcp::CallTarget& target,
                  const process::CancelToken& cancel) override {
    // The same reader as POST /skills/:id/run: the schema let through what JSON can say (a NUL
    // in an argument), the service refuses what an argv cannot carry.
    auto read = service::read_skill_run(arguments);
    if (!read) return contract::to_json(read.error());
    if (!policy_) return contract::to_json(policy_.error());
    service::SkillRun run;
    run.skill_id = arguments.value("skillId", std::string());
    run.arguments = std::move(*read);
    run.target = {target.device_id, target.operator_package};
    return service::run_skill(session_, run, cancel).document;
  }

  Json recording_compile(const Json& arguments, const mcp::CallTarget& target,
                         const process::CancelToken& cancel) override {
    DeviceRecordingCompile call;
    if (const auto id = arguments.find("sessionId"); id != arguments.end() && id->is_string()) {
      call.session_id = id->get<std::string>();
    }
    call.close_app_first = arguments.value("closeAppFirst", false);
    call.device = target.device_id ? target.device_id : options_.device;
    call.operator_package = target.operator_package.value_or(options_.operator_package);
    call.adb = adb_settings(options_);
    return run_device_recording_compile(call, cancel).document;
  }

  Json emulator_provision(const Json& arguments, const process::CancelToken& cancel) override {
    // The schema has checked every argument; request_from_json reads them as serve's body.
    auto request = emulator::request_from_json("provision", "", arguments);
    if (!request) return contract::to_json(request.error());
    const auto runner = process::make_system_runner(cancel);
    adb::AdbClient client(*runner, adb_settings(options_));
    std::optional<std::filesystem::path> log_directory;
    if (state_.directory) log_directory = state_.directory->path();
    auto document = emulator::run_request(*request, *runner, client, log_directory);
    if (!document) return contract::to_json(document.error());
    return success(std::move(*document)).document;
  }

  Json evidence_capture(const Json& arguments, const mcp::CallTarget& target,
                        const process::CancelToken& cancel) override {
    evidence::CaptureRequest request;
    request.device.device = target.device_id ? target.device_id : options_.device;
    request.device.operator_package = target.operator_package.value_or(options_.operator_package);
    request.device.adb = adb_settings(options_);
    request.device.result_transport = result_transport(options_);
    request.device.require_authentic_result = options_.require_authentic_result;
    request.device.state = state_;
    request.device.warm_followers = &warm_followers_;
    if (const auto timeout = arguments.find("timeoutMs"); timeout != arguments.end()) {
      request.timeout = std::chrono::milliseconds(timeout->get<long long>());
    }
    // Queued behind the device's other calls, as an execution is.
    request.device.lock_wait_ms = static_cast<long>(request.timeout.count());
    if (const auto label = arguments.find("label"); label != arguments.end()) {
      request.label = label->get<std::string>();
    }
    if (const auto context = arguments.find("context"); context != arguments.end()) {
      request.context = *context;
    }
    const auto runner = process::make_system_runner(cancel);
    return evidence::capture_evidence(request, *runner).document;
  }

  Json evidence_video(std::string_view action, const Json& arguments,
                      const mcp::CallTarget& target) override {
    if (action != "start") {
      const std::string id = arguments.value("sessionId", std::string());
      return action == "status" ? evidence::video_status(id, state_).document
                                : evidence::stop_video(id, state_).document;
    }
    evidence::VideoStartRequest request;
    request.device = target.device_id ? target.device_id : options_.device;
    request.operator_package = target.operator_package.value_or(options_.operator_package);
    request.adb = adb_settings(options_);
    request.state = state_;
    request.duration_seconds = arguments.value("durationSeconds", 0);
    if (const auto size = arguments.find("size"); size != arguments.end()) {
      request.size = size->get<std::string>();
    }
    if (const auto label = arguments.find("label"); label != arguments.end()) {
      request.label = label->get<std::string>();
    }
    if (const auto context = arguments.find("context"); context != arguments.end()) {
      request.context = *context;
    }
    request.recorder = evidence::parse_recorder(arguments.value("recorder", "screenrecord"))
                           .value_or(evidence::Recorder::Screenrecord);
    const auto runner = process::make_system_runner();
    return evidence::start_video(request, *runner).document;
  }

  // What mcp::redact keeps out of every result (docs/mcp.md, "Redaction").
  std::vector<std::string> host_roots() const {
    return io::host_roots(options_.log_dir, state_, adb_settings(options_).executable);
  }

  std::optional<std::string> artifact_path(const std::string& name) override {
    if (!state_.directory) return std::nullopt;
    return (state_.directory->path() / io::escape_file_name(name)).string();
  }

 private:
  GlobalOptions options_;
  io::StateSelection state_;
  // Each device's logcat reader, kept between its calls (docs/mcp.md, "What is kept warm").
  exec::WarmFollowers warm_followers_;
  contract::Outcome<std::shared_ptr<const policy::Policy>> policy_;
  service::Session session_;  // after the members it is made from
};

CommandResult run_mcp_serve(const GlobalOptions& options) {
  // SIGINT/SIGTERM: every call in flight is cancelled and answered, then the server exits.
  process::install_interrupt_handlers();
  CliToolHost host(options);
  mcp::set_host_roots(host.host_roots());
  mcp::ServerOptions server;
  server.input_fd = STDIN_FILENO;
  server.output_fd = STDOUT_FILENO;
  if (options.device) server.session.device_id = options.device;
  if (options.operator_package_explicit) {
    server.session.operator_package = options.operator_package;
  }
  CommandResult result;
  result.exit_code = mcp::serve(server, host);
  result.already_written = true;
  return result;
}

}  // namespace

void register_mcp_commands(CommandLine root, std::vector<Command>& commands) {
  CommandLine mcp = root.add_subcommand("mcp", "Serve agents over the Model Context Protocol");
  mcp.group("Utilities");
  mcp.require_subcommand(1, 1);
  set_command_footer(mcp,
                     "Examples:\n"
                     "  clawperator mcp serve");
  CommandLine serve = mcp.add_subcommand(
      "serve", "Run an MCP server on stdin/stdout (docs/mcp.md); stdout carries only protocol");
  set_command_footer(serve,
                     "Notes:\n"
                     "  The global options are the session's first defaults; a tool call's\n"
                     "  deviceId, or the configure tool, chooses another device.\n\n"
                     "Examples:\n"
                     "  clawperator mcp serve --device emulator-5554");
  commands.push_back(Command{serve.app(), run_mcp_serve, {}});
}

}  // namespace clawperator::cli
