// `clawperator skills run ID [--expect-contains TEXT] [--skip-validate] [--timeout MS] [-- ARGS]`
// (docs/skills.md, "Running a skill"): the request of skills::run_skill from the flags, the
// script's output streamed live under --output pretty.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "clawperator/cli/session.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/skills.hpp"
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
  // Ctrl-C or SIGTERM: the script's group is stopped and reaped, the JSON error still printed.
  process::install_interrupt_handlers();
  // The policy the script's own calls will load: one that does not load refuses the run here,
  // before the device is touched, as it refuses an exec.
  auto policy = load_action_policy(options);
  if (!policy) return failure(policy.error());
  const auto timeout = skills::parse_skill_timeout(options.timeout);
  if (!timeout) return failure(timeout.error());
  service::Session session = session_of(options, std::move(*policy));
  session.skills_registry = flags.registry;
  service::SkillRun run;
  run.skill_id = flags.target;
  // As the original: the global --device value first, when one was given.
  if (options.device_explicit && options.device) run.arguments.args.push_back(*options.device);
  run.arguments.args.insert(run.arguments.args.end(), flags.script_args.begin(),
                            flags.script_args.end());
  run.arguments.expect_contains = flags.expect_contains;
  run.arguments.skip_validate = flags.skip_validate;
  run.arguments.timeout_ms = timeout->count();
  if (options.output == OutputFormat::Pretty) run.on_output = echo_script_output;
  skills::SkillRunReport report = service::run_skill(session, run, {});
  if (run.on_output) {
    // The output was written as it came: the document does not print it a second time (the
    // byte counts and truncation flags say how much there was).
    for (const char* key : {"stdout", "output", "stderr", "outputJson"}) {
      report.document.erase(key);
    }
  }
  return {std::move(report.document), report.exit_code};
}

}  // namespace clawperator::cli
