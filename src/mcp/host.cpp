#include "clawperator/mcp/host.hpp"

#include <unistd.h>

#include <filesystem>

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
#include "clawperator/service/devices.hpp"
#include "clawperator/service/document.hpp"
#include "clawperator/service/errors.hpp"
#include "clawperator/service/evidence.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/service/recording.hpp"
#include "clawperator/service/skills.hpp"
#include "clawperator/service/webview.hpp"
#include "clawperator/skills/queries.hpp"

namespace clawperator::mcp {
namespace {

class ServiceToolHost final : public ToolHost {
 public:
  explicit ServiceToolHost(const service::ServerStart& start)
      // Each device's reader is kept between its calls (docs/mcp.md, "What is kept warm");
      // calls for one device queue behind each other (and behind a shell script's) instead of
      // failing with EXECUTION_CONFLICT_IN_FLIGHT.
      : session_(service::server_session(start.session, &warm_followers_)),
        log_dir_(start.log_dir),
        policy_error_(start.policy_error) {
    // A step the policy wants confirmed is refused without an approval: no tool takes one, so
    // nothing a model can send confirms it (docs/guardrails.md §5); a person may, through the
    // client's elicitation.
    session_.record_approvals = false;
  }

  Json run_execution(const contract::Execution& execution, const CallTarget& target,
                     const process::CancelToken& cancel) override {
    service::ExecutionCall call;
    call.execution = execution;
    return run_call(std::move(call), target, cancel,
                    [](const auto& session, auto made, auto& runner) {
                      return service::run_execution(session, std::move(made), runner);
                    });
  }

  Json run_sequence(const contract::Sequence& sequence, const CallTarget& target,
                    const process::CancelToken& cancel) override {
    service::SequenceCall call;
    call.sequence = sequence;
    return run_call(std::move(call), target, cancel,
                    [](const auto& session, auto made, auto& runner) {
                      return service::run_sequence(session, std::move(made), runner);
                    });
  }

  // A payload or a sequence (`run` the service's runner of its kind) for `target`, its person
  // asked through the client's elicitation.
  template <typename Call, typename Run>
  Json run_call(Call call, const CallTarget& target, const process::CancelToken& cancel, Run run) {
    if (auto refused = prepare_judged(call, target)) return std::move(*refused);
    call.target = target_of(target);
    const auto runner = process::make_system_runner(cancel);
    return run(session_, std::move(call), *runner).document;
  }

  Json devices() override { return service::document_of(service::list_devices(session_.adb)); }

  Json doctor(const CallTarget& target, bool full) override {
    doctor::DoctorOptions request;
    const service::DeviceChoice chosen = service::choose_device(session_, target_of(target));
    request.device = chosen.device;
    request.operator_package = chosen.operator_package;
    request.adb = session_.adb;
    request.log_dir = log_dir_;
    if (full) request.state = session_.state;
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

  Json skills_run(const Json& arguments, const CallTarget& target,
                  const process::CancelToken& cancel) override {
    // The same reader as POST /skills/:id/run: the schema let through what JSON can say (a NUL
    // in an argument), the service refuses what an argv cannot carry.
    auto read = service::read_skill_run(arguments);
    if (!read) return contract::to_json(read.error());
    if (policy_error_) return contract::to_json(*policy_error_);
    service::SkillRun run;
    run.skill_id = arguments.value("skillId", std::string());
    run.arguments = std::move(*read);
    run.target = target_of(target);
    return service::run_skill(session_, run, cancel).document;
  }

  Json recording_compile(const Json& arguments, const CallTarget& target,
                         const process::CancelToken& cancel) override {
    service::DeviceRecordingCompile call;
    if (const auto id = arguments.find("sessionId"); id != arguments.end() && id->is_string()) {
      call.session_id = id->get<std::string>();
    }
    call.close_app_first = arguments.value("closeAppFirst", false);
    call.target = target_of(target);
    return service::document_of(service::compile_device_recording(session_, call, cancel));
  }

  Json emulator_provision(const Json& arguments, const process::CancelToken& cancel) override {
    // The schema has checked every argument; request_from_json reads them as serve's body.
    auto request = emulator::request_from_json("provision", "", arguments);
    if (!request) return contract::to_json(request.error());
    const auto runner = process::make_system_runner(cancel);
    adb::AdbClient client(*runner, session_.adb);
    std::optional<std::filesystem::path> log_directory;
    if (session_.state.directory) log_directory = session_.state.directory->path();
    return service::document_of(emulator::run_request(*request, *runner, client, log_directory));
  }

  Json evidence_capture(const Json& arguments, const CallTarget& target,
                        const process::CancelToken& cancel) override {
    auto read = service::read_capture_arguments(arguments);
    if (!read) return contract::to_json(read.error());
    return service::capture_evidence(session_, target_of(target), std::move(*read), cancel)
        .document;
  }

  Json evidence_video(std::string_view action, const Json& arguments,
                      const CallTarget& target) override {
    if (action != "start") {
      const std::string id = arguments.value("sessionId", std::string());
      return action == "status" ? evidence::video_status(id, session_.state).document
                                : evidence::stop_video(id, session_.state).document;
    }
    auto read = service::read_video_start_arguments(arguments);
    if (!read) return contract::to_json(read.error());
    return service::start_video(session_, target_of(target), std::move(*read)).document;
  }

  Json webview(service::WebviewAction action, const Json& arguments, const CallTarget& target,
               const process::CancelToken& cancel) override {
    auto request = service::read_webview_arguments(action, arguments);
    if (!request) return contract::to_json(request.error());
    if (auto refused = prepare_judged(*request, target)) return std::move(*refused);
    return service::document_of(
        service::run_webview(session_, target_of(target), *request, cancel));
  }

  Json visual_text(service::VisualTextAction action, const Json& arguments,
                   const CallTarget& target, const process::CancelToken& cancel) override {
    auto request = service::read_visual_text_arguments(action, arguments);
    if (!request) return contract::to_json(request.error());
    if (auto refused = prepare_judged(*request, target)) return std::move(*refused);
    const auto runner = process::make_system_runner(cancel);
    return service::run_visual_text(session_, target_of(target), *request, *runner).document;
  }

  Json with_recognised_text(Json document, const process::CancelToken& cancel) override {
    const auto runner = process::make_system_runner(cancel);
    return service::with_recognised_text(session_, std::move(document), "eng",
                                         service::kDefaultMinConfidence, *runner)
        .document;
  }

  // What redact keeps out of every result (docs/mcp.md, "Redaction").
  std::vector<std::string> host_roots() const {
    return io::host_roots(log_dir_, session_.state, session_.adb.executable);
  }

  std::optional<std::string> artifact_path(const std::string& name) override {
    if (!session_.state.directory) return std::nullopt;
    return (session_.state.directory->path() / io::escape_file_name(name)).string();
  }

 private:
  // For a request the policy judges (a payload, a sequence, a webview or visual-text call): the
  // refusal when the server's policy did not load, as every execution's (docs/guardrails.md);
  // else a confirm rule is given the person at the client, asked through elicitation, never the
  // model (no tool takes an approval).
  template <typename Request>
  std::optional<Json> prepare_judged(Request& request, const CallTarget& target) const {
    if (policy_error_) return contract::to_json(*policy_error_);
    request.ask_person = target.ask_person;
    if (request.ask_person) request.ask_person_through = "elicitation";
    return std::nullopt;
  }

  static service::Target target_of(const CallTarget& target) {
    return {target.device_id, target.operator_package};
  }

  service::Session session_;
  std::string log_dir_;
  std::optional<contract::HostError> policy_error_;
  // Each device's logcat reader, kept between its calls (docs/mcp.md, "What is kept warm").
  exec::WarmFollowers warm_followers_;
};

}  // namespace

int serve_stdio(const service::ServerStart& start) {
  // SIGINT/SIGTERM: every call in flight is cancelled and answered, then the server exits.
  process::install_interrupt_handlers();
  ServiceToolHost host(start);
  set_host_roots(host.host_roots());
  ServerOptions server;
  server.input_fd = STDIN_FILENO;
  server.output_fd = STDOUT_FILENO;
  if (start.session.device) server.session.device_id = start.session.device;
  if (start.operator_package_explicit) {
    server.session.operator_package = start.session.operator_package;
  }
  return serve(server, host);
}

}  // namespace clawperator::mcp
