#include "clawperator/skills/skill_run.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/skills/script_output.hpp"

namespace clawperator::skills {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using contract::DispatchState;
using contract::HostError;
using contract::Phase;
using std::chrono::milliseconds;

// How often the run loop looks at the deadline while the script is silent.
constexpr milliseconds kSkillRunPollSlice{250};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The first executable `name` in PATH (never a shell's lookup: the same rule posix_spawnp uses).
std::optional<fs::path> executable_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const std::size_t colon = rest.find(':');
    const std::string_view entry = rest.substr(0, colon);
    const fs::path candidate = fs::path(entry.empty() ? "." : std::string(entry)) / name;
    struct stat status {};
    if (::stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

// CLAWPERATOR_BIN: the `clawperator` beside us. Inside `serve` this process is
// clawperator-serve (the same CLI with the HTTP server linked in, src/serve/main.cpp), which a
// script should not pay for at every call: its sibling `clawperator` is used when it is there.
std::string own_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return "clawperator";
  if (self.filename() == "clawperator-serve") {
    const fs::path sibling = self.parent_path() / "clawperator";
    if (::access(sibling.c_str(), X_OK) == 0) return sibling.string();
  }
  return self.string();
}

HostError script_not_found(const SkillEntry& skill, std::string message, Json details) {
  details["skillId"] = skill.id;
  return contract::validation_error("SKILL_SCRIPT_NOT_FOUND", std::move(message),
                                    std::move(details));
}

// What every outcome document of a started script says about the run.
struct RunFacts {
  int exit_code = -1;
  int signal = 0;
  long long duration_ms = 0;
  std::string stdout_text, stderr_text;
  bool stdout_truncated = false, stderr_truncated = false;
  std::uint64_t stdout_bytes = 0, stderr_bytes = 0;
  Json skill_result;  // null when the script printed no (readable) result line
};

void add_run_facts(Json& out, const ScriptRun& run, const SkillRunRequest& request,
                   const RunFacts& facts, bool as_output) {
  out["skillId"] = run.skill_id;
  for (const auto& [key, value] : run.fields.items()) out[key] = value;
  out["deviceId"] = run.device_id;
  // The script's output under the same keys whatever the outcome, so that one parser reads
  // them all; `output` is the original's name for stdout on success and on the assertion and
  // parse failures (shared/reference: recording-skills-emulator.md §2.6), kept there as a
  // deprecated alias (docs/compatibility.md).
  out["stdout"] = facts.stdout_text;
  if (as_output) out["output"] = facts.stdout_text;
  out["stderr"] = facts.stderr_text;
  // A truncated capture is not the document the script printed: never parsed.
  out["outputJson"] =
      facts.stdout_truncated ? Json(nullptr) : script_output_json(facts.stdout_text);
  out["exitCode"] = facts.exit_code;
  if (facts.signal != 0) out["signal"] = facts.signal;
  out["durationMs"] = facts.duration_ms;
  out["timeoutMs"] = request.timeout.count();
  if (request.expect_contains) out["expectedSubstring"] = *request.expect_contains;
  out["skillResult"] = facts.skill_result;
  out["stdoutTruncated"] = facts.stdout_truncated;
  out["stderrTruncated"] = facts.stderr_truncated;
  out["stdoutBytes"] = facts.stdout_bytes;
  out["stderrBytes"] = facts.stderr_bytes;
}

SkillRunReport report_of(const HostError& error) {
  return {contract::to_json(error), contract::exit_code_of(error)};
}

// An error after the script started: the run's facts top-level (the original's shape), the
// small ones in details too.
SkillRunReport run_failure(HostError error, const ScriptRun& run, const SkillRunRequest& request,
                           const RunFacts& facts, bool as_output = false) {
  error.actions = {true, false};
  add_run_facts(error.top_level, run, request, facts, as_output);
  error.details["skillId"] = run.skill_id;
  error.details["deviceId"] = run.device_id;
  error.details["exitCode"] = facts.exit_code;
  if (facts.signal != 0) error.details["signal"] = facts.signal;
  return report_of(error);
}

// Delivered but not verified (exit 4): the script may have acted, nothing says what it did.
HostError unverified_error(std::string code, std::string message) {
  HostError error = contract::make_error(Phase::ResultWait, std::move(code), std::move(message));
  error.dispatch_state = DispatchState::Dispatched;
  return error;
}

void write_chunk(const SkillRunRequest& request, OutputStream stream, std::string_view bytes) {
  if (request.on_output && !bytes.empty()) request.on_output(stream, bytes);
}

}  // namespace

contract::Outcome<milliseconds> parse_skill_timeout(const std::optional<std::string>& raw) {
  if (!raw) return kDefaultSkillTimeout;
  Json details = Json::object();
  details["path"] = "timeoutMs";
  const std::optional<double> value = contract::parse_milliseconds(*raw);
  if (!value) {
    return contract::failed(contract::validation_error(
        "EXECUTION_VALIDATION_FAILED", "timeoutMs must be a finite number", std::move(details)));
  }
  if (*value < 1 || *value > static_cast<double>(kMaxSkillTimeout.count()) ||
      std::floor(*value) != *value) {
    return contract::failed(
        contract::validation_error("EXECUTION_VALIDATION_FAILED",
                                   "timeoutMs must be a whole number of milliseconds from 1 to " +
                                       std::to_string(kMaxSkillTimeout.count()) + " for skills run",
                                   std::move(details)));
  }
  return milliseconds(static_cast<long long>(*value));
}

contract::Outcome<ScriptLaunch> choose_script(const Registry& registry, const SkillEntry& skill) {
  if (skill.scripts.empty()) {
    return contract::failed(
        script_not_found(skill, "Skill " + skill.id + " has no scripts defined", Json::object()));
  }
  const auto first_with = [&](std::string_view suffix) -> const std::string* {
    for (const std::string& script : skill.scripts) {
      if (ends_with(script, suffix)) return &script;
    }
    return nullptr;
  };
  const std::string* chosen = first_with(".js");
  if (chosen == nullptr) chosen = first_with(".sh");
  if (chosen == nullptr) chosen = &skill.scripts.front();
  CLAWPERATOR_TRY_ASSIGN(auto resolved, resolve_inside(registry, *chosen, "scripts"));
  std::error_code error;
  if (!fs::is_regular_file(resolved, error)) {
    Json details = Json::object();
    details["scriptPath"] = resolved.string();
    return contract::failed(
        script_not_found(skill, "Script not found: " + resolved.string(), std::move(details)));
  }
  ScriptLaunch launch;
  launch.script = resolved;
  if (ends_with(*chosen, ".js")) {
    const std::optional<fs::path> node = executable_on_path("node");
    if (!node) {
      Json details = Json::object();
      details["dependencies"] = Json::array({"node"});
      details["skillId"] = skill.id;
      details["scriptPath"] = resolved.string();
      return contract::failed(contract::readiness_error(
          "HOST_DEPENDENCY_MISSING",
          "Skill " + skill.id + " has a JavaScript script and node is not on PATH",
          std::move(details)));
    }
    launch.argv = {node->string(), resolved.string()};
  } else {
    launch.argv = {resolved.string()};
  }
  return launch;
}

SkillRunReport run_script(const ScriptRun& run, const SkillRunRequest& request,
                          process::Runner& runner) {
  const auto started = Clock::now();
  io::log_event(io::LogLevel::Info, "skills.run.start",
                Json{{"skillId", run.skill_id},
                     {"deviceId", run.device_id},
                     {"timeoutMs", request.timeout.count()},
                     {"argumentCount", request.script_args.size()}});
  RunFacts facts;
  const auto elapsed = [&] {
    return std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
  };
  process::StreamSpec spec;
  spec.argv = run.argv;
  spec.argv.insert(spec.argv.end(), request.script_args.begin(), request.script_args.end());
  spec.environment = run.environment;
  spec.terminate_grace = request.terminate_grace;
  process::Started spawned = runner.start(spec);
  if (!spawned) {
    const int spawn_errno = spawned.error().code;
    facts.duration_ms = elapsed();
    if (spawn_errno == ECANCELED) {
      HostError error = contract::interrupted_error("Interrupted before the skill's script started",
                                                    process::interrupted_signal());
      return run_failure(std::move(error), run, request, facts);
    }
    HostError error = contract::readiness_error(
        "SKILL_EXECUTION_FAILED", "Skill " + run.skill_id + " could not be started: " +
                                      std::string(std::strerror(spawn_errno)));
    error.details["errno"] = spawn_errno;
    error.details["scriptPath"] = run.argv.back();
    io::log_event(io::LogLevel::Error, "skills.run.failed",
                  Json{{"skillId", run.skill_id}, {"reason", "spawn"}, {"errno", spawn_errno}});
    return run_failure(std::move(error), run, request, facts);
  }
  std::unique_ptr<process::Stream> stream = std::move(*spawned);

  BoundedCapture out, err;
  StreamingSearch search(request.expect_contains.value_or(""));
  SkillResultScanner results;
  const auto deadline = started + request.timeout;
  bool timed_out = false;
  bool cancelled = false;
  process::StreamEvent event;
  const auto take = [&](const process::StreamEvent& got) {
    if (!got.out.empty()) {
      out.append(got.out);
      search.feed(got.out);
      results.feed(got.out);
      write_chunk(request, OutputStream::Stdout, got.out);
    }
    if (!got.err.empty()) {
      err.append(got.err);
      write_chunk(request, OutputStream::Stderr, got.err);
    }
  };
  while (true) {
    const auto now = Clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - now) + milliseconds(1);
    event = stream->wait(std::min(left, kSkillRunPollSlice));
    take(event);
    if (event.exited) break;
    if (event.cancelled) {
      cancelled = true;
      break;
    }
  }
  if (timed_out) {
    // SIGTERM to the group; what it writes while it cleans up (within the grace) is kept, up to
    // the same bounds, since that is what says why it was slow (docs/skills.md, "The deadline
    // and interrupts"). Then SIGKILL to the group, reaped: nothing it started stays.
    stream->begin_terminate();
    const auto grace_end = Clock::now() + request.terminate_grace;
    while (!event.exited) {
      const auto now = Clock::now();
      if (now >= grace_end) break;
      event = stream->wait(
          std::min(std::chrono::duration_cast<milliseconds>(grace_end - now) + milliseconds(1),
                   kSkillRunPollSlice));
      take(event);
      // An interrupt now ends the grace: it stops the group at once, as it would have.
      if (event.cancelled) break;
    }
  }
  if (timed_out || cancelled) {
    stream->terminate();
    event = stream->wait(milliseconds::zero());
  }
  results.finish();
  facts.exit_code = event.exit_code;
  facts.signal = event.signal;
  facts.duration_ms = elapsed();
  facts.stdout_text = out.text();
  facts.stderr_text = err.text();
  facts.stdout_truncated = out.truncated();
  facts.stderr_truncated = err.truncated();
  facts.stdout_bytes = out.total_bytes();
  facts.stderr_bytes = err.total_bytes();
  const std::optional<SkillResultScanner::Line>& line = results.last();
  if (line && line->error.empty()) facts.skill_result = line->value;

  if (cancelled) {
    const int signal = process::interrupted_signal();
    HostError error = contract::interrupted_error(
        "Interrupted while skill " + run.skill_id + " ran; its script was stopped", signal);
    // It ran: what it did is not known (exit 130/143 all the same).
    error.phase = Phase::ResultWait;
    error.dispatch_state = DispatchState::Dispatched;
    io::log_event(io::LogLevel::Error, "skills.run.failed",
                  Json{{"skillId", run.skill_id}, {"reason", "interrupted"}, {"signal", signal}});
    return run_failure(std::move(error), run, request, facts);
  }
  if (timed_out) {
    io::log_event(io::LogLevel::Error, "skills.run.timeout",
                  Json{{"skillId", run.skill_id},
                       {"timeoutMs", request.timeout.count()},
                       {"signal", facts.signal}});
    HostError error = unverified_error("SKILL_EXECUTION_TIMEOUT",
                                       "Skill " + run.skill_id + " timed out after " +
                                           std::to_string(request.timeout.count()) + "ms");
    error.details["timeoutMs"] = request.timeout.count();
    return run_failure(std::move(error), run, request, facts);
  }
  if (facts.signal != 0 || facts.exit_code != 0) {
    io::log_event(
        io::LogLevel::Error, "skills.run.failed",
        Json{{"skillId", run.skill_id}, {"exitCode", facts.exit_code}, {"signal", facts.signal}});
    io::log_event(io::LogLevel::Info, "skills.run.complete",
                  Json{{"skillId", run.skill_id},
                       {"exitCode", facts.exit_code},
                       {"durationMs", facts.duration_ms}});
    const std::string how = facts.signal != 0
                                ? "was killed by signal " + std::to_string(facts.signal)
                                : "exited with code " + std::to_string(facts.exit_code);
    HostError error = contract::make_error(Phase::PostProcessing, "SKILL_EXECUTION_FAILED",
                                           "Skill " + run.skill_id + " " + how);
    error.dispatch_state = DispatchState::Dispatched;
    if (line && !line->error.empty()) error.details["skillResultError"] = line->error;
    return run_failure(std::move(error), run, request, facts);
  }
  io::log_event(
      io::LogLevel::Info, "skills.run.complete",
      Json{{"skillId", run.skill_id}, {"exitCode", 0}, {"durationMs", facts.duration_ms}});
  if (line && !line->error.empty()) {
    HostError error =
        unverified_error("SKILL_RESULT_PARSE_FAILED",
                         "Skill " + run.skill_id + " printed a " + std::string(kSkillResultMarker) +
                             " line that " + "cannot be read: " + line->error);
    error.details["line"] = line->line_number;
    error.details["reason"] = line->error;
    return run_failure(std::move(error), run, request, facts, true);
  }
  if (!search.found()) {
    HostError error =
        contract::make_error(Phase::PostProcessing, "SKILL_OUTPUT_ASSERTION_FAILED",
                             "Skill " + run.skill_id + " output did not include expected text");
    error.dispatch_state = DispatchState::Dispatched;
    return run_failure(std::move(error), run, request, facts, true);
  }
  Json document = Json::object();
  document["ok"] = true;
  add_run_facts(document, run, request, facts, true);
  return {std::move(document), contract::exit_code::kSuccess};
}

std::vector<std::string> guard_environment(const ScriptGuard& guard) {
  std::vector<std::string> variables = {
      // An empty CLAWPERATOR_POLICY means "unset" (policy/policy_file.cpp): the script then
      // finds what this process found, the default file or nothing.
      "CLAWPERATOR_POLICY=" + (guard.policy_file ? guard.policy_file->string() : std::string()),
      std::string("CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT=") +
          (guard.require_authentic_result ? "1" : "0"),
      "CLAWPERATOR_RESULT_TRANSPORT=" + guard.result_transport,
      "CLAWPERATOR_CONFIRMATION=withhold"};
  return variables;
}

SkillRunReport run_skill(const Registry& registry, const SkillRunRequest& request,
                         process::Runner& runner) {
  const SkillEntry* skill = registry.find(request.skill_id);
  if (skill == nullptr) return report_of(skill_not_found(registry, request.skill_id));
  auto launch = choose_script(registry, *skill);
  if (!launch) {
    HostError error = std::move(launch).error();
    add_registry_fields(error.details, registry);
    return report_of(error);
  }
  if (!request.skip_validate && request.validation_gate) {
    if (contract::Status valid = request.validation_gate(registry, *skill); !valid) {
      return report_of(valid.error());
    }
  }

  exec::ScriptDeviceRequest device = request.device;
  const auto stamp =
      std::chrono::duration_cast<milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  device.session_id = "skill-run-" + std::to_string(::getpid()) + "-" + std::to_string(stamp);
  device.task_id = skill->id;
  auto session = exec::prepare_device_for_script(device, runner);
  if (!session) {
    HostError error = std::move(session).error();
    error.details["skillId"] = skill->id;
    io::log_event(io::LogLevel::Info, "skills.run.failed",
                  Json{{"skillId", skill->id}, {"code", error.code}, {"reason", "device"}});
    return report_of(error);
  }

  ScriptRun run;
  run.skill_id = skill->id;
  run.argv = launch->argv;
  run.device_id = session->serial;
  add_registry_fields(run.fields, registry);
  run.fields["scriptPath"] = launch->script.string();
  const std::string bin =
      request.clawperator_bin.empty() ? own_executable() : request.clawperator_bin;
  run.environment = {"CLAWPERATOR_BIN=" + bin,
                     "CLAWPERATOR_OPERATOR_PACKAGE=" + device.operator_package,
                     "CLAWPERATOR_DEVICE_ID=" + session->serial,
                     // The script's own clawperator and adb calls reach the same device.
                     "ANDROID_SERIAL=" + session->serial, "CLAWPERATOR_SKILL_ID=" + skill->id,
                     "ADB=" + device.adb.executable};
  for (std::string& variable : guard_environment(request.guard)) {
    run.environment.push_back(std::move(variable));
  }
  if (!session->lock_token.empty()) {
    run.environment.push_back("CLAWPERATOR_DEVICE_LOCK_TOKEN=" + session->lock_token);
  }
  if (device.adb.server_host) {
    // --adb-server: the same server for the script's calls, in adb's own variable.
    if (auto endpoint = adb::resolve_server_endpoint(device.adb, adb::raw_process_environment)) {
      run.environment.push_back("ADB_SERVER_SOCKET=" + endpoint->spec);
    }
  }
  return run_script(run, request, runner);
}

}  // namespace clawperator::skills
