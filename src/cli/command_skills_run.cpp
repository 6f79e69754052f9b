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

CommandResult run_skills_run(const SkillsFlags& flags, const GlobalOptions& options) {
  if (flags.target.empty()) {
    return failure(contract::usage_error(
        "USAGE",
        "skills run requires a skill id: skills run <skill_id> [--expect-contains <text>] "
        "[--skip-validate] [--timeout <ms>] [-- <script args>]"));
  }
  const auto timeout = skills::parse_skill_timeout(options.timeout);
  if (!timeout) return failure(timeout.error());
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());

  // Ctrl-C or SIGTERM: the script's group is stopped and reaped, the JSON error still printed.
  process::install_interrupt_handlers();
  skills::SkillRunRequest request;
  request.skill_id = flags.target;
  if (options.device_explicit && options.device) request.script_args.push_back(*options.device);
  request.script_args.insert(request.script_args.end(), flags.script_args.begin(),
                             flags.script_args.end());
  request.expect_contains = flags.expect_contains;
  request.skip_validate = flags.skip_validate;
  request.timeout = *timeout;
  if (options.output == OutputFormat::Pretty) request.on_output = echo_script_output;
  request.device.device = options.device;
  request.device.operator_package = options.operator_package;
  request.device.adb = adb_settings(options);
  request.device.lock_wait_ms = options.lock_wait_ms;
  request.device.state = state_directory_for_run();
  if (const char* token = std::getenv("CLAWPERATOR_DEVICE_LOCK_TOKEN")) {
    request.device.lock_token = token;
  }
  const auto runner = process::make_system_runner();
  skills::SkillRunReport report = skills::run_skill(*registry, request, *runner);
  return {std::move(report.document), report.exit_code};
}

}  // namespace clawperator::cli
