// `clawperator skills run ID [--expect-contains TEXT] [--skip-validate] [--timeout MS] [-- ARGS]`
// (docs/skills.md, "Running a skill"): the request of skills::run_skill from the flags, the
// script's output streamed live under --output pretty.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "clawperator/process/interrupt.hpp"
#include "clawperator/skills/skill_run.hpp"
#include "command_skills.hpp"

namespace clawperator::cli {
namespace {

// Everything the script writes goes through, whatever became of our reader: a closed pipe
// (EPIPE, SIGPIPE being ignored) only ends the echo, never the run.
void echo_script_output(skills::OutputStream stream, std::string_view bytes) {
  const int fd = stream == skills::OutputStream::Stdout ? STDOUT_FILENO : STDERR_FILENO;
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

}  // namespace

CommandResult run_skill_call(const SkillRunCall& call, const process::CancelToken& cancel) {
  const auto timeout = skills::parse_skill_timeout(call.timeout);
  if (!timeout) return failure(timeout.error());
  const auto registry = skills::load_registry(
      skills::locate_registry(skills::process_registry_lookup(call.registry)));
  if (!registry) return failure(registry.error());
  skills::SkillRunRequest request;
  request.skill_id = call.skill_id;
  request.script_args = call.script_args;
  request.expect_contains = call.expect_contains;
  request.skip_validate = call.skip_validate;
  request.timeout = *timeout;
  if (call.stream_output) request.on_output = echo_script_output;
  request.device.device = call.device;
  request.device.operator_package = call.operator_package;
  request.device.adb = call.adb;
  request.device.lock_wait_ms = call.lock_wait_ms;
  request.device.state = call.state;
  request.device.lock_token = call.lock_token;
  request.guard = call.guard;
  const auto runner = process::make_system_runner(cancel);
  skills::SkillRunReport report = skills::run_skill(*registry, request, *runner);
  return {std::move(report.document), report.exit_code};
}

CommandResult run_skills_run(const SkillsFlags& flags, const GlobalOptions& options) {
  if (flags.target.empty()) {
    return failure(contract::usage_error(
        "USAGE",
        "skills run requires a skill id: skills run <skill_id> [--expect-contains <text>] "
        "[--skip-validate] [--timeout <ms>] [-- <script args>]"));
  }
  // Ctrl-C or SIGTERM: the script's group is stopped and reaped, the JSON error still printed.
  process::install_interrupt_handlers();
  // The policy the script's own calls will load: one that does not load refuses the run here,
  // before the device is touched, as it refuses an exec.
  auto policy = load_action_policy(options);
  if (!policy) return failure(policy.error());
  SkillRunCall call;
  call.guard = script_guard(options, *policy);
  call.skill_id = flags.target;
  // As the original: the global --device value first, when one was given.
  if (options.device_explicit && options.device) call.script_args.push_back(*options.device);
  call.script_args.insert(call.script_args.end(), flags.script_args.begin(),
                          flags.script_args.end());
  call.expect_contains = flags.expect_contains;
  call.skip_validate = flags.skip_validate;
  call.timeout = options.timeout;
  call.device = options.device;
  call.operator_package = options.operator_package;
  call.adb = adb_settings(options);
  call.state = state_directory_for_run();
  call.lock_wait_ms = options.lock_wait_ms;
  call.registry = flags.registry;
  call.stream_output = options.output == OutputFormat::Pretty;
  if (const char* token = std::getenv("CLAWPERATOR_DEVICE_LOCK_TOKEN")) call.lock_token = token;
  return run_skill_call(call, {});
}

}  // namespace clawperator::cli
