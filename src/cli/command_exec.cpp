// `exec`: validate a payload, plan it, or run it on a device.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/execution_output.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/session.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/payload_input.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/path_values.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/skills/artifact_compiler.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

struct ExecFlags {
  std::string positional;
  std::string payload;
  std::string execution;
  bool validate_only = false;
  bool dry_run = false;
  // The shortcut for `skills compile-artifact` then exec (docs/skills.md).
  std::string skill;
  std::string artifact;
  std::optional<std::string> vars;
};

constexpr const char* kMissingPayload =
    "exec requires a payload. Use: clawperator exec <json-or-file> "
    "(or --payload <json-or-file>, or - to read stdin)";

}  // namespace

io::StateSelection state_directory_for_run() {
  io::StateSelection selection =
      io::select_state_directory(io::process_state_environment(), ::geteuid());
  if (!selection.warning.empty()) io::emit_warning(selection.warning);
  return selection;
}

exec::ResultTransport result_transport(const GlobalOptions& options) {
  // global_options.cpp has checked the value: one of these three.
  if (options.result_transport == "direct") return exec::ResultTransport::Direct;
  if (options.result_transport == "auto") return exec::ResultTransport::Auto;
  return exec::ResultTransport::Logcat;
}

contract::Outcome<DeviceRun> prepare_device_run(const GlobalOptions& options) {
  // Ctrl-C now means: stop the children, reap them, still print the JSON error.
  process::install_interrupt_handlers();
  CLAWPERATOR_TRY_ASSIGN(auto policy, load_action_policy(options));
  DeviceRun run{session_of(options, std::move(policy)), options.confirm_id, {}, ""};
  // The controlling terminal is looked at only when a policy could ask (nothing new on a run
  // without one), and never for a skill's script (CLAWPERATOR_CONFIRMATION=withhold).
  if (run.session.policy && !options.withhold_confirmation) {
    run.ask_person = terminal_confirmation();
    if (run.ask_person) run.ask_person_through = "terminal";
  }
  return run;
}

namespace {

// A payload or a sequence (`run` the service's runner of its kind), with the approval and the
// person of the command line.
template <typename Call, typename Run>
CommandResult run_call(Call call, const GlobalOptions& options, Run run) {
  auto session = prepare_device_run(options, call);
  if (!session) return failure(session.error());
  const auto runner = process::make_system_runner();
  exec::ExecutionReport report = run(*session, std::move(call), *runner);
  return {std::move(report.document), report.exit_code};
}

}  // namespace

CommandResult run_on_device(contract::Execution execution, const GlobalOptions& options) {
  service::ExecutionCall call;
  call.execution = std::move(execution);
  return run_call(std::move(call), options, [](const auto& session, auto made, auto& runner) {
    return service::run_execution(session, std::move(made), runner);
  });
}

CommandResult run_sequence_on_device(contract::Sequence sequence, const GlobalOptions& options) {
  service::SequenceCall call;
  call.sequence = std::move(sequence);
  return run_call(std::move(call), options, [](const auto& session, auto made, auto& runner) {
    return service::run_sequence(session, std::move(made), runner);
  });
}

namespace {

// exec --skill ID --artifact NAME [--vars JSON]: the compiled artifact takes the payload's place.
CommandResult run_exec_skill(const ExecFlags& flags, const GlobalOptions& options) {
  if (!flags.payload.empty() || !flags.execution.empty() || !flags.positional.empty()) {
    return failure(contract::usage_error(
        "USAGE", "exec takes a payload or --skill with --artifact, not both"));
  }
  if (flags.skill.empty() || flags.artifact.empty()) {
    contract::HostError error = contract::usage_error(
        "USAGE",
        "exec --skill needs --artifact too: exec --skill <skill_id> --artifact <name> "
        "[--vars <json>]");
    error.top_level["example"] =
        "clawperator exec --skill com.android.settings.open-entry --artifact open-entry "
        "--vars '{\"ENTRY_TEXT\":\"Display\"}' --validate-only";
    return failure(error);
  }
  const auto registry =
      skills::load_registry(skills::locate_registry(skills::process_registry_lookup(std::nullopt)));
  if (!registry) {
    contract::HostError error = registry.error();
    // exec takes no --registry (the catalog's hint names it for the skills commands).
    if (error.code == "REGISTRY_READ_FAILED") {
      error.hint = contract::hint_text(contract::HintId::ExecSkillRegistryMissing, {});
    }
    return failure(error);
  }
  auto compiled =
      skills::compile_artifact(*registry, {flags.skill, flags.artifact, flags.vars.value_or("{}")});
  if (!compiled) return failure(compiled.error());
  contract::Execution& valid = compiled->execution;
  if (options.timeout) {
    if (auto status = contract::apply_timeout_override(valid, *options.timeout); !status) {
      return failure(status.error());
    }
    // The compiled payload was within the limit; its new timeoutMs may not be.
    if (auto status = contract::check_payload_size(valid); !status) return failure(status.error());
  }
  return finish_execution(std::move(valid), execution_mode(flags.validate_only, flags.dry_run),
                          options);
}

CommandResult run_exec(const ExecFlags& flags, const GlobalOptions& options) {
  if (!flags.skill.empty() || !flags.artifact.empty() || flags.vars) {
    return run_exec_skill(flags, options);
  }
  int sources = 0;
  for (const std::string* source : {&flags.payload, &flags.execution, &flags.positional}) {
    if (!source->empty()) ++sources;
  }
  if (sources > 1) {
    return failure(contract::usage_error(
        "USAGE",
        "exec takes one payload: pass it as an argument, with --payload or with "
        "--execution, not several"));
  }
  const std::string& argument = !flags.payload.empty()     ? flags.payload
                                : !flags.execution.empty() ? flags.execution
                                                           : flags.positional;
  if (trim(argument).empty()) {
    return failure(contract::usage_error("MISSING_ARGUMENT", kMissingPayload));
  }

  auto loaded = io::load_payload(argument);
  if (!loaded) return failure(loaded.error());
  if (contract::is_sequence(*loaded)) {
    auto sequence = contract::admit_sequence(*loaded, options.timeout, service::fresh_id_random);
    if (!sequence) return failure(sequence.error());
    return finish_sequence(std::move(*sequence), execution_mode(flags.validate_only, flags.dry_run),
                           options);
  }
  auto admitted = contract::admit_execution(*loaded, options.timeout, service::fresh_id_random);
  if (!admitted) return failure(admitted.error());
  return finish_execution(std::move(*admitted), execution_mode(flags.validate_only, flags.dry_run),
                          options);
}

}  // namespace

void register_exec_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<ExecFlags>();
  CommandLine exec = root.add_subcommand("exec", "Validate and run an execution payload");
  exec.alias("execute");
  exec.group("Execution");
  exec.add_option("payload", flags->positional, "Payload: inline JSON, a file path, or - for stdin")
      .value_name(kFileValue);
  exec.add_option("--payload", flags->payload, "Payload (inline JSON or a file path)")
      .value_name(kFileValue);
  exec.add_option("--execution", flags->execution, "Same as --payload").value_name(kFileValue);
  exec.add_flag("--validate-only", flags->validate_only,
                "Validate and print the normalised execution; contact no device");
  exec.add_flag("--dry-run", flags->dry_run,
                "Validate and print the plan (ids, types, params); contact no device");
  exec.add_option("--skill", flags->skill,
                  "Run a skill's artifact instead of a payload (with --artifact)");
  exec.add_option("--artifact", flags->artifact, "With --skill: the artifact, NAME[.recipe.json]");
  exec.add_option("--vars", flags->vars, "With --skill: the {{NAME}} values, one JSON object");
  set_command_footer(exec,
                     "Notes:\n"
                     "  A payload file whose name starts with '-' follows --.\n\n"
                     "Examples:\n"
                     "  clawperator exec examples/snapshot.json --validate-only\n"
                     "  clawperator exec - --dry-run < payload.json\n"
                     "  clawperator exec --validate-only -- -payload.json\n"
                     "  clawperator exec --skill <id> --artifact <name> --vars '{}'\n"
                     "  clawperator exec '{\"commandId\":\"c1\",...}' --device emulator-5554",
                     "the payload's timeoutMs");
  // A payload file whose name starts with '-' reads as a flag; when no payload came otherwise
  // and such a file exists, it is the payload (as in the original); `exec -- -p.json` always is.
  auto claim_dash_file = [flags](const std::string& token) {
    if (!flags->positional.empty() || !flags->payload.empty() || !flags->execution.empty()) {
      return false;
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(token, error)) return false;
    flags->positional = token;
    return true;
  };
  Command entry{exec.app(),
                [flags](const GlobalOptions& options) { return run_exec(*flags, options); },
                {"--payload", "--execution", "--validate-only", "--dry-run", "--skill",
                 "--artifact", "--vars"},
                true,
                claim_dash_file};
  // The suite is named by the payload's commandId: its author chose it.
  entry.report_subject = [] { return report::Subject{"", report::Naming::CommandId}; };
  commands.push_back(std::move(entry));
}

}  // namespace clawperator::cli
