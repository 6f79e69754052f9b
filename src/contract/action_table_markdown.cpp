// docs/payload.md's action table, written from the rows so that the doc cannot drift from
// what validation does (tests/unit/contract/action_table_test.cpp compares them).
#include <string>

#include "clawperator/contract/action_table.hpp"

namespace clawperator::contract {
namespace {

std::string number_text(double value) {
  const auto whole = static_cast<long long>(value);
  return static_cast<double>(whole) == value ? std::to_string(whole) : std::to_string(value);
}

std::string code(std::string_view text) {
  return "`" + std::string(text) + "`";
}

std::string constraint_text(const ParamConstraint& constraint) {
  const std::string key = code(constraint.key);
  switch (constraint.kind) {
    case ConstraintKind::Required:
      return key + " required";
    case ConstraintKind::RequiredNotBlank:
      return key + " required, not blank";
    case ConstraintKind::RequiredNonEmpty:
      return key + " required, a non-empty string";
    case ConstraintKind::NotBlankIfGiven:
      return key + ", when given, not blank";
    case ConstraintKind::OneOf:
    case ConstraintKind::OneOfExact: {
      std::string values;
      for (const std::string_view value : constraint.values) {
        values += (values.empty() ? "" : ", ") + std::string(value);
      }
      return key + (constraint.required ? " required, " : " ") + "one of " + values +
             (constraint.kind == ConstraintKind::OneOf ? " (trimmed, any case)"
                                                       : " (exactly as written)");
    }
    case ConstraintKind::Range:
      return key + (constraint.required ? " required, " : " ") +
             (constraint.integer ? "an integer" : "a number") + " in " +
             (constraint.min_exclusive ? "(" : "[") + number_text(constraint.min) + ", " +
             number_text(constraint.max) + "]";
    case ConstraintKind::DisplayText:
      return key + " readable text (no control characters but newline and tab)";
    case ConstraintKind::Template:
      return key + " placeholders of docs/payload.md §9";
    case ConstraintKind::Color:
      return key + " `#RRGGBB` or `#AARRGGBB`";
    case ConstraintKind::Forbidden:
      return key + " refused";
    case ConstraintKind::CrossFieldRule:
      break;
  }
  return {};
}

std::string rules_text(const ActionSpec& spec) {
  std::string out;
  auto append = [&](const std::string& text) {
    if (text.empty()) return;
    out += (out.empty() ? "" : "; ") + text;
  };
  bool placed = false;
  for (const ParamConstraint& constraint : spec.constraints) {
    if (constraint.kind == ConstraintKind::CrossFieldRule) placed = true;
  }
  if (!placed) append(std::string(spec.cross_field_rule_summary));
  for (const ParamConstraint& constraint : spec.constraints) {
    append(constraint.kind == ConstraintKind::CrossFieldRule
               ? std::string(spec.cross_field_rule_summary)
               : constraint_text(constraint));
  }
  return out.empty() ? "—" : out;
}

std::string host_effect(const ActionSpec& spec) {
  std::string out;
  if (spec.preflight == PreflightEffect::ForceStopApplication) {
    out = "force-stops `applicationId` before dispatch";
  }
  if (spec.preflight == PreflightEffect::RequireGestureSdk) {
    out = "refuses below API " + std::to_string(spec.min_sdk) + " (`ro.build.version.sdk`)";
  }
  if (spec.post_processing == PostProcessing::AttachSnapshot) {
    out = "attaches the UI hierarchy (`data.text`)";
  } else if (spec.post_processing == PostProcessing::CaptureScreenshot) {
    out = "captures the PNG to `path` (default: a new private file)";
  } else if (spec.post_processing == PostProcessing::DecodePayload) {
    out = "checks and returns `data.payload` parsed";
  } else if (spec.post_processing == PostProcessing::ParseQuery) {
    out = "checks `data.query` and returns it parsed as `query`";
  }
  if (spec.readiness != ActionReadiness::Interactive) {
    out += std::string(out.empty() ? "" : "; ") + "background readiness";
  }
  return out.empty() ? "—" : out;
}

}  // namespace

std::string render_action_table_markdown() {
  std::string out =
      "| action | aliases | reads only | effect | params | rules | the host |\n"
      "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const ActionSpec& spec : action_table()) {
    if (!spec.from_callers) continue;
    std::string aliases;
    for (const std::string_view alias : spec.aliases) {
      aliases += (aliases.empty() ? "" : ", ") + code(alias);
    }
    out += "| " + code(spec.name) + " | " + (aliases.empty() ? "—" : aliases) + " | " +
           (spec.read_only ? "yes" : "no") + " | " + std::string(to_string(spec.effect)) + " | " +
           (spec.schema != nullptr ? std::string(spec.schema->name) : "none") + " | " +
           rules_text(spec) + " | " + host_effect(spec) + " |\n";
  }
  return out;
}

std::optional<std::string> with_generated_action_table(const std::string& markdown) {
  constexpr std::string_view kBegin = "<!-- BEGIN action table";
  constexpr std::string_view kEnd = "<!-- END action table -->";
  const auto begin = markdown.find(kBegin);
  if (begin == std::string::npos) return std::nullopt;
  const auto begin_line_end = markdown.find('\n', begin);
  const auto end = markdown.find(kEnd, begin);
  if (begin_line_end == std::string::npos || end == std::string::npos || end < begin_line_end) {
    return std::nullopt;
  }
  return markdown.substr(0, begin_line_end + 1) + render_action_table_markdown() +
         markdown.substr(end);
}

}  // namespace clawperator::contract
