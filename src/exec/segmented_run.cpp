// A payload under the action policy, in segments (docs/guardrails.md §3): a step a rule could
// match that follows a step which may change the screen or the app in front is judged on the
// screen it will act on, not on the one before step 1. The steps up to it run as one execution,
// the screen is read and the step judged, then the run goes on, all under one device lock; the
// results are merged so that the output is one document, as for any execution.
#include <algorithm>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "held_device.hpp"
#include "phases.hpp"
#include "preflight.hpp"

namespace clawperator::exec {
namespace {

using SegmentClock = std::chrono::steady_clock;

// What the segments that ran so far delivered.
struct SegmentsSoFar {
  Json step_results = Json::array();
  bool mutated = false;  // a step that is not read-only succeeded on the device
  long long dispatch_ms = 0;
  long long result_ms = 0;
  bool verified = true;  // every segment's result was shown to be the Operator's
  long long foreign_lines = 0;
  std::optional<Json> query;  // a query_ui step's parsed result, when one ran
  std::size_t steps = 0;
};

void absorb(SegmentsSoFar& done, Json& document) {
  Json& envelope = document["envelope"];
  for (Json& step : envelope["stepResults"]) {
    if (step.value("success", false) &&
        !contract::is_read_only_action(step.value("actionType", ""))) {
      done.mutated = true;
    }
    done.step_results.push_back(std::move(step));
  }
  const Json& timing = document["timing"];
  done.dispatch_ms += timing.value("dispatchMs", 0LL);
  done.result_ms += timing.value("resultMs", 0LL);
  const Json& authenticity = document["resultAuthenticity"];
  done.verified = done.verified && authenticity.value("verified", false);
  done.foreign_lines += authenticity.value("foreignLines", 0LL);
  if (const auto query = document.find("query"); query != document.end()) done.query = *query;
}

// The one envelope of the whole payload: its command and task ids, every step that ran.
void rename_envelope(Json& envelope, const contract::Execution& execution) {
  envelope["commandId"] = execution.command_id;
  envelope["taskId"] = execution.task_id;
}

// A host error of segment `index` (the policy's refusal, or the execution's own failure): the
// steps that ran before it are in details.envelope, and a refused step is there as failed.
ExecutionReport failed_after(ExecutionReport report, SegmentsSoFar& done,
                             const contract::Execution& execution, const Json& refused_step) {
  if (done.steps == 0) return report;
  Json envelope = Json::object();
  rename_envelope(envelope, execution);
  envelope["status"] = "failed";
  if (!refused_step.is_null()) done.step_results.push_back(refused_step);
  envelope["stepResults"] = std::move(done.step_results);
  report.document["details"]["envelope"] = std::move(envelope);
  return after_earlier_effects(std::move(report), done.mutated);
}

// A refused step as its step result: not sent, the refusal's code and words.
Json refused_step_result(const contract::Execution& execution, const contract::HostError& error) {
  const auto step = error.details.find("step");
  if (step == error.details.end() || !step->contains("index")) return nullptr;
  const std::size_t index = step->at("index").get<std::size_t>();
  if (index >= execution.actions.size()) return nullptr;
  const contract::Action& action = execution.actions[index];
  return {{"id", action.id},
          {"actionType", contract::action_spec(action.type).name},
          {"success", false},
          {"data", {{"error", error.code}, {"message", error.message}}}};
}

contract::Execution slice(const contract::Execution& execution, const policy::Segment& segment,
                          std::size_t number) {
  contract::Execution part = execution;
  part.actions.assign(execution.actions.begin() + static_cast<std::ptrdiff_t>(segment.begin),
                      execution.actions.begin() + static_cast<std::ptrdiff_t>(segment.end));
  // Each segment is its own broadcast: the Operator's result is told apart by its command id,
  // which stays within the payload's 128 characters (docs/payload.md §1).
  if (number > 0) {
    const std::string suffix = "-segment-" + std::to_string(number + 1);
    part.command_id = part.command_id.substr(0, 128 - suffix.size()) + suffix;
  }
  return part;
}

ExecutionReport run_segments(const ExecutionRequest& request, process::Runner& runner,
                             const std::vector<policy::Segment>& segments) {
  const auto started = SegmentClock::now();
  const contract::Execution& execution = request.execution;
  ExecutionTrace trace = start_trace(execution, request.operator_package);
  const auto refuse = [](const contract::HostError& error) {
    return ExecutionReport{contract::to_json(error), contract::exit_code_of(error)};
  };
  adb::AdbClient client(runner, request.adb);
  if (request.budget) client.set_deadline(started + *request.budget + kResultGrace);
  // One lock for every segment and every screen read between them: nothing else may change
  // the screen between a judgement and the step it allowed.
  DeviceLock lock;
  const contract::Outcome<HeldDevice> held =
      hold_device(request, client, lock, runner, trace, execution.command_id);
  if (!held) return refuse(held.error());
  const std::string& serial = held->serial;

  ExecutionRequest part = request;
  part.device = serial;
  part.lock_token = held->token;
  part.policy = nullptr;  // judged here, segment by segment
  part.approval_id.reset();
  part.ask_person = {};
  const ScreenReader read_screen = [&]() {
    return query_screen(part, runner, serial, "policy", part.lock_token);
  };
  PolicyRun run;
  SegmentsSoFar done;
  ExecutionReport last;
  for (std::size_t number = 0; number < segments.size(); ++number) {
    const policy::Segment& segment = segments[number];
    run.steps_before = done.steps > 0;
    if (contract::Status allowed =
            check_policy(request, client, serial, trace, read_screen, segment.judged, run);
        !allowed) {
      return failed_after(refuse(allowed.error()), done, execution,
                          refused_step_result(execution, allowed.error()));
    }
    part.execution = slice(execution, segment, number);
    if (const auto deadline = client.deadline()) {
      // The rest of the caller's budget; the grace is added again by the part itself.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - kResultGrace - SegmentClock::now());
      part.budget = std::max(left, std::chrono::milliseconds(1));
    }
    last = run_phases(part, runner);
    Json& document = last.document;
    if (!document.contains("envelope"))
      return failed_after(std::move(last), done, execution, nullptr);
    if (document.value("ok", false) != true) {
      // The device's own failure: its step indices count from the payload's first step.
      if (auto failed = document.find("failedStep"); failed != document.end()) {
        (*failed)["index"] = failed->value("index", 0) + static_cast<long long>(done.steps);
      }
      Json& results = document["envelope"]["stepResults"];
      Json all = std::move(done.step_results);
      for (Json& step : results) all.push_back(std::move(step));
      results = std::move(all);
      rename_envelope(document["envelope"], execution);
      return after_earlier_effects(std::move(last), done.mutated);
    }
    done.steps += segment.end - segment.begin;
    absorb(done, document);
  }
  Json& document = last.document;
  Json& envelope = document["envelope"];
  rename_envelope(envelope, execution);
  envelope["stepResults"] = std::move(done.step_results);
  document["timing"]["totalMs"] = millis_since(started);
  document["timing"]["dispatchMs"] = done.dispatch_ms;
  document["timing"]["resultMs"] = done.result_ms;
  Json& authenticity = document["resultAuthenticity"];
  if (!done.verified && authenticity.value("verified", false)) {
    authenticity["verified"] = false;
    authenticity["reason"] = "an earlier segment's result could not be verified";
  }
  authenticity["foreignLines"] = done.foreign_lines;
  if (done.query && !document.contains("query")) document["query"] = std::move(*done.query);
  document["policy"] = {{"segments", segments.size()}, {"screenReads", run.screen_reads}};
  io::log_event(io::LogLevel::Info, "policy.segments",
                Json{{"commandId", execution.command_id},
                     {"segments", segments.size()},
                     {"screenReads", run.screen_reads}});
  return last;
}

}  // namespace

ExecutionReport run_under_policy(const ExecutionRequest& request, process::Runner& runner) {
  const std::vector<policy::Segment> segments =
      policy::plan_segments(*request.policy, request.execution);
  if (segments.size() == 1) return run_phases(request, runner);
  return run_segments(request, runner, segments);
}

}  // namespace clawperator::exec
