#include "readiness.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/contract/execution.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/text.hpp"
#include "dispatch.hpp"

namespace clawperator::exec {
namespace {

using contract::DispatchState;
using contract::HostError;
using contract::Phase;

}  // namespace

std::string new_probe_command_id() {
  // Unpredictable, as every command id the host makes (docs/guardrails.md).
  return "doctor-handshake-" + io::random_hex(16);
}

namespace {

std::string probe_payload(const std::string& command_id) {
  Json payload = Json::object();
  payload["commandId"] = command_id;
  payload["taskId"] = "doctor-handshake";
  payload["source"] = "clawperator-readiness";
  payload["expectedFormat"] = contract::kExpectedFormat;
  payload["timeoutMs"] = 5000;
  payload["actions"] = Json::array({Json{{"id", "h1"}, {"type", "doctor_ping"}}});
  return dump_json(payload);
}

// "true"/"false", absent (unknown) or anything else (malformed).
std::optional<std::optional<bool>> read_flag(const transport::StepResult& step,
                                             const std::string& key) {
  const std::string* value = step.data_value(key);
  if (value == nullptr) return std::make_optional(std::optional<bool>());
  if (*value == "true") return std::make_optional(std::optional<bool>(true));
  if (*value == "false") return std::make_optional(std::optional<bool>(false));
  return std::nullopt;
}

// A probe failure keeps its own code but is a readiness failure of the
// requested command: nothing of it was dispatched.
HostError as_readiness_failure(HostError error, const ExecutionTrace& requested,
                               const ExecutionTrace& probe) {
  HostError out = requested.fail(error.code, error.message);
  for (auto& [key, value] : error.details.items()) {
    if (!out.details.contains(key)) out.details[key] = value;
  }
  out.details["probeTaskId"] = probe.task_id;
  out.hint = error.hint;
  out.signal_exit = error.signal_exit;
  return out;
}

}  // namespace

contract::Outcome<InteractiveState> probe_operator(adb::AdbClient& client,
                                                   const std::string& serial, ResultReader& reader,
                                                   ExecutionTrace& trace,
                                                   const std::string& probe_id,
                                                   std::chrono::milliseconds timeout) {
  ExecutionTrace probe = trace;
  probe.command_id = probe_id;
  probe.task_id = "doctor-handshake";
  probe.earlier_effects = Json::array();
  probe.probe_command_id.reset();
  trace.probe_command_id = probe.command_id;
  trace.probe_dispatch_state = "not_dispatched";

  DispatchOptions options;
  options.result_timeout = timeout;
  const LastAction last_action{"h1", "doctor_ping"};
  auto outcome = dispatch_and_wait(client, serial, reader, probe_payload(probe.command_id), probe,
                                   last_action, options);
  trace.probe_dispatch_state = std::string(contract::to_string(probe.dispatch_state));
  trace.phase = Phase::Readiness;
  trace.dispatch_state = DispatchState::NotDispatched;
  if (!outcome)
    return contract::failed(as_readiness_failure(std::move(outcome).error(), trace, probe));
  const transport::Envelope& envelope = outcome->result.envelope;
  if (envelope.status != "success" || envelope.steps.empty() || !envelope.steps.front().success) {
    Json details = Json::object();
    details["probeTaskId"] = probe.task_id;
    details["probeError"] = envelope.error.value_or("");
    return contract::failed(trace.fail("DEVICE_ACCESSIBILITY_NOT_RUNNING",
                                       "The Operator did not answer the readiness probe: its "
                                       "accessibility service is not running",
                                       details));
  }
  const transport::StepResult& step = envelope.steps.front();
  InteractiveState state;
  const auto screen = read_flag(step, "screen_on");
  const auto locked = read_flag(step, "device_locked");
  const auto unlocked = read_flag(step, "user_unlocked");
  if (!screen || !locked || !unlocked) {
    Json details = Json::object();
    details["probeTaskId"] = probe.task_id;
    return contract::failed(trace.fail(
        "RESULT_ENVELOPE_MALFORMED",
        "The readiness probe answered with values other than \"true\"/\"false\"", details));
  }
  state.screen_on = *screen;
  state.device_locked = *locked;
  state.user_unlocked = *unlocked;
  return state;
}

namespace {

bool asleep(const InteractiveState& state) {
  return state.screen_on == false;
}
bool locked(const InteractiveState& state) {
  return state.device_locked == true || state.user_unlocked == false;
}

}  // namespace

ReadinessCache::ReadinessCache(const io::StateDirectory* directory, const std::string& device_key)
    : directory_(directory), name_("ready-" + device_key) {}

std::optional<std::string> ReadinessCache::fresh_answer() const {
  if (directory_ == nullptr) return std::nullopt;
  auto opened = directory_->open_file(name_, O_RDONLY);
  if (!opened) return std::nullopt;
  const io::StateDirectory::OpenedFile* file = &*opened;
  const struct stat status = file->status;
  // A package name is at most 255 characters; a longer record names nothing we would send.
  char text[256];
  const ssize_t n = status.st_size < static_cast<off_t>(sizeof text)
                        ? ::read(file->fd, text, sizeof text)
                        : ssize_t{0};
  ::close(file->fd);
  const auto written = std::chrono::system_clock::from_time_t(status.st_mtim.tv_sec) +
                       std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           std::chrono::nanoseconds(status.st_mtim.tv_nsec));
  const auto age = std::chrono::system_clock::now() - written;
  if (age < std::chrono::seconds(0) || age >= kReadinessCacheTtl) return std::nullopt;
  return n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string();
}

void ReadinessCache::store(std::string_view answered_package) const {
  if (directory_ != nullptr) directory_->replace_file(name_, answered_package);
}

void ReadinessCache::invalidate() const {
  if (directory_ != nullptr) directory_->remove(name_);
}

contract::Status ensure_interactive(adb::AdbClient& client, const std::string& serial,
                                    ResultReader& reader, ExecutionTrace& trace,
                                    const std::string& probe_id) {
  const std::string base_id = probe_id.empty() ? new_probe_command_id() : probe_id;
  int probes = 0;
  auto next_id = [&] { return ++probes == 1 ? base_id : base_id + "-" + std::to_string(probes); };
  static const char* const kWakeCommands[] = {"cmd power wakeup", "input keyevent KEYCODE_WAKEUP",
                                              "input keyevent KEYCODE_HOME"};
  contract::Outcome<InteractiveState> probe =
      probe_operator(client, serial, reader, trace, next_id());
  if (!probe) return contract::failed(std::move(probe).error());
  Json wake_attempts = Json::array();
  for (const char* wake : kWakeCommands) {
    if (!asleep(*probe)) break;
    const auto woken = adb::run_device_shell(client, serial, {wake, wake});
    Json attempt = Json::object();
    attempt["method"] = wake;
    attempt["exitCode"] = woken ? woken->exit_code : -1;
    wake_attempts.push_back(std::move(attempt));
    // A wake that fails is one attempt less; only an interrupt or a cancellation stops the
    // attempts.
    if (!woken && woken.error().code == "RESULT_TRANSPORT_CANCELLED") {
      return contract::failed(trace.attach(woken.error()));
    }
    std::this_thread::sleep_for(kWakeSettle);
    probe = probe_operator(client, serial, reader, trace, next_id());
    if (!probe) return contract::failed(std::move(probe).error());
  }
  if (asleep(*probe) || locked(*probe)) {
    Json details = Json::object();
    details["wakeAttempts"] = wake_attempts;
    return contract::failed(trace.fail(
        "DEVICE_NOT_INTERACTIVE", "The device is not ready for interactive automation", details));
  }
  return {};
}

std::optional<bool> user_state_unlocked(std::string_view answer) {
  const std::string_view state = trim(answer);
  if (state == "RUNNING_UNLOCKED") return true;
  if (state == "RUNNING_LOCKED" || state == "RUNNING_UNLOCKING") return false;
  return std::nullopt;
}

contract::Status ensure_user_unlocked(adb::AdbClient& client, const std::string& serial,
                                      ExecutionTrace& trace) {
  const auto user =
      adb::run_device_shell(client, serial, {"am get-current-user", "am get-current-user"});
  if (!user) return contract::failed(trace.attach(user.error()));
  const std::string_view id = trim(user->out);
  const bool numeric =
      !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (user->exit_code != 0 || !numeric) return {};  // no such command: unsupported
  const std::string command = "am get-started-user-state " + std::string(id);
  const auto state = adb::run_device_shell(client, serial, {command, "am get-started-user-state"});
  if (!state) return contract::failed(trace.attach(state.error()));
  if (user_state_unlocked(state->out) != std::optional<bool>(false)) return {};
  Json details = Json::object();
  details["userId"] = std::string(id);
  details["userState"] = std::string(trim(state->out));
  return contract::failed(trace.fail("DEVICE_USER_NOT_UNLOCKED",
                                     "User " + std::string(id) +
                                         " has not been unlocked since boot (" +
                                         std::string(trim(state->out)) + "); nothing was sent",
                                     std::move(details)));
}

}  // namespace clawperator::exec
