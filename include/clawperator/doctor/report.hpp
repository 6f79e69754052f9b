// What `clawperator doctor` reports: one entry per check with its verdict,
// evidence and the fix, plus the checks that could not run and why
// (docs/setup.md, doctor). Pure data and its renderings; the checks themselves
// live in checks.hpp.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::doctor {

enum class Status { Pass, Warn, Fail };
std::string_view to_string(Status status);

// What one executed fix step did.
struct FixOutcome {
  bool ok = false;
  std::string detail;  // the command's own words, trimmed
};

struct FixStep {
  enum class Kind { Shell, Manual };
  Kind kind = Kind::Manual;
  std::string value;  // the command line (shell) or the instruction (manual), for people
  // How `--fix` performs a shell step: argv through the runner or an in-process
  // call, never a host shell. Absent: the step is only shown.
  std::function<FixOutcome()> apply;
};

struct Fix {
  std::string title;
  std::vector<FixStep> steps;
  std::string docs_url;  // empty: none
};

struct DeviceGuidance {
  std::string screen;  // "Accessibility Settings"
  std::vector<std::string> steps;
};

struct Check {
  std::string id;  // "readiness.apk.presence"
  Status status = Status::Pass;
  std::string code;  // catalog code when not passing; empty when passing
  std::string summary;
  std::string detail;  // empty: none
  std::optional<Fix> fix;
  std::optional<DeviceGuidance> device_guidance;
  Json evidence = Json::object();
};

struct SkippedCheck {
  std::string id;
  std::string reason;
  std::vector<std::string> blocked_by;
};

struct AppliedFix {
  std::string check_id;
  std::string step;
  FixOutcome outcome;
};

struct Report {
  std::optional<std::string> device_id;
  std::string operator_package;
  std::vector<Check> checks;
  std::vector<SkippedCheck> skipped;
  std::vector<AppliedFix> fixes_applied;
  bool fix_requested = false;
  std::string capability;    // doctor --capability, else empty
  bool adb_missing = false;  // host.adb.presence failed: exit 3
  int signal_exit = 0;       // 130/143 when SIGINT/SIGTERM stopped the checks
};

// Checks whose failure means the device is not ready; the others are advisory.
bool is_critical(std::string_view check_id);

// Ready: every critical check ran (none skipped) and none failed. A warning on a
// critical check (several devices, no --device) leaves required checks unrun.
bool critical_ok(const Report& report);
bool report_ok(const Report& report);

// Suggestions for the person reading the report: the fix steps not already
// applied, manual steps and on-device guidance, without repeats.
std::vector<std::string> next_actions(const Report& report);

// The JSON document doctor prints, and its exit code (0 ready, 1 a check failed,
// 3 adb itself is missing, 130/143 interrupted).
Json to_json(const Report& report);
int exit_code(const Report& report);

// The human report of `--output pretty`: [OK]/[WARN]/[FAIL] per check.
std::string render_pretty(const Report& report);

}  // namespace clawperator::doctor
