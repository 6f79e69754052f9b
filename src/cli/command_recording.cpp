// `clawperator recording start|stop|pull|parse|compile|export|compare` (alias `record`): one
// CLI11 subcommand whose first word picks the handler (docs/recording.md). Each subcommand
// takes only its own flags: one given to another is refused, never ignored.
#include "command_recording.hpp"

#include <array>
#include <string_view>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

constexpr std::string_view kSubcommands = action_word_list("recording");

struct FlagUse {
  std::string_view name;
  bool given;
  std::string_view takes;  // the subcommands that take it, '|'-separated
};

std::optional<CommandResult> refuse_foreign_flags(const RecordingFlags& flags,
                                                  const GlobalOptions& options) {
  const std::array<FlagUse, 11> uses = {{
      {"--session-id", flags.session_id.has_value(), "start|stop|pull"},
      {"--out", flags.out.has_value(), "pull|parse|compile|export"},
      {"--force", flags.force, "pull"},
      {"--input", flags.input.has_value(), "parse|compile|replay|export"},
      {"--as-execution", flags.as_execution, "parse"},
      {"--close-app-first", flags.close_app_first, "parse|compile|replay"},
      {"--snapshots", flags.snapshots.has_value(), "export"},
      {"--baseline", flags.baseline.has_value(), "compare"},
      {"--result", flags.result.has_value(), "compare"},
      {"--mode", flags.mode.has_value(), "compare"},
      {"--verify", flags.verify, "replay"},
  }};
  for (const FlagUse& use : uses) {
    if (use.given && !listed_in(use.takes, flags.action)) {
      return usage_failure(std::string(use.name) + " is not an option of recording " +
                               flags.action + " (it belongs to recording " +
                               std::string(use.takes) + ")",
                           Json{{"flag", use.name}});
    }
  }
  if (flags.close_app_first && flags.action == "parse" && !flags.as_execution) {
    return usage_failure("--close-app-first applies to parse --as-execution only",
                         Json{{"flag", "--close-app-first"}});
  }
  if (options.timeout && !listed_in("start|stop|pull|replay", flags.action)) {
    // Only a device call has a deadline to set; ignoring it would let a CI job believe the
    // command is bounded.
    return usage_failure(options.timeout_flag +
                             " bounds recording start, stop, pull and replay only; recording " +
                             flags.action + " reads local files and does not take it",
                         Json{{"flag", options.timeout_flag}});
  }
  return std::nullopt;
}

CommandResult run_recording(const RecordingFlags& flags, const GlobalOptions& options) {
  if (flags.action.empty()) {
    return usage_failure("recording requires a subcommand: recording " + std::string(kSubcommands) +
                         " ... ('record' is an alias)");
  }
  if (!listed_in(kSubcommands, flags.action)) {
    return usage_failure("Unknown recording subcommand: " + flags.action + ". Use: recording " +
                             std::string(kSubcommands) + " ('record' is an alias)",
                         Json{{"argument", flags.action}});
  }
  if (auto refused = refuse_foreign_flags(flags, options)) return std::move(*refused);
  if (flags.action == "start" || flags.action == "stop") {
    return run_recording_control(flags, options);
  }
  if (flags.action == "pull") return run_recording_pull(flags, options);
  if (flags.action == "parse") return run_recording_parse(flags, options);
  if (flags.action == "compile") return run_recording_compile(flags);
  if (flags.action == "replay") {
    if (!flags.input || flags.input->empty()) {
      return usage_failure(
          "recording replay --input <recording file> [--verify] [--close-app-first] ('record' "
          "is an alias)",
          Json{{"flag", "--input"}});
    }
    return run_recording_replay(flags, options);
  }
  if (flags.action == "export") return run_recording_export(flags);
  return run_recording_compare(flags);
}

}  // namespace

void register_recording_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<RecordingFlags>();
  CommandLine command = root.add_subcommand(
      "recording",
      "Record what a person does on the device, and turn it into steps or a replayable payload");
  command.alias("record");
  command.group("Recording");
  command.add_option("action", flags->action, std::string(kSubcommands));
  command.add_option("--session-id", flags->session_id,
                     "start, stop, pull: the session id ([A-Za-z0-9_-], at most 128; default: "
                     "start makes one, pull takes the device's latest)");
  command
      .add_option("--out", flags->out,
                  "pull: the directory (default ./recordings); parse, compile, export: the "
                  "output file")
      .value_name(kFileValue);
  command.add_flag("--force", flags->force, "pull: replace an existing local file");
  command
      .add_option("--input", flags->input,
                  "parse, compile, replay: the recording file; export: a file or a directory (its "
                  "newest .ndjson)")
      .value_name(kFileValue);
  command.add_flag("--as-execution", flags->as_execution,
                   "parse: write the replay payload (as compile) instead of the steps file");
  command.add_flag("--close-app-first", flags->close_app_first,
                   "compile, replay, parse --as-execution: close the app before opening it, so the "
                   "replay starts from its launch screen");
  command.add_flag("--verify", flags->verify,
                   "replay: compare the screen the replay ended on with the recording's last "
                   "(REPLAY_DIVERGED unless they match)");
  command.add_option("--snapshots", flags->snapshots,
                     "export: omit (default) or include each event's UI snapshot");
  command.add_option("--baseline", flags->baseline, "compare: the recording's export file")
      .value_name(kFileValue);
  command
      .add_option("--result", flags->result,
                  "compare: a saved `skills run --json` result (the whole document)")
      .value_name(kFileValue);
  command.add_option("--mode", flags->mode,
                     "compare: auto (default: semantic for an agent's result, else literal), "
                     "literal or semantic");
  set_command_footer(command,
                     "Examples:\n"
                     "  clawperator recording start --session-id checkout\n"
                     "  clawperator recording stop\n"
                     "  clawperator recording pull --out ./recordings\n"
                     "  clawperator recording parse --input recordings/checkout.ndjson\n"
                     "  clawperator recording compile --input recordings/checkout.ndjson "
                     "--out replay.json\n"
                     "  clawperator exec replay.json\n"
                     "  clawperator recording replay --input recordings/checkout.ndjson --verify\n"
                     "  clawperator recording export --input recordings --snapshots include\n"
                     "  clawperator recording compare --baseline checkout.export.json --result "
                     "run.json",
                     "start 10000 ms, stop 15000 ms, pull 180000 ms; replay: each payload's "
                     "timeoutMs (start, stop, pull, replay only)");
  commands.push_back(
      Command{command.app(),
              [flags](const GlobalOptions& options) { return run_recording(*flags, options); },
              std::vector<std::string>{"--session-id", "--out", "--force", "--input",
                                       "--as-execution", "--close-app-first", "--snapshots",
                                       "--baseline", "--result", "--mode", "--verify"},
              /*takes_timeout=*/true});
}

}  // namespace clawperator::cli
