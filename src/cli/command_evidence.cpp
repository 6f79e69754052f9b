// `clawperator evidence capture|verify|video …` (docs/evidence.md). Flags to requests and
// reports to the output; the work is src/evidence/'s.
#include <unistd.h>

#include <array>
#include <charconv>
#include <memory>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/session.hpp"
#include "clawperator/evidence/capture.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/evidence/verify.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/exec/execution.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/evidence.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::cli {
namespace {

struct EvidenceFlags {
  std::string action;              // capture | verify | video
  std::vector<std::string> words;  // verify: DIR; video: SUBACTION [ID]
  std::optional<std::string> output_dir;
  std::optional<std::string> label;
  std::optional<std::string> context_json;
  std::optional<std::string> duration_seconds;
  std::optional<std::string> size;
  std::optional<std::string> recorder;
};

CommandResult from_report(evidence::EvidenceReport report) {
  return {std::move(report.document), report.exit_code};
}

// --label and --context-json as every front end bounds them.
std::optional<CommandResult> read_label_and_context(const EvidenceFlags& flags,
                                                    std::optional<std::string>& label,
                                                    Json& context) {
  if (flags.label) {
    if (auto checked = evidence::check_label(*flags.label, "--label"); !checked) {
      return usage_failure(checked.error().text(), Json{{"flag", "--label"}});
    }
    label = *flags.label;
  }
  if (flags.context_json) {
    context = parse_json(*flags.context_json);
    if (context.is_discarded()) {
      return usage_failure("--context-json is not valid JSON", Json{{"flag", "--context-json"}});
    }
    if (auto checked = evidence::check_context(context, "--context-json"); !checked) {
      return usage_failure(checked.error().text(), Json{{"flag", "--context-json"}});
    }
  }
  return std::nullopt;
}

std::optional<CommandResult> refuse_misplaced_evidence_flags(const EvidenceFlags& flags,
                                                             const std::string& form) {
  struct EvidenceFlagUse {
    std::string_view name;
    bool given;
    std::string_view takes;
  };
  const std::array<EvidenceFlagUse, 6> uses = {{
      {"--output-dir", flags.output_dir.has_value(), "capture"},
      {"--label", flags.label.has_value(), "capture|video start"},
      {"--context-json", flags.context_json.has_value(), "capture|video start"},
      {"--duration-seconds", flags.duration_seconds.has_value(), "video start"},
      {"--size", flags.size.has_value(), "video start"},
      {"--recorder", flags.recorder.has_value(), "video start"},
  }};
  for (const EvidenceFlagUse& use : uses) {
    if (use.given && !listed_in(use.takes, form)) {
      return usage_failure(std::string(use.name) + " is not an option of evidence " + form +
                               " (it belongs to evidence " + std::string(use.takes) + ")",
                           Json{{"flag", use.name}});
    }
  }
  return std::nullopt;
}

CommandResult run_capture(const EvidenceFlags& flags, const GlobalOptions& options) {
  evidence::CaptureRequest arguments;
  if (auto refused = read_label_and_context(flags, arguments.label, arguments.context)) {
    return *refused;
  }
  if (flags.output_dir) {
    if (flags.output_dir->empty()) {
      return usage_failure("--output-dir needs a directory", Json{{"flag", "--output-dir"}});
    }
    arguments.output_dir = std::filesystem::path(*flags.output_dir);
  }
  process::install_interrupt_handlers();
  // The capture's snapshot shows no progress line of its own (the capture is one step).
  service::Session session = session_of(options, nullptr);
  session.show_progress = false;
  return from_report(service::capture_evidence(session, {}, std::move(arguments)));
}

CommandResult run_video_start(const EvidenceFlags& flags, const GlobalOptions& options) {
  evidence::VideoStartRequest arguments;
  if (!flags.duration_seconds) {
    return usage_failure("evidence video start needs --duration-seconds (1 to 180)",
                         Json{{"flag", "--duration-seconds"}});
  }
  const std::string& text = *flags.duration_seconds;
  int seconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (error != std::errc() || end != text.data() + text.size() ||
      seconds < evidence::kMinVideoSeconds || seconds > evidence::kMaxVideoSeconds) {
    return usage_failure(
        "--duration-seconds must be a whole number from 1 to 180, not '" + text + "'",
        Json{{"flag", "--duration-seconds"}});
  }
  arguments.duration_seconds = seconds;
  if (flags.size) {
    if (auto checked = evidence::check_video_size(*flags.size); !checked) {
      return usage_failure("--size: " + checked.error().text(), Json{{"flag", "--size"}});
    }
    arguments.size = *flags.size;
  }
  if (flags.recorder) {
    const auto recorder = evidence::parse_recorder(*flags.recorder);
    if (!recorder) {
      return usage_failure(
          "--recorder must be screenrecord or scrcpy, not '" + *flags.recorder + "'",
          Json{{"flag", "--recorder"}});
    }
    arguments.recorder = *recorder;
  }
  if (auto refused = read_label_and_context(flags, arguments.label, arguments.context)) {
    return *refused;
  }
  return from_report(service::start_video(session_of(options, nullptr), {}, std::move(arguments)));
}

CommandResult run_evidence(const EvidenceFlags& flags, const GlobalOptions& options) {
  if (flags.action.empty()) {
    return usage_failure("evidence needs capture, verify DIR or video start|status|stop|recover");
  }
  if (flags.action == "capture") {
    if (!flags.words.empty()) {
      return usage_failure("evidence capture takes no argument; the destination is --output-dir",
                           Json{{"argument", flags.words.front()}});
    }
    if (auto refused = refuse_misplaced_evidence_flags(flags, "capture")) return *refused;
    return run_capture(flags, options);
  }
  if (flags.action == "verify") {
    if (auto refused = refuse_misplaced_evidence_flags(flags, "verify")) return *refused;
    if (flags.words.size() != 1) {
      return usage_failure("evidence verify takes one bundle directory: evidence verify DIR");
    }
    return from_report(evidence::verify_bundle(flags.words.front()));
  }
  if (flags.action != "video") {
    return usage_failure("evidence has capture, verify and video, not '" + flags.action + "'",
                         Json{{"argument", flags.action}});
  }
  const std::string verb = flags.words.empty() ? std::string() : flags.words.front();
  // supervise is the detached supervisor video start runs (evidence/video.cpp): accepted, never
  // offered.
  if (!listed_in(following_word_list("evidence", "video"), verb) && verb != "supervise") {
    return usage_failure("evidence video needs start, status ID, stop ID or recover ID",
                         verb.empty() ? Json::object() : Json{{"argument", verb}});
  }
  if (auto refused = refuse_misplaced_evidence_flags(flags, "video " + verb)) return *refused;
  if (verb == "start") {
    if (flags.words.size() != 1) {
      return usage_failure("evidence video start takes no argument",
                           Json{{"argument", flags.words[1]}});
    }
    return run_video_start(flags, options);
  }
  if (flags.words.size() != 2) {
    return usage_failure("evidence video " + verb + " takes the session id: evidence video " +
                         verb + " SESSION_ID");
  }
  const std::string& session_id = flags.words[1];
  const io::StateSelection state = state_directory_for_run();
  if (verb == "status") return from_report(evidence::video_status(session_id, state));
  if (verb == "stop") return from_report(evidence::stop_video(session_id, state));
  if (verb == "supervise") {
    // The detached supervisor start_video runs: its output is its log, not a document.
    CommandResult result;
    result.exit_code = evidence::run_video_supervisor(session_id, state);
    result.already_written = true;
    return result;
  }
  const auto runner = process::make_system_runner();
  return from_report(evidence::recover_video(session_id, state, *runner));
}

}  // namespace

void register_evidence_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<EvidenceFlags>();
  CommandLine command = root.add_subcommand(
      "evidence", "Evidence bundles of the screen (capture, verify) and managed screen video");
  command.group("Evidence");
  command.add_option("action", flags->action, "capture | verify DIR | video");
  command.add_option("words", flags->words,
                     "verify: the bundle directory; video: start | status ID | stop ID | "
                     "recover ID");
  command
      .add_option("--output-dir", flags->output_dir,
                  "capture: a new directory for the bundle (default "
                  "$CLAWPERATOR_EVIDENCE_DIR/bundles/<evidenceId>, else "
                  "~/.clawperator/evidence/bundles/<evidenceId>)")
      .value_name(kDirectoryValue);
  command.add_option("--label", flags->label,
                     "capture, video start: a label for the manifest (at most 2048 UTF-16 "
                     "code units)");
  command.add_option("--context-json", flags->context_json,
                     "capture, video start: a JSON object for the manifest (at most 16 KiB)");
  command.add_option("--duration-seconds", flags->duration_seconds,
                     "video start: how long to record, 1 to 180 (stop ends it earlier)");
  command.add_option("--size", flags->size,
                     "video start: the video's WIDTHxHEIGHT (even, 16..4096)");
  command.add_option("--recorder", flags->recorder,
                     "video start: screenrecord (the device's own, default) or scrcpy (3.0+)");
  set_command_footer(
      command,
      "Notes:\n"
      "  A bundle holds screenshot.png, hierarchy.xml, capture-envelopes.json and\n"
      "  manifest.json (sizes and SHA-256 of each); verify re-hashes them. Video\n"
      "  needs ffprobe on the host (FFPROBE_PATH, else PATH). See docs/evidence.md.\n\n"
      "Examples:\n"
      "  clawperator evidence capture --label checkout-failed\n"
      "  clawperator evidence verify ~/.clawperator/evidence/bundles/<evidenceId>\n"
      "  clawperator evidence video start --duration-seconds 30 --size 720x1600\n"
      "  clawperator evidence video stop <sessionId>");
  commands.push_back(
      Command{command.app(),
              [flags](const GlobalOptions& options) { return run_evidence(*flags, options); },
              std::vector<std::string>{"--output-dir", "--label", "--context-json",
                                       "--duration-seconds", "--size", "--recorder"}});
}

}  // namespace clawperator::cli
