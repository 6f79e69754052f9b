#include "vdevice/android/operator/operator_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/transport/sha256.hpp"
#include "vdevice/android/operator/agent_payload.hpp"
#include "vdevice/android/operator/result_framing.hpp"
#include "vdevice/android/system/android_system.hpp"

namespace clawperator::vdevice::android {
namespace {

using std::chrono::milliseconds;

constexpr const char* kTaskScopeTag = "TaskScopeDefault";
constexpr double kDefaultTimeoutMs = 30000;

bool has_command_faults(const FaultSpec& faults) {
  return faults.never_answer || faults.answer_late_ms > 0 || faults.malformed_envelope ||
         faults.bad_checksum || faults.reorder_chunks || faults.duplicate_chunk ||
         faults.drop_chunk || faults.close_stream_mid_envelope ||
         faults.drop_connection_before_dispatch || faults.drop_connection_after_dispatch ||
         faults.broadcast_refused || faults.ui_tree_unavailable;
}

bool is_probe(const std::optional<std::string>& payload) {
  if (!payload) return false;
  const Json document = Json::parse(*payload, nullptr, false);
  if (!document.is_object()) return false;
  const auto actions = document.find("actions");
  if (actions == document.end() || !actions->is_array() || actions->empty()) return false;
  return std::all_of(actions->begin(), actions->end(), [](const Json& action) {
    return action.is_object() && action.contains("type") && action["type"].is_string() &&
           contract::normalize_action_type(action["type"].get<std::string>()) == "doctor_ping";
  });
}

// The envelope's data values are strings (docs/wire-protocol.md §7.6); anything else is
// written as JSON text.
Json string_data(const Json& data) {
  Json out = Json::object();
  if (!data.is_object()) return out;
  for (const auto& [key, value] : data.items()) {
    out[key] = value.is_string() ? value.get<std::string>() : dump_json(value);
  }
  return out;
}

StepOutcome guarded(const std::function<StepOutcome()>& run) {
  try {
    return run();
  } catch (const std::exception& error) {
    return StepOutcome::fail("ACTION_FAILED", error.what());
  }
}

}  // namespace

struct OperatorRuntime::Command {
  std::string package;
  std::string command_id;
  std::string task_id;
  Json actions = Json::array();
  std::size_t next_step = 0;
  Json step_results = Json::array();
  std::optional<std::string> first_failure;
  SteadyTime deadline;
  long long timeout_ms = 0;
  bool faults = false;
  std::string result_session;  // empty: the result is logged
  std::string step_id;
  std::string step_type;
  SteadyTime step_started;
};

OperatorRuntime::OperatorRuntime(AndroidSystem& system) : system_(system), direct_(system) {}

OperatorRuntime::~OperatorRuntime() = default;

bool OperatorRuntime::faults_apply(const std::optional<std::string>& payload) {
  const FaultSpec& faults = system_.scenario().faults;
  if (!has_command_faults(faults)) return false;
  if (!faults.include_probes && is_probe(payload)) return false;
  if (faults.count) {
    if (!faults_left_) faults_left_ = *faults.count;
    if (*faults_left_ <= 0) return false;
    --*faults_left_;
  }
  return true;
}

void OperatorRuntime::receive(const std::string& package, std::optional<std::string> payload,
                              bool faults, std::optional<std::string> result_session) {
  const OperatorBehavior& behavior = system_.scenario().operator_behavior;
  // An older Operator does not know the extra: its result goes to logcat as always.
  if (!behavior.direct_transport) result_session.reset();
  const auto delay = milliseconds(behavior.delivery_delay_ms);
  system_.events().after(delay, [this, package, payload = std::move(payload), faults,
                                 result_session = std::move(result_session)] {
    deliver(package, payload, faults, result_session);
  });
}

void OperatorRuntime::prepare_result_connection(const std::string& package,
                                                const std::optional<std::string>& payload) {
  if (system_.scenario().operator_behavior.direct_transport) direct_.prepare(package, payload);
}

void OperatorRuntime::log(char level, const std::string& message) {
  const int pid = system_.scenario().operator_behavior.pid;
  system_.log_line(pid, pid + 23, level, kTaskScopeTag, message);
}

void OperatorRuntime::deliver(const std::string& package, const std::optional<std::string>& payload,
                              bool faults, const std::optional<std::string>& result_session) {
  if (!payload) {
    log('E', "ACTION_AGENT_COMMAND without a 'payload' extra: ignored");
    return;
  }
  const Json document = Json::parse(*payload, nullptr, false);
  if (!document.is_object()) {
    log('E', "Rejected payload (" + std::to_string(payload->size()) + " bytes): not a JSON object");
    return;
  }
  auto command = std::make_unique<Command>();
  command->package = package;
  command->command_id = string_member(document, "commandId");
  command->task_id = string_member(document, "taskId");
  command->faults = faults;
  command->result_session = result_session.value_or("");
  if (command->command_id.empty()) {
    log('E', "Rejected payload: commandId must be a non-empty string");
    return;
  }
  const auto timeout = document.find("timeoutMs");
  const double timeout_ms =
      timeout != document.end() && timeout->is_number() && std::isfinite(timeout->get<double>())
          ? std::clamp(timeout->get<double>(), 1000.0, 120000.0)
          : kDefaultTimeoutMs;
  command->timeout_ms = std::llround(timeout_ms);
  command->deadline = system_.now() + milliseconds(command->timeout_ms);
  // The payload's size and digest, so that a test can check what arrived byte for byte
  // without the payload itself being logged.
  log('D',
      "[commandId=" + command->command_id + "] received taskId=" + command->task_id + " (" +
          std::to_string(payload->size()) + " bytes, sha256 " + transport::sha256_hex(*payload) +
          ")" +
          (command->result_session.empty() ? "" : " result_session=" + command->result_session));

  if (!system_.accessibility_service_running(package)) {
    log('W', "[commandId=" + command->command_id + "] accessibility service is not running");
    Json envelope = Json::object();
    envelope["commandId"] = command->command_id;
    envelope["taskId"] = command->task_id;
    envelope["status"] = "failed";
    envelope["stepResults"] = Json::array();
    envelope["error"] = "Accessibility service is not available";
    envelope["errorCode"] = "SERVICE_UNAVAILABLE";
    emit(std::move(command), std::move(envelope));
    return;
  }
  const auto actions = document.find("actions");
  if (actions == document.end() || !actions->is_array() || actions->empty()) {
    Json envelope = Json::object();
    envelope["commandId"] = command->command_id;
    envelope["taskId"] = command->task_id;
    envelope["status"] = "failed";
    envelope["stepResults"] = Json::array();
    envelope["error"] = "Invalid payload: actions must be a non-empty array";
    envelope["errorCode"] = "EXECUTION_VALIDATION_FAILED";
    emit(std::move(command), std::move(envelope));
    return;
  }
  command->actions = *actions;
  queue_.push_back(std::move(command));
  if (!running_) start_next();
}

void OperatorRuntime::start_next() {
  if (running_ || queue_.empty()) return;
  running_ = std::move(queue_.front());
  queue_.pop_front();
  const std::uint64_t generation = ++generation_;
  log('I', "[commandId=" + running_->command_id + "] executing " +
               std::to_string(running_->actions.size()) + " action(s)");
  if (system_.now() >= running_->deadline) {
    finish("Command timed out after " + std::to_string(running_->timeout_ms) + " ms",
           std::string("COMMAND_TIMEOUT"));
    return;
  }
  const auto delay = milliseconds(system_.scenario().operator_behavior.action_delay_ms);
  system_.events().after(delay, [this, generation] {
    if (generation == generation_ && running_) run_step();
  });
}

void OperatorRuntime::run_step() {
  Command& command = *running_;
  if (command.next_step >= command.actions.size()) {
    finish(std::nullopt, std::nullopt);
    return;
  }
  const Json& action = command.actions[command.next_step];
  const Json empty = Json::object();
  const Json& params = action.is_object() && action.contains("params") ? action["params"] : empty;
  command.step_id = action.is_object() ? string_member(action, "id") : "";
  command.step_type =
      contract::normalize_action_type(action.is_object() ? string_member(action, "type") : "");
  command.step_started = system_.now();
  ActionContext context;
  context.system = &system_;
  context.operator_package = command.package;
  context.command_id = command.command_id;
  context.pad_snapshot_bytes = system_.scenario().faults.pad_snapshot_bytes;
  context.ui_tree_unavailable = command.faults && system_.scenario().faults.ui_tree_unavailable;
  context.pid = system_.scenario().operator_behavior.pid;
  context.tid = context.pid + 23;
  const std::string type = command.step_type;
  handle(guarded([&] { return start_action(context, type, params); }));
}

void OperatorRuntime::handle(StepOutcome outcome) {
  Command& command = *running_;
  const std::uint64_t generation = generation_;
  if (!outcome.finished) {
    const SteadyTime due = system_.now() + outcome.wait;
    if (due >= command.deadline) {
      system_.events().at(command.deadline, [this, generation] {
        if (generation != generation_ || !running_) return;
        finish("Command timed out after " + std::to_string(running_->timeout_ms) + " ms",
               std::string("COMMAND_TIMEOUT"));
      });
      return;
    }
    auto resume = std::move(outcome.resume);
    system_.events().at(due, [this, generation, resume = std::move(resume)] {
      if (generation != generation_ || !running_) return;
      handle(guarded(resume));
    });
    return;
  }
  record_step(outcome);
  if (!outcome.success && !outcome.continues) {
    finish(std::nullopt, outcome.envelope_error_code);
    return;
  }
  ++command.next_step;
  const auto delay = milliseconds(system_.scenario().operator_behavior.action_delay_ms);
  system_.events().after(delay, [this, generation] {
    if (generation == generation_ && running_) run_step();
  });
}

void OperatorRuntime::record_step(const StepOutcome& outcome) {
  Command& command = *running_;
  Json step = Json::object();
  step["id"] = command.step_id;
  step["actionType"] = command.step_type;
  step["success"] = outcome.success;
  step["data"] = string_data(outcome.data);
  command.step_results.push_back(std::move(step));
  const long long elapsed =
      std::chrono::duration_cast<milliseconds>(system_.now() - command.step_started).count();
  std::string summary = "[commandId=" + command.command_id + "] step " +
                        std::to_string(command.next_step + 1) + "/" +
                        std::to_string(command.actions.size()) + " id=" + command.step_id +
                        " type=" + command.step_type;
  if (outcome.success) {
    log('D', summary + " ok (" + std::to_string(elapsed) + " ms)");
    return;
  }
  const std::string code = outcome.data.value("error", std::string("ACTION_FAILED"));
  log('W', summary + " failed: " + code + " (" + std::to_string(elapsed) + " ms)");
  if (!command.first_failure) {
    command.first_failure =
        "Step " + command.step_id + " (" + command.step_type + ") failed: " + code;
  }
}

void OperatorRuntime::finish(std::optional<std::string> error,
                             std::optional<std::string> error_code) {
  std::unique_ptr<Command> command = std::move(running_);
  ++generation_;
  if (!error) error = command->first_failure;
  Json envelope = Json::object();
  envelope["commandId"] = command->command_id;
  envelope["taskId"] = command->task_id;
  envelope["status"] = error ? "failed" : "success";
  envelope["stepResults"] = command->step_results;
  envelope["error"] = error ? Json(*error) : Json(nullptr);
  if (error_code) envelope["errorCode"] = *error_code;
  ++finished_;
  emit(std::move(command), std::move(envelope));
  const auto delay = milliseconds(system_.scenario().operator_behavior.action_delay_ms);
  system_.events().after(delay, [this] { start_next(); });
}

void OperatorRuntime::emit(std::unique_ptr<Command> command, Json envelope) {
  const FaultSpec& faults = system_.scenario().faults;
  const bool faulty = command->faults;
  log('I', "[commandId=" + command->command_id +
               "] finished: " + envelope.value("status", std::string()));
  if (faulty && faults.never_answer) return;
  std::string json = dump_json(envelope);
  // A truncated document: valid framing around text that is not JSON.
  if (faulty && faults.malformed_envelope) json.pop_back();
  FramingFaults framing;
  if (faulty) {
    framing.bad_checksum = faults.bad_checksum;
    framing.reorder = faults.reorder_chunks;
    framing.duplicate = faults.duplicate_chunk;
    framing.drop = faults.drop_chunk;
    framing.close_stream = faults.close_stream_mid_envelope;
  }
  const milliseconds late(faulty ? faults.answer_late_ms : 0);
  if (!command->result_session.empty()) {
    system_.events().at(system_.now() + late,
                        [this, session = command->result_session, command_id = command->command_id,
                         task_id = command->task_id, line = canonical_result_line(json)] {
                          direct_.deliver(session, command_id, task_id, line);
                        });
    return;
  }
  auto records = std::make_shared<ResultRecords>(
      frame_result(canonical_result_line(json), command->command_id, command->task_id,
                   system_.scenario().operator_behavior.chunk_threshold_bytes, framing));
  const int pid = system_.scenario().operator_behavior.pid;
  // Chunk records go out 1 ms apart, as the Operator's encoder paces them.
  for (std::size_t i = 0; i <= records->messages.size(); ++i) {
    system_.events().at(system_.now() + late + milliseconds(i), [this, records, i, pid] {
      if (records->cut_after && *records->cut_after == i) system_.end_live_readers();
      if (i < records->messages.size()) {
        system_.log_line(pid, pid + 41, 'I', kResultTag, records->messages[i]);
      }
    });
  }
}

}  // namespace clawperator::vdevice::android
