// The server loop: one reader (this thread), a bounded pool of call threads, one progress
// ticker. Shared state (the queue, the calls in flight, the session) sits under one mutex;
// stdout under its own, so that a line is always written whole.
#include "clawperator/mcp/server.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/contract/sequence.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/mcp/jsonrpc.hpp"
#include "clawperator/mcp/lifecycle.hpp"
#include "clawperator/mcp/result.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/service/compact_snapshot.hpp"
#include "clawperator/service/skills.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/line_splitter.hpp"

namespace clawperator::mcp {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kProgressInterval = std::chrono::milliseconds(1000);

// stdout: whole lines only, from any thread. A client that went away makes writes fail
// (EPIPE: the interrupt handlers ignore SIGPIPE); the rest is then dropped.
class Output {
 public:
  explicit Output(int fd) : fd_(fd) {}
  void send(const std::string& line) {
    const std::lock_guard<std::mutex> guard(mutex_);
    const char* data = line.data();
    std::size_t size = line.size();
    while (!broken_ && size > 0) {
      const ssize_t written = ::write(fd_, data, size);
      if (written < 0) {
        if (errno == EINTR) continue;
        broken_ = true;
        break;
      }
      data += written;
      size -= static_cast<std::size_t>(written);
    }
  }

 private:
  int fd_;
  std::mutex mutex_;
  bool broken_ = false;
};

// The answers to one JSON-RPC batch (JSON-RPC 2.0 §6): sent as one array once every request
// in it is answered, whichever thread answers last.
class BatchAnswers {
 public:
  BatchAnswers(Output& output, std::size_t expected) : output_(output), pending_(expected) {
    answers_.reserve(expected);
  }
  void add(Json answer) {
    const std::lock_guard<std::mutex> guard(mutex_);
    answers_.push_back(std::move(answer));
    if (answers_.size() < pending_) return;
    Json array = Json::array();
    for (Json& each : answers_) array.push_back(std::move(each));
    answers_.clear();
    output_.send(message_line(array));
  }

 private:
  Output& output_;
  std::mutex mutex_;
  std::size_t pending_;
  std::vector<Json> answers_;
};

// Where a request's answer goes: a line of its own, or its batch's array.
struct Reply {
  Output* output = nullptr;
  std::shared_ptr<BatchAnswers> batch;
  void send(Json message) const {
    if (batch) {
      batch->add(std::move(message));
    } else {
      output->send(message_line(message));
    }
  }
};

struct Job {
  Json id;
  Reply reply;
  const ToolDefinition* tool = nullptr;
  ToolCall plan;
  std::optional<contract::Execution> execution;  // ExecutionCall, validated
  std::optional<contract::Sequence> sequence;    // or its sequence (execute's executions)
  std::string protocol_version;
  std::shared_ptr<process::CancelSource> cancel;
  std::optional<Json> progress_token;
  Clock::time_point started = Clock::now();
  double budget_ms = 0;
};

std::string id_key(const Json& id) {
  return dump_json(id);
}

// The screenshot the execution wrote to a temporary file; the file is removed
// (its path is redacted from the result, so the client could not use it anyway).
std::optional<std::string> take_screenshot_file(const Json& document) {
  if (!document.contains("envelope")) return std::nullopt;
  for (const Json& step : document["envelope"].value("stepResults", Json::array())) {
    if (!step.is_object() || !step.contains("data") || !step["data"].is_object()) continue;
    const Json& data = step["data"];
    if (!data.contains("path") || !data["path"].is_string()) continue;
    const std::filesystem::path path = data["path"].get<std::string>();
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return bytes;
  }
  return std::nullopt;
}

class Server {
 public:
  Server(const ServerOptions& options, ToolHost& host)
      : options_(options), host_(host), output_(options.output_fd), session_(options.session) {}

  int run() {
    for (std::size_t i = 0; i < std::max<std::size_t>(1, options_.max_calls_in_flight); ++i) {
      workers_.emplace_back([this] { work(); });
    }
    std::thread ticker([this] { tick(); });
    io::log_event(io::LogLevel::Info, "mcp.server", Json{{"state", "started"}});
    read_until_end();
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      stopping_ = true;
      // Everything still running or queued stops; each is still answered.
      for (auto& [key, job] : in_flight_) job->cancel->cancel();
    }
    wake_.notify_all();
    ticker_wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
    ticker.join();
    const int signal = process::interrupted_signal();
    io::log_event(io::LogLevel::Info, "mcp.server", Json{{"state", "stopped"}, {"signal", signal}});
    return signal != 0 ? contract::exit_code_for_signal(signal) : 0;
  }

 private:
  void read_until_end() {
    transport::LineSplitter splitter(options_.max_line_bytes);
    std::vector<char> buffer(64 * 1024);
    for (;;) {
      if (process::interrupted_signal() != 0) return;
      std::array<pollfd, 2> fds = {pollfd{options_.input_fd, POLLIN, 0},
                                   pollfd{process::interrupt_fd(), POLLIN, 0}};
      if (::poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (process::interrupted_signal() != 0) return;
      if (fds[0].revents == 0) continue;
      const ssize_t got = ::read(options_.input_fd, buffer.data(), buffer.size());
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got <= 0) break;
      const std::size_t overlong = splitter.overlong_lines();
      splitter.feed(std::string_view(buffer.data(), static_cast<std::size_t>(got)),
                    [this](std::string_view line) { handle_line(line); });
      for (std::size_t i = overlong; i < splitter.overlong_lines(); ++i) {
        output_.send(error_line(nullptr, rpc_error::kInvalidRequest,
                                "Invalid Request: the line exceeds " +
                                    std::to_string(options_.max_line_bytes) + " bytes"));
      }
    }
    if (auto tail = splitter.finish()) handle_line(*tail);
  }

  void handle_line(std::string_view line) {
    if (trim(line).empty()) return;
    Message message = parse_message(line);
    const Reply direct{&output_, nullptr};
    if (auto* batch = std::get_if<Batch>(&message)) {
      handle_batch(*batch, direct);
      return;
    }
    handle_message(message, direct);
  }

  // MCP 2025-03-26 only ("MUST support receiving JSON-RPC batches"); the versions before it do
  // not have them and 2025-06-18 removed them. Never before initialize: initialize "MUST NOT
  // be part of a JSON-RPC batch".
  void handle_batch(Batch& batch, const Reply& direct) {
    const std::string& version = lifecycle_.protocol_version();
    if (version != kBatchProtocolVersion) {
      direct.send(error_message(nullptr, rpc_error::kInvalidRequest,
                                version.empty()
                                    ? "Invalid Request: a JSON-RPC batch needs protocol version " +
                                          std::string(kBatchProtocolVersion) + " negotiated first"
                                    : "Invalid Request: protocol version " + version +
                                          " has no JSON-RPC batches (only " +
                                          std::string(kBatchProtocolVersion) + " has)"));
      return;
    }
    std::vector<Message> messages;
    messages.reserve(batch.elements.size());
    std::size_t answers = 0;
    for (Json& element : batch.elements) {
      messages.push_back(classify_message(std::move(element)));
      const Message& message = messages.back();
      if (std::holds_alternative<Request>(message)) ++answers;
      if (const auto* malformed = std::get_if<Malformed>(&message);
          malformed && malformed->answer) {
        ++answers;
      }
    }
    // Only notifications and responses: nothing is owed, not even an empty array.
    const Reply reply{&output_,
                      answers > 0 ? std::make_shared<BatchAnswers>(output_, answers) : nullptr};
    for (const Message& message : messages) handle_message(message, reply);
  }

  void handle_message(const Message& message, const Reply& reply) {
    if (const auto* malformed = std::get_if<Malformed>(&message)) {
      if (malformed->answer)
        reply.send(error_message(malformed->id, malformed->code, malformed->message));
      return;
    }
    if (const auto* notification = std::get_if<Notification>(&message)) {
      handle_notification(*notification);
      return;
    }
    if (const auto* request = std::get_if<Request>(&message)) handle_request(*request, reply);
    if (const auto* response = std::get_if<Response>(&message)) handle_response(*response);
  }

  static std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) {
      text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
      text.remove_suffix(1);
    }
    return text;
  }

  void handle_notification(const Notification& notification) {
    if (notification.method == "notifications/initialized") {
      lifecycle_.ready();
    } else if (notification.method == "notifications/cancelled") {
      const auto request_id = notification.params.find("requestId");
      if (request_id == notification.params.end()) return;
      const std::lock_guard<std::mutex> guard(mutex_);
      // Unknown or finished ids are ignored, as the specification allows.
      if (auto found = in_flight_.find(id_key(*request_id)); found != in_flight_.end()) {
        io::log_event(io::LogLevel::Info, "mcp.cancelled", Json{{"requestId", *request_id}});
        found->second->cancel->cancel();
      }
    }
    // Other notifications (progress, roots changed …) need nothing from us.
  }

  void handle_request(const Request& request, const Reply& reply) {
    if (auto refusal = lifecycle_.admit(request.method)) {
      reply.send(error_message(request.id, refusal->code, refusal->message));
      return;
    }
    if (request.method == "initialize") {
      const std::string version = negotiate_protocol_version(request.params);
      lifecycle_.initialized(version);
      // Elicitation exists from 2025-06-18, for a client that declares it.
      const Json capabilities = request.params.value("capabilities", Json::object());
      client_elicits_.store(version >= "2025-06-18" && capabilities.is_object() &&
                            capabilities.value("elicitation", Json()).is_object());
      reply.send(result_message(request.id, initialize_result(version)));
      return;
    }
    if (request.method == "ping") {
      reply.send(result_message(request.id, Json::object()));
      return;
    }
    if (request.method == "tools/list") {
      Json tools = Json::array();
      for (const ToolDefinition& tool : tool_definitions()) {
        tools.push_back(tool_list_entry(tool, lifecycle_.protocol_version()));
      }
      reply.send(result_message(request.id, Json{{"tools", std::move(tools)}}));
      return;
    }
    if (request.method == "tools/call") {
      handle_call(request, reply);
      return;
    }
    reply.send(error_message(request.id, rpc_error::kMethodNotFound,
                             "Method not found: " + request.method));
  }

  void handle_call(const Request& request, const Reply& reply) {
    const auto invalid_params = [&](const std::string& message,
                                    std::optional<Json> data = std::nullopt) {
      reply.send(error_message(request.id, rpc_error::kInvalidParams, message, std::move(data)));
    };
    const auto name = request.params.find("name");
    if (name == request.params.end() || !name->is_string()) {
      invalid_params("tools/call needs a tool name (path: name)");
      return;
    }
    const ToolDefinition* tool = find_tool(name->get<std::string>());
    if (tool == nullptr) {
      invalid_params("Unknown tool: " + name->get<std::string>());
      return;
    }
    Json arguments = Json::object();
    if (const auto found = request.params.find("arguments"); found != request.params.end()) {
      if (!found->is_object() && !found->is_null()) {
        invalid_params("arguments must be an object (path: arguments)");
        return;
      }
      if (found->is_object()) arguments = *found;
    }
    std::optional<Json> progress_token;
    if (const auto meta = request.params.find("_meta");
        meta != request.params.end() && meta->is_object() && meta->contains("progressToken")) {
      progress_token = (*meta)["progressToken"];
    }
    SessionDefaults session;
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      session = session_;
    }
    ToolPlan plan = plan_tool_call(*tool, arguments, session, service::make_id_stamp());
    if (!plan) {
      invalid_params(plan.error().message);
      return;
    }
    if (auto* local = std::get_if<LocalCall>(&*plan);
        local != nullptr && local->kind == ToolKind::Configure) {
      Json document = Json::object();
      {
        const std::lock_guard<std::mutex> guard(mutex_);
        session_ = configured(session_, local->arguments);
        document["ok"] = true;
        document["session"] = to_json(session_);
      }
      reply.send(result_message(request.id,
                                tool_result(std::move(document), lifecycle_.protocol_version())));
      return;
    }
    auto job = std::make_shared<Job>();
    job->id = request.id;
    job->reply = reply;
    job->tool = tool;
    job->protocol_version = lifecycle_.protocol_version();
    job->cancel = std::make_shared<process::CancelSource>();
    job->progress_token = std::move(progress_token);
    if (auto* call = std::get_if<ExecutionCall>(&*plan);
        call && contract::is_sequence(call->payload)) {
      auto admitted = contract::admit_sequence(call->payload, {}, service::fresh_id_random);
      if (!admitted) {
        const contract::HostError& error = admitted.error();
        invalid_params(
            error.message + " (path: " + error.details.value("path", std::string()) + ")",
            contract::to_json(error));
        return;
      }
      for (const contract::Execution& part : admitted->executions) {
        job->budget_ms += part.timeout_ms.value();
      }
      job->sequence = std::move(*admitted);
      job->plan = std::move(*call);
    } else if (call) {
      auto admitted = contract::admit_execution(call->payload, {}, service::fresh_id_random);
      if (!admitted) {
        const contract::HostError& error = admitted.error();
        // A payload that does not validate names where; one too large has no such place.
        const bool too_large = error.code == "PAYLOAD_TOO_LARGE";
        invalid_params(
            too_large
                ? error.message
                : error.message + " (path: " + error.details.value("path", std::string()) + ")",
            contract::to_json(error));
        return;
      }
      job->budget_ms = admitted->timeout_ms.value();
      job->execution = std::move(*admitted);
      job->plan = std::move(*call);
    } else {
      job->plan = std::move(*plan);
    }
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      const std::string key = id_key(request.id);
      if (in_flight_.count(key) != 0) {
        reply.send(error_message(request.id, rpc_error::kInvalidRequest,
                                 "Invalid Request: this id is already in flight"));
        return;
      }
      in_flight_[key] = job;
      queue_.push_back(job);
    }
    wake_.notify_one();
  }

  void work() {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      Json answer;
      try {
        answer = result_message(job->id, run_job(*job));
      } catch (const std::exception& exception) {
        answer = error_message(job->id, rpc_error::kInternalError,
                               std::string("Internal error: ") + exception.what());
      }
      {
        // Answered and forgotten at once: a late cancellation finds nothing.
        const std::lock_guard<std::mutex> guard(mutex_);
        in_flight_.erase(id_key(job->id));
      }
      ticker_wake_.notify_all();
      job->reply.send(std::move(answer));
    }
  }

  Json run_job(Job& job) {
    const process::CancelToken token = job.cancel->token();
    if (const auto* call = std::get_if<ExecutionCall>(&job.plan)) {
      CallTarget target{call->device_id, call->operator_package};
      if (client_elicits_.load()) {
        target.ask_person = [this, token](const std::string& question) {
          return ask_client(question, token);
        };
      }
      if (job.sequence)
        return tool_result(host_.run_sequence(*job.sequence, target, token), job.protocol_version);
      Json document = host_.run_execution(*job.execution, target, token);
      if (call->compact) return compact_snapshot_result(std::move(document), *call, job);
      if (call->max_chars) truncate_snapshot(document, *call->max_chars);
      if (job.tool->kind == ToolKind::Screenshot && document.value("ok", false)) {
        if (auto png = take_screenshot_file(document)) {
          return screenshot_result(*png, std::move(document), call->max_dimension,
                                   job.protocol_version);
        }
      }
      if (document.contains("query")) {
        Json kept = {{"query", document["query"]}};
        return tool_result(std::move(document), job.protocol_version, kept);
      }
      return tool_result(std::move(document), job.protocol_version);
    }
    const LocalCall& local = std::get<LocalCall>(job.plan);
    Json document;
    switch (local.kind) {
      case ToolKind::Devices:
        document = host_.devices();
        break;
      case ToolKind::Doctor:
        document = host_.doctor({local.device_id, local.operator_package},
                                local.arguments.value("full", false));
        break;
      case ToolKind::SkillsRun: {
        document =
            host_.skills_run(local.arguments, {local.device_id, local.operator_package}, token);
        // The script's output is the result here, not adb's raw output, which the redaction
        // drops under `stdout` / `stderr`: it keeps these names (its path scrubbing applies).
        service::name_script_output_for_remote(document);
        Json kept = Json::object();
        if (document.contains("skillResult")) kept["skillResult"] = document["skillResult"];
        return tool_result(std::move(document), job.protocol_version, kept);
      }
      case ToolKind::RecordingCompile: {
        document = host_.recording_compile(local.arguments,
                                           {local.device_id, local.operator_package}, token);
        // The payloads are what the caller runs next: set back whole, past the redaction.
        Json kept = Json::object();
        for (const char* key : {"execution", "executions"}) {
          if (document.contains(key)) kept[key] = document[key];
        }
        return tool_result(std::move(document), job.protocol_version, kept);
      }
      case ToolKind::EmulatorProvision:
        document = host_.emulator_provision(local.arguments, token);
        // The emulator's log is a file of this host's state directory: no use to a remote
        // caller (the redaction would keep its name, which does not end in "path").
        document.erase("logFile");
        break;
      case ToolKind::EvidenceCapture:
      case ToolKind::EvidenceVideoStart:
      case ToolKind::EvidenceVideoStatus:
      case ToolKind::EvidenceVideoStop: {
        const CallTarget target{local.device_id, local.operator_package};
        if (local.kind == ToolKind::EvidenceCapture) {
          document = host_.evidence_capture(local.arguments, target, token);
        } else {
          document = host_.evidence_video(local.kind == ToolKind::EvidenceVideoStart    ? "start"
                                          : local.kind == ToolKind::EvidenceVideoStatus ? "status"
                                                                                        : "stop",
                                          local.arguments, target);
        }
        // The bundle's own files are named relative to it: the manifest and its path (a file
        // this server made under its evidence directory) go back whole, the directory does not.
        document.erase("bundleDir");
        if (document.contains("details") && document["details"].is_object()) {
          document["details"].erase("bundleDir");
        }
        Json kept = Json::object();
        for (const char* key : {"manifestPath", "manifest"}) {
          if (document.contains(key)) kept[key] = document[key];
        }
        // As the newest original: a session that is not complete (still recording, or failed)
        // is an error result for status and stop.
        const bool pending = (local.kind == ToolKind::EvidenceVideoStatus ||
                              local.kind == ToolKind::EvidenceVideoStop) &&
                             document.value("status", "") != "complete";
        Json result = tool_result(std::move(document), job.protocol_version, kept);
        if (pending) result["isError"] = true;
        return result;
      }
      case ToolKind::Webview:
        return webview_result(local, job, token);
      case ToolKind::VisualText: {
        CallTarget target{local.device_id, local.operator_package};
        if (client_elicits_.load()) {
          target.ask_person = [this, token](const std::string& question) {
            return ask_client(question, token);
          };
        }
        document =
            host_.visual_text(visual_text_action_of(*job.tool), local.arguments, target, token);
        // What the screen said (the words read, where) comes back whole, past the redaction.
        Json kept = Json::object();
        for (const char* key : {"matches", "match", "text", "visualText"}) {
          if (document.contains(key)) kept[key] = document[key];
        }
        return tool_result(std::move(document), job.protocol_version, kept);
      }
      case ToolKind::SkillsList:
      case ToolKind::SkillsGet: {
        document = local.kind == ToolKind::SkillsList
                       ? host_.skills_list(local.arguments)
                       : host_.skills_get(local.arguments.value("skillId", std::string()));
        // The entries are the registry's own data (relative paths into the skills
        // repository, docs/skills.md), set back whole; registryPath stays redacted.
        Json kept = Json::object();
        for (const char* key : {"skills", "skill"}) {
          if (document.contains(key)) kept[key] = document[key];
        }
        return tool_result(std::move(document), job.protocol_version, kept);
      }
      default:
        document = host_.explain_error(local.arguments.value("code", std::string()));
        break;
    }
    return tool_result(std::move(document), job.protocol_version);
  }

  // What the page said (elements, values, pages and their URLs) comes back whole, past the
  // redaction; a screenshot as image content, its temporary file removed.
  Json webview_result(const LocalCall& local, const Job& job, const process::CancelToken& token) {
    const service::WebviewAction action = webview_action_of(*job.tool);
    CallTarget target{local.device_id, local.operator_package};
    if (client_elicits_.load()) {
      target.ask_person = [this, token](const std::string& question) {
        return ask_client(question, token);
      };
    }
    Json document = host_.webview(action, local.arguments, target, token);
    if (action == service::WebviewAction::Screenshot && document.value("ok", false) &&
        document.value("path", Json()).is_string()) {
      const std::filesystem::path file = document["path"].get<std::string>();
      std::ifstream in(file, std::ios::binary);
      const std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::error_code ignored;
      std::filesystem::remove(file, ignored);
      document.erase("path");
      return image_result(transport::encode_base64(png), std::move(document), job.protocol_version);
    }
    Json kept = Json::object();
    for (const char* key : {"matches", "element", "value", "sockets", "page"}) {
      if (document.contains(key)) kept[key] = document[key];
    }
    return tool_result(std::move(document), job.protocol_version, kept);
  }

  // snapshot compact: the CLI's projection (snapshot --compact), the raw XML in a new private
  // file of the state directory when asked. `compact` survives the redaction whole.
  Json compact_snapshot_result(Json document, const ExecutionCall& call, const Job& job) {
    if (!document.value("ok", false) || !document.contains("envelope")) {
      return tool_result(std::move(document), job.protocol_version);
    }
    std::optional<std::string> raw_path;
    if (call.save_raw) {
      const std::string id = document["envelope"].value("commandId", std::string("snapshot"));
      raw_path = host_.artifact_path("snapshot-" + id + ".xml");
      if (!raw_path) {
        contract::HostError error = contract::make_error(
            contract::Phase::PostProcessing, "SNAPSHOT_ARTIFACT_WRITE_FAILED",
            "saveRaw needs a state directory to keep the raw hierarchy in, and this server has "
            "none");
        error.dispatch_state = contract::DispatchState::Dispatched;
        return tool_result(contract::to_json(error), job.protocol_version);
      }
    }
    auto compacted =
        service::compact_snapshot_document(std::move(document), *call.compact, raw_path);
    if (!compacted) return tool_result(contract::to_json(compacted.error()), job.protocol_version);
    if (call.with_text) {
      Json read = host_.with_recognised_text(std::move(*compacted), job.cancel->token());
      if (!read.value("ok", false)) return tool_result(std::move(read), job.protocol_version);
      compacted = std::move(read);
    }
    Json kept = {{"compact", (*compacted)["compact"]}};
    return tool_result(std::move(*compacted), job.protocol_version, kept);
  }

  // notifications/progress for every call that asked for it, once a second while it runs.
  void tick() {
    std::unique_lock<std::mutex> lock(mutex_);
    Clock::time_point next = Clock::now() + kProgressInterval;
    while (!stopping_ || !in_flight_.empty()) {
      // Woken early only to notice the end.
      ticker_wake_.wait_until(lock, next);
      if (stopping_ && in_flight_.empty()) break;
      if (Clock::now() < next) continue;
      next = Clock::now() + kProgressInterval;
      for (const auto& [key, job] : in_flight_) {
        if (!job->progress_token) continue;
        const double elapsed =
            std::chrono::duration<double, std::milli>(Clock::now() - job->started).count();
        Json params = Json::object();
        params["progressToken"] = *job->progress_token;
        params["progress"] = static_cast<long long>(elapsed);
        if (job->budget_ms > 0) params["total"] = static_cast<long long>(job->budget_ms);
        params["message"] = "running " + job->tool->name;
        output_.send(notification_line("notifications/progress", std::move(params)));
      }
    }
  }

  // An answer to one of our elicitation/create requests, awaited by the call that asked.
  struct PendingQuestion {
    bool answered = false;
    Json result;
  };

  void handle_response(const Response& response) {
    const std::lock_guard<std::mutex> guard(mutex_);
    const auto found = questions_.find(id_key(response.id));
    if (found == questions_.end()) return;  // nothing we asked, or given up on
    found->second->answered = true;
    found->second->result = response.result;
    questions_wake_.notify_all();
  }

  // elicitation/create with a yes/no form; true only for an accepted yes. A decline, a cancel,
  // an error, no answer within two minutes or the call's cancellation is a no.
  bool ask_client(const std::string& question, const process::CancelToken& cancel) {
    const std::string id = "clawperator-confirm-" + std::to_string(++questions_asked_);
    auto pending = std::make_shared<PendingQuestion>();
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      questions_[id_key(Json(id))] = pending;
    }
    const Json schema = {
        {"type", "object"},
        {"properties",
         {{"confirm",
           {{"type", "boolean"},
            {"title", "Send this step"},
            {"description", "Yes sends the step once; no refuses it and nothing is sent"}}}}},
        {"required", Json::array({"confirm"})}};
    output_.send(
        message_line({{"jsonrpc", "2.0"},
                      {"id", id},
                      {"method", "elicitation/create"},
                      {"params",
                       {{"message", "The action policy asks for your confirmation.\n" + question},
                        {"requestedSchema", schema}}}}));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    std::unique_lock<std::mutex> lock(mutex_);
    while (!pending->answered && !stopping_ && !process::stop_requested(cancel) &&
           std::chrono::steady_clock::now() < deadline) {
      questions_wake_.wait_for(lock, std::chrono::milliseconds(100));
    }
    questions_.erase(id_key(Json(id)));
    if (!pending->answered || !pending->result.is_object()) return false;
    const Json& result = pending->result;
    return result.value("action", "") == "accept" && result.value("content", Json()).is_object() &&
           result["content"].value("confirm", false) == true;
  }

  const ServerOptions& options_;
  ToolHost& host_;
  Output output_;
  Lifecycle lifecycle_;  // the reader thread's alone
  std::atomic<bool> client_elicits_{false};
  std::atomic<long long> questions_asked_{0};
  std::map<std::string, std::shared_ptr<PendingQuestion>> questions_;  // under mutex_
  std::condition_variable questions_wake_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable ticker_wake_;
  bool stopping_ = false;
  SessionDefaults session_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::map<std::string, std::shared_ptr<Job>> in_flight_;
  std::vector<std::thread> workers_;
};

}  // namespace

int serve(const ServerOptions& options, ToolHost& host) {
  Server server(options, host);
  return server.run();
}

}  // namespace clawperator::mcp
