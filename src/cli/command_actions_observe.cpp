// `snapshot` and `screenshot`: look at the screen without changing it.
#include <array>
#include <memory>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/snapshot_text.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/service/compact_snapshot.hpp"
#include "clawperator/text.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

struct SnapshotState : ActionState {
  bool compact = false;
  // --with-text: the compact nodes gain the text read on the screen (docs/visual-text.md §5);
  // it implies --compact, the only form with a place for it.
  bool with_text = false;
  bool compact_form() const { return compact || with_text; }
};

// --max-nodes / --max-text-chars: only with --compact, an integer from 1 to `max`.
using OptionReading = contract::Outcome<std::optional<int>>;
OptionReading compact_option(const SnapshotState& state, std::string_view flag, int max) {
  const auto it = state.flags.typed().find(flag);
  if (it == state.flags.typed().end()) return std::optional<int>{};
  const auto refused = [&] {
    return contract::failed(usage(
        std::string(flag) + " requires --compact and an integer from 1 to " + std::to_string(max),
        flag));
  };
  const auto value = it->second.size() == 1 ? state.flags.value(flag) : std::nullopt;
  if (!state.compact_form() || !value) return refused();
  const std::optional<double> number = contract::parse_milliseconds(*value);
  if (!number.has_value()) return refused();
  const double whole = number.value();
  if (whole < 1 || whole > max || whole != static_cast<double>(static_cast<int>(whole))) {
    return refused();
  }
  return std::optional<int>{static_cast<int>(whole)};
}

// The snapshot step's XML projected (docs/contract.md §3.3); the envelope keeps everything
// but that XML.
CommandResult compact_result(CommandResult result, const hierarchy::CompactOptions& compact,
                             const std::optional<std::string>& raw_path) {
  if (result.exit_code != 0 || !result.document.contains("envelope")) return result;
  auto document = service::compact_snapshot_document(std::move(result.document), compact, raw_path);
  if (!document) return failure(document.error());
  result.document = std::move(*document);
  return result;
}

CommandResult run_snapshot(const SnapshotState& state, const GlobalOptions& options) {
  hierarchy::CompactOptions compact;
  const OptionReading max_nodes = compact_option(state, "--max-nodes", hierarchy::kMaxCompactNodes);
  if (!max_nodes) return failure(max_nodes.error());
  const OptionReading max_chars =
      compact_option(state, "--max-text-chars", hierarchy::kMaxCompactTextChars);
  if (!max_chars) return failure(max_chars.error());
  compact.max_nodes = max_nodes->value_or(compact.max_nodes);
  compact.max_text_chars = max_chars->value_or(compact.max_text_chars);
  std::optional<std::string> raw_path;
  if (state.flags.contains("--raw-path")) {
    raw_path = state.flags.value("--raw-path");
    if (!state.compact_form() || !raw_path || trim(*raw_path).empty() ||
        state.flags.typed().find("--raw-path")->second.size() > 1) {
      return failure(usage("--raw-path requires --compact and one non-blank path of a new file",
                           "--raw-path"));
    }
  }
  std::string language = "eng";
  if (state.flags.contains("--ocr-lang")) {
    const std::optional<std::string> named = state.flags.value("--ocr-lang");
    if (!state.with_text || !named || state.flags.typed().find("--ocr-lang")->second.size() > 1) {
      return failure(
          usage("--ocr-lang requires --with-text and one language (eng, deu+eng)", "--ocr-lang"));
    }
    language = *named;
  }
  // The global --timeout overrides the execution timeout, range-checked there.
  CommandResult result = execute(service::build_snapshot(service::make_id_stamp()), state, options,
                                 TimeoutOverride::Apply);
  if (state.compact_form() && !state.validate_only && !state.dry_run) {
    result = compact_result(std::move(result), compact, raw_path);
    if (state.with_text && result.exit_code == 0 && result.document.contains("compact")) {
      auto prepared = prepare_device_run(options);
      if (!prepared) return failure(prepared.error());
      const auto runner = process::make_system_runner();
      exec::ExecutionReport read =
          service::with_recognised_text(prepared->session, std::move(result.document), language,
                                        service::kDefaultMinConfidence, *runner);
      result.document = std::move(read.document);
      result.exit_code = read.exit_code;
    }
    if (options.output == OutputFormat::Pretty) {
      result.pretty_text = render_compact_document(result.document);
    }
    return result;
  }
  if (options.output == OutputFormat::Pretty) {
    result.pretty_text = render_snapshot_document(result.document);
  }
  return result;
}

CommandResult run_screenshot(const ActionState& state, const GlobalOptions& options) {
  const TimeoutReading timeout = finite_global_timeout(options);
  if (!timeout) return failure(timeout.error());
  const std::array<std::string_view, 1> path_flag = {"--path"};
  if (auto status = repeated_flag(state.flags.typed(), path_flag); !status)
    return failure(status.error());
  std::optional<std::string> path;
  if (state.flags.contains("--path")) {
    path = state.flags.value("--path");
    if (!path) {
      return failure(usage("--path requires a value", "--path"));
    }
  }
  return execute(service::build_screenshot(service::make_id_stamp(), path, *timeout), state,
                 options);
}

}  // namespace

void register_observe_commands(CommandLine root, std::vector<Command>& commands) {
  auto snapshot_state = std::make_shared<SnapshotState>();
  CommandLine snapshot = add_action_command(
      root, "snapshot", "Print the current UI hierarchy (XML in envelope.stepResults)",
      *snapshot_state);
  snapshot
      .add_flag("--compact", snapshot_state->compact,
                "Print `compact`: a bounded JSON list of nodes instead of the XML")
      .group(kOptionsGroup);
  snapshot_state->flags
      .add(snapshot, "--max-nodes", "<1..1000>",
           "Compact: most nodes, a preorder prefix (default 100)")
      .group(kOptionsGroup);
  snapshot_state->flags
      .add(snapshot, "--max-text-chars", "<1..4096>",
           "Compact: text and content-desc cut to this many characters (256)")
      .group(kOptionsGroup);
  snapshot
      .add_flag("--with-text", snapshot_state->with_text,
                "Compact, and each node without words gains the text read on the screen (OCR)")
      .group(kOptionsGroup);
  snapshot_state->flags
      .add(snapshot, "--ocr-lang", "<lang>", "With --with-text: Tesseract language(s) (eng)")
      .group(kOptionsGroup);
  snapshot_state->flags
      .add(snapshot, "--raw-path", "<file>",
           "Compact: also write the raw XML to this new file (mode 0600)")
      .group(kOptionsGroup);
  set_footer(snapshot,
             "Examples:\n"
             "  clawperator snapshot\n"
             "  clawperator snapshot --compact --max-nodes 50 --raw-path ./screen.xml\n"
             "  clawperator snapshot --with-text   # + text drawn but not in the tree\n"
             "  clawperator snapshot --device emulator-5554 --output pretty");
  add_command(commands, snapshot, snapshot_state, run_snapshot);

  auto screenshot_state = std::make_shared<ActionState>();
  CommandLine screenshot =
      add_action_command(root, "screenshot", "Capture a PNG of the screen", *screenshot_state);
  screenshot_state->flags
      .add(screenshot, "--path", "<file>",
           "Where to write the PNG (default: a new file in the temp directory)")
      .group(kOptionsGroup);
  set_footer(screenshot,
             "Examples:\n"
             "  clawperator screenshot --path screen.png");
  add_command(commands, screenshot, screenshot_state, run_screenshot);
}

}  // namespace clawperator::cli::actions
