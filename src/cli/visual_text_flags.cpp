// `--visual-text` and its companions on click, wait, read and query (docs/visual-text.md): the
// flags read into a service::VisualTextRequest, each of its rules reported by the flag at fault,
// and the service's answer as the command's document and exit code.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "clawperator/cli/session.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/process/runner.hpp"
#include "command_actions_support.hpp"

namespace clawperator::cli::actions {
namespace {

struct VisualFlag {
  std::string_view name;
  std::string_view value_name;
  std::string_view description;
  std::string_view field;  // check_visual_text_request's name for it
};

constexpr std::array<VisualFlag, 6> kVisualFlags = {{
    {"--visual-text", "<text>", "Find this text drawn on the screen (OCR), as --text finds a node",
     "visualText"},
    {"--visual-text-contains", "<text>", "Find drawn text that contains this", "visualText"},
    {"--index", "<n>", "Which of several places the text was read (from 0)", "index"},
    {"--ocr-lang", "<lang>", "Tesseract language(s) to read with (default eng; deu+eng)",
     "ocrLang"},
    {"--region", "<[l,t][r,b]>", "Read only this part of the screen (pixels)", "region"},
    {"--min-confidence", "<0..100>", "Ignore readings less sure than this (default 50)",
     "minConfidence"},
}};

std::string_view flag_of_field(std::string_view field, bool contains) {
  if (field == "visualText") return contains ? "--visual-text-contains" : "--visual-text";
  if (field == "timeoutMs") return "--timeout";
  for (const VisualFlag& flag : kVisualFlags) {
    if (flag.field == field) return flag.name;
  }
  return {};
}

// A flag's one value: nullopt when it was not typed; a USAGE naming it when typed without one.
contract::Outcome<std::optional<std::string>> one_value(const ValueFlags& flags,
                                                        std::string_view name) {
  if (!flags.contains(name)) return std::optional<std::string>();
  const std::optional<std::string> value = flags.value(name);
  if (!value) return contract::failed(invalid_flags(std::string(name) + " requires a value", name));
  return value;
}

}  // namespace

void add_visual_text_flags(CommandLine app, ValueFlags& flags) {
  for (const VisualFlag& flag : kVisualFlags) {
    flags
        .add(app, std::string(flag.name), std::string(flag.value_name),
             std::string(flag.description))
        .group(kOptionsGroup);
  }
}

bool has_visual_text_flag(const ValueFlags& flags) {
  return std::any_of(kVisualFlags.begin(), kVisualFlags.end(),
                     [&](const VisualFlag& flag) { return flags.contains(flag.name); });
}

CommandResult run_visual_text_command(service::VisualTextAction action, const ActionState& state,
                                      const GlobalOptions& options,
                                      const VisualTextExtras& extras) {
  const ValueFlags& flags = state.flags;
  std::array<std::string_view, kVisualFlags.size()> names;
  std::transform(kVisualFlags.begin(), kVisualFlags.end(), names.begin(),
                 [](const VisualFlag& flag) { return flag.name; });
  if (auto status = repeated_flag(flags.typed(), names); !status) return failure(status.error());
  if (has_selector_flag(flags.typed(), SelectorScope::Element) ||
      has_selector_flag(flags.typed(), SelectorScope::Container) || state.strict ||
      flags.contains("--coordinate")) {
    return failure(invalid_flags(
        "--visual-text finds the text on the screen itself: use it OR a selector, a container "
        "or --coordinate, not both (and no --strict: several places are always refused)"));
  }
  service::VisualTextRequest request;
  request.action = action;
  const auto equals_read = one_value(flags, "--visual-text");
  if (!equals_read) return failure(equals_read.error());
  const std::optional<std::string>& equals = *equals_read;
  const auto contains_read = one_value(flags, "--visual-text-contains");
  if (!contains_read) return failure(contains_read.error());
  const std::optional<std::string>& contains = *contains_read;
  if (equals && contains) {
    return failure(invalid_flags("use --visual-text OR --visual-text-contains, not both",
                                 "--visual-text-contains"));
  }
  if (!equals && !contains) {
    return failure(
        contract::usage_error("MISSING_SELECTOR",
                              "--index, --ocr-lang, --region and --min-confidence go with "
                              "--visual-text TEXT or --visual-text-contains TEXT"));
  }
  request.phrase = equals ? *equals : *contains;
  request.mode = contains ? ocr::PhraseMode::Contains : ocr::PhraseMode::Equals;
  const auto index_read = one_value(flags, "--index");
  if (!index_read) return failure(index_read.error());
  const std::optional<std::string>& index = *index_read;
  if (index) {
    std::size_t parsed = 0;
    const auto [end, error] = std::from_chars(index->data(), index->data() + index->size(), parsed);
    if (error != std::errc() || end != index->data() + index->size() || index->empty()) {
      return failure(invalid_flags("--index must be a whole number from 0", "--index"));
    }
    request.index = parsed;
  }
  const auto language_read = one_value(flags, "--ocr-lang");
  if (!language_read) return failure(language_read.error());
  const std::optional<std::string>& language = *language_read;
  if (language) request.language = *language;
  const auto region_read = one_value(flags, "--region");
  if (!region_read) return failure(region_read.error());
  const std::optional<std::string>& region = *region_read;
  if (region) {
    request.region = service::parse_region(*region);
    if (!request.region) {
      return failure(invalid_flags(
          "--region must be [left,top][right,bottom] in screen pixels, e.g. [0,1200][1080,2400]",
          "--region"));
    }
  }
  const auto confidence_read = one_value(flags, "--min-confidence");
  if (!confidence_read) return failure(confidence_read.error());
  const std::optional<std::string>& confidence = *confidence_read;
  if (confidence) {
    const auto parsed = contract::parse_milliseconds(*confidence);
    if (!parsed) {
      return failure(
          invalid_flags("--min-confidence must be a number from 0 to 100", "--min-confidence"));
    }
    request.min_confidence = *parsed;
  }
  request.long_click = extras.long_click;
  if (extras.wait_ms) {
    request.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(*extras.wait_ms)));
  } else {
    const TimeoutReading timeout = finite_global_timeout(options);
    if (!timeout) return failure(timeout.error());
    if (*timeout) {
      request.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(**timeout)));
    } else if (action != service::VisualTextAction::Wait) {
      request.timeout = std::chrono::milliseconds(30000);
    }
  }
  if (auto problem = service::check_visual_text_request(request)) {
    return failure(invalid_flags(
        std::string(flag_of_field(problem->path, contains.has_value())) + " " + problem->message,
        flag_of_field(problem->path, contains.has_value())));
  }
  if (state.validate_only || state.dry_run) {
    // Where the text is can only be read on the device's screen: what would be looked for.
    Json asked{{"text", request.phrase},
               {"match", contains ? "contains" : "equals"},
               {"ocrLang", request.language},
               {"minConfidence", request.min_confidence}};
    if (request.index) asked["index"] = *request.index;
    if (region) asked["region"] = *region;
    return success(Json{{state.dry_run ? "dryRun" : "validated", true}, {"visualText", asked}});
  }

  auto session = prepare_device_run(options, request);
  if (!session) return failure(session.error());
  const auto runner = process::make_system_runner();
  exec::ExecutionReport report = service::run_visual_text(*session, {}, request, *runner);
  return {std::move(report.document), report.exit_code};
}

}  // namespace clawperator::cli::actions
