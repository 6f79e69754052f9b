// `skills run` (docs/skills.md, "Running a skill"): the skill's script chosen and checked, the
// validation gate, the device prepared and locked as `exec` would, then the script run under a
// deadline with its output captured (bounded) or streamed, and its result line read. One core
// for the CLI, the HTTP server and MCP: each fills a SkillRunRequest and prints the document.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/skills/registry.hpp"
#include "clawperator/skills/script_guard.hpp"
#include "clawperator/skills/skill_validation.hpp"

namespace clawperator::skills {

inline constexpr std::chrono::milliseconds kDefaultSkillTimeout{120000};
inline constexpr std::chrono::milliseconds kMaxSkillTimeout{86400000};
// After the deadline (or an interrupt): SIGTERM to the script's process group, this long for it
// to exit, then SIGKILL to the group.
inline constexpr std::chrono::milliseconds kSkillTerminateGrace{2000};

// --timeout's raw text as a script deadline: a whole number of milliseconds in
// 1..kMaxSkillTimeout; absent: kDefaultSkillTimeout. EXECUTION_VALIDATION_FAILED
// (details.path "timeoutMs") otherwise.
contract::Outcome<std::chrono::milliseconds> parse_skill_timeout(
    const std::optional<std::string>& raw);

enum class OutputStream { Stdout, Stderr };
// Called with each chunk as it arrives (live streaming: the CLI's --output pretty, an SSE
// stream); from the thread that called run_skill.
using OutputCallback = std::function<void(OutputStream, std::string_view)>;
// The dry-run validation gate (`skills validate --dry-run`), run before anything else touches
// the device; its failure is the run's. Empty: the registry entry and the script are checked
// only.
using ValidationGate = std::function<contract::Status(const Registry&, const SkillEntry&)>;

struct SkillRunRequest {
  std::string skill_id;
  // Passed to the script after its path, verbatim. The CLI puts the global --device value
  // first when one was given, as the original does.
  std::vector<std::string> script_args;
  std::optional<std::string> expect_contains;
  bool skip_validate = false;
  // Default: skills validate --dry-run (skill_validation.hpp); tests may put their own.
  ValidationGate validation_gate = validate_before_run;
  std::chrono::milliseconds timeout = kDefaultSkillTimeout;
  OutputCallback on_output;
  // The device: which one, the Operator package, adb, the lock wait, the state directory. Its
  // session_id and task_id are filled in by run_skill.
  exec::ScriptDeviceRequest device;
  // CLAWPERATOR_BIN for the script; empty: this executable (/proc/self/exe).
  std::string clawperator_bin;
  std::chrono::milliseconds terminate_grace = kSkillTerminateGrace;
  ScriptGuard guard;
};

struct SkillRunReport {
  Json document;  // the success document (ok: true …) or the error object
  int exit_code = 0;
};

// The whole run. Before the script is spawned: SKILL_NOT_FOUND, SKILL_SCRIPT_NOT_FOUND,
// SKILL_VALIDATION_FAILED (a path leaving the repository), HOST_DEPENDENCY_MISSING (no node for
// a .js script), the gate's error, then the device's (EXECUTION_CONFLICT_IN_FLIGHT,
// OPERATOR_NOT_INSTALLED, DEVICE_NOT_INTERACTIVE …). After: SKILL_EXECUTION_FAILED,
// SKILL_EXECUTION_TIMEOUT, SKILL_RESULT_PARSE_FAILED, SKILL_OUTPUT_ASSERTION_FAILED, or
// RESULT_TRANSPORT_CANCELLED (130/143) when interrupted or `runner`'s token was cancelled.
SkillRunReport run_skill(const Registry& registry, const SkillRunRequest& request,
                         process::Runner& runner);

// The script run_skill would choose for `skill` (the first .js, else the first .sh, else the
// first), resolved inside the repository, and the argv that runs it (node for .js).
struct ScriptLaunch {
  std::filesystem::path script;
  std::vector<std::string> argv;  // without the script arguments
};
contract::Outcome<ScriptLaunch> choose_script(const Registry& registry, const SkillEntry& skill);

// The script part alone, on a device already prepared (`device_id`, the lock `lock_token`):
// spawns `argv` with `environment` ("NAME=VALUE" over the inherited one) and reports as
// run_skill does. `fields` (skillId, registry fields …) lead the document.
struct ScriptRun {
  std::string skill_id;
  std::vector<std::string> argv;
  std::vector<std::string> environment;
  std::string device_id;
  Json fields = Json::object();
};
SkillRunReport run_script(const ScriptRun& run, const SkillRunRequest& request,
                          process::Runner& runner);

}  // namespace clawperator::skills
