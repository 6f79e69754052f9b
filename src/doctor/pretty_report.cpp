// The doctor report for a person: the critical checks first, then what is only
// advisory, then what to do next.
#include "clawperator/doctor/report.hpp"

namespace clawperator::doctor {
namespace {

std::string_view glyph(Status status) {
  switch (status) {
    case Status::Pass:
      return "[OK]";
    case Status::Warn:
      return "[WARN]";
    case Status::Fail:
      break;
  }
  return "[FAIL]";
}

void render_check(std::string& out, const Check& check) {
  out += "  " + std::string(glyph(check.status)) + " " + check.id + ": " + check.summary;
  if (!check.code.empty()) out += " (" + check.code + ")";
  out += "\n";
  if (check.status == Status::Pass) return;
  if (!check.detail.empty()) out += "      " + check.detail + "\n";
  if (check.fix) {
    out += "      Fix: " + check.fix->title + "\n";
    for (const FixStep& step : check.fix->steps) {
      out += std::string(step.kind == FixStep::Kind::Shell ? "        $ " : "        - ") +
             step.value + "\n";
    }
    if (!check.fix->docs_url.empty()) out += "      Docs: " + check.fix->docs_url + "\n";
  }
  if (check.device_guidance) {
    out += "      On device (" + check.device_guidance->screen + "):\n";
    for (const std::string& step : check.device_guidance->steps) {
      out += "        - " + step + "\n";
    }
  }
}

}  // namespace

std::string render_pretty(const Report& report) {
  std::string out = "Clawperator doctor\n";
  out += "  Device: " + report.device_id.value_or("(none)") + "\n";
  out += "  Operator package: " + report.operator_package + "\n\n";

  out += "Critical checks:\n";
  std::size_t passed_advisory = 0;
  for (const Check& check : report.checks) {
    if (is_critical(check.id)) render_check(out, check);
  }
  std::string advisory;
  for (const Check& check : report.checks) {
    if (is_critical(check.id)) continue;
    if (check.status == Status::Pass) {
      ++passed_advisory;
    } else {
      render_check(advisory, check);
    }
  }
  if (!advisory.empty()) out += "\nAdvisory checks:\n" + advisory;
  if (passed_advisory > 0) {
    out += "\nAdditional passed checks: " + std::to_string(passed_advisory) + "\n";
  }
  if (!report.skipped.empty()) {
    out += "\nSkipped checks:\n";
    for (const SkippedCheck& skipped : report.skipped) {
      out += "  - " + skipped.id + ": " + skipped.reason + "\n";
    }
  }
  if (report.fix_requested) {
    out += "\nFixes applied:";
    out += report.fixes_applied.empty() ? " none\n" : "\n";
    for (const AppliedFix& fix : report.fixes_applied) {
      out += "  " + std::string(fix.outcome.ok ? "[OK] " : "[FAIL] ") + fix.step;
      if (!fix.outcome.detail.empty()) out += " (" + fix.outcome.detail + ")";
      out += "\n";
    }
  }

  bool warnings = false;
  for (const Check& check : report.checks) warnings = warnings || check.status != Status::Pass;
  if (!report_ok(report)) {
    out += critical_ok(report) ? "\n[FAIL] Required checks could not run.\n"
                               : "\n[FAIL] Critical setup checks failed.\n";
  } else if (warnings) {
    out += "\n[WARN] Critical checks passed. Address the warnings above when convenient.\n";
  } else {
    out += "\n[OK] Ready to use Clawperator.\n";
  }
  const std::vector<std::string> actions = next_actions(report);
  if (!actions.empty()) {
    out += "\nNext actions:\n";
    for (const std::string& action : actions) out += "  - " + action + "\n";
  }
  return out;
}

}  // namespace clawperator::doctor
