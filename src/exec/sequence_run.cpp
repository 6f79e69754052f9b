#include "clawperator/exec/sequence.hpp"
#include "held_device.hpp"

namespace clawperator::exec {
namespace {

using SequenceClock = std::chrono::steady_clock;

ExecutionReport refused(const contract::HostError& error) {
  return ExecutionReport{contract::to_json(error), contract::exit_code_of(error)};
}

}  // namespace

ExecutionReport run_sequence(const SequenceRequest& request, process::Runner& runner) {
  const auto started = SequenceClock::now();
  const ExecutionRequest& first = request.parts.front();
  ExecutionTrace trace = start_trace(first.execution, first.operator_package);
  adb::AdbClient client(runner, first.adb);
  // Choosing and locking the device is the first payload's work, within its budget.
  if (first.budget) client.set_deadline(started + *first.budget + kResultGrace);
  DeviceLock lock;
  const contract::Outcome<HeldDevice> held =
      hold_device(first, client, lock, runner, trace, first.execution.command_id);
  if (!held) return refused(held.error());

  const std::size_t count = request.parts.size();
  Json done = Json::array();
  bool mutated = false;  // a payload before the current one changed the device
  for (std::size_t index = 0; index < count; ++index) {
    ExecutionRequest part = request.parts[index];
    part.device = held->serial;
    part.lock_token = held->token;
    ExecutionReport report = run_execution(part, runner);
    if (report.exit_code != 0 || report.document.value("ok", false) != true) {
      report.document["details"]["sequence"] = {{"index", index}, {"count", count}};
      report.document["executions"] = std::move(done);
      return after_earlier_effects(std::move(report), mutated);
    }
    if (report.document["disposition"].value("retry", "") != "safe") mutated = true;
    done.push_back(std::move(report.document));
  }
  Json document = Json::object();
  document["ok"] = true;
  document["sequence"] = {{"count", count}};
  document["executions"] = std::move(done);
  document["deviceId"] = held->serial;
  document["disposition"] = {{"delivery", "delivered_verified"},
                             {"retry", mutated ? "unsafe" : "safe"}};
  document["timing"] = {{"totalMs", millis_since(started)}};
  return {std::move(document), 0};
}

}  // namespace clawperator::exec
