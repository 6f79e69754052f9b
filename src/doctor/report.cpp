#include "clawperator/doctor/report.hpp"

#include <algorithm>
#include <set>

#include "clawperator/contract/outcome.hpp"

namespace clawperator::doctor {
namespace {

constexpr std::string_view kCriticalChecks[] = {
    "host.adb.presence",         "host.adb.server",
    "device.discovery",          "device.capability",
    "readiness.apk.presence",    "readiness.version.compatibility",
    "readiness.handshake",       "readiness.device.interactive",
    "readiness.smoke",           "readiness.background.observation",
    "emulator.tools.emulator",   "emulator.tools.sdkmanager",
    "emulator.tools.avdmanager",
};

Json fix_to_json(const Fix& fix) {
  Json out = Json::object();
  out["title"] = fix.title;
  Json steps = Json::array();
  for (const FixStep& step : fix.steps) {
    steps.push_back(Json{{"kind", step.kind == FixStep::Kind::Shell ? "shell" : "manual"},
                         {"value", step.value}});
  }
  out["steps"] = std::move(steps);
  if (!fix.docs_url.empty()) out["docsUrl"] = fix.docs_url;
  return out;
}

Json check_to_json(const Check& check) {
  Json out = Json::object();
  out["id"] = check.id;
  out["status"] = to_string(check.status);
  out["critical"] = is_critical(check.id);
  if (!check.code.empty()) out["code"] = check.code;
  out["summary"] = check.summary;
  if (!check.detail.empty()) out["detail"] = check.detail;
  if (check.fix) out["fix"] = fix_to_json(*check.fix);
  if (check.device_guidance) {
    out["deviceGuidance"] =
        Json{{"screen", check.device_guidance->screen}, {"steps", check.device_guidance->steps}};
  }
  if (!check.evidence.empty()) out["evidence"] = check.evidence;
  return out;
}

std::vector<std::string> failed_critical_ids(const Report& report) {
  std::vector<std::string> ids;
  for (const Check& check : report.checks) {
    if (check.status == Status::Fail && is_critical(check.id)) ids.push_back(check.id);
  }
  return ids;
}

bool applied(const Report& report, const std::string& check_id, const std::string& step) {
  return std::any_of(report.fixes_applied.begin(), report.fixes_applied.end(),
                     [&](const AppliedFix& fix) {
                       return fix.check_id == check_id && fix.step == step && fix.outcome.ok;
                     });
}

}  // namespace

std::string_view to_string(Status status) {
  switch (status) {
    case Status::Pass:
      return "pass";
    case Status::Warn:
      return "warn";
    case Status::Fail:
      break;
  }
  return "fail";
}

bool is_critical(std::string_view check_id) {
  return std::find(std::begin(kCriticalChecks), std::end(kCriticalChecks), check_id) !=
         std::end(kCriticalChecks);
}

bool critical_ok(const Report& report) {
  return failed_critical_ids(report).empty();
}

bool report_ok(const Report& report) {
  return critical_ok(report) && report.skipped.empty();
}

std::vector<std::string> next_actions(const Report& report) {
  std::vector<std::string> actions;
  std::set<std::string> seen;
  auto add = [&](std::string action) {
    if (seen.insert(action).second) actions.push_back(std::move(action));
  };
  if (report_ok(report) && std::all_of(report.checks.begin(), report.checks.end(),
                                       [](const Check& c) { return c.status == Status::Pass; })) {
    add("Try: clawperator snapshot" +
        (report.device_id ? " --device " + *report.device_id : std::string()));
    return actions;
  }
  for (const Check& check : report.checks) {
    if (check.status == Status::Pass) continue;
    if (check.fix) {
      for (const FixStep& step : check.fix->steps) {
        if (step.kind == FixStep::Kind::Shell && applied(report, check.id, step.value)) continue;
        add(step.kind == FixStep::Kind::Shell ? "Run: " + step.value : step.value);
      }
    }
    if (check.device_guidance) {
      add("On the device, open " + check.device_guidance->screen + " and follow the listed steps.");
    }
  }
  return actions;
}

Json to_json(const Report& report) {
  Json out = Json::object();
  const bool ok = report_ok(report);
  out["ok"] = ok;
  out["criticalOk"] = critical_ok(report);
  if (!ok) {
    out["code"] = report.adb_missing ? "ADB_NOT_FOUND" : "DOCTOR_FAILED";
    const std::vector<std::string> failed = failed_critical_ids(report);
    std::string message;
    if (!failed.empty()) {
      message = "Critical checks failed:";
      for (const std::string& id : failed) message += " " + id;
    } else {
      message = "Some required checks could not run:";
      for (const SkippedCheck& skipped : report.skipped) message += " " + skipped.id;
    }
    out["message"] = message;
  }
  if (!report.capability.empty()) out["capability"] = report.capability;
  out["deviceId"] = report.device_id ? Json(*report.device_id) : Json(nullptr);
  out["operatorPackage"] = report.operator_package;
  Json checks = Json::array();
  for (const Check& check : report.checks) checks.push_back(check_to_json(check));
  out["checks"] = std::move(checks);
  Json skipped = Json::array();
  for (const SkippedCheck& check : report.skipped) {
    skipped.push_back(
        Json{{"id", check.id}, {"reason", check.reason}, {"blockedBy", check.blocked_by}});
  }
  out["skippedChecks"] = std::move(skipped);
  if (report.fix_requested) {
    Json fixes = Json::array();
    for (const AppliedFix& fix : report.fixes_applied) {
      Json entry = Json{{"checkId", fix.check_id}, {"step", fix.step}, {"ok", fix.outcome.ok}};
      if (!fix.outcome.detail.empty()) entry["detail"] = fix.outcome.detail;
      fixes.push_back(std::move(entry));
    }
    out["fixesApplied"] = std::move(fixes);
  }
  const std::vector<std::string> actions = next_actions(report);
  if (!actions.empty()) out["nextActions"] = actions;
  return out;
}

int exit_code(const Report& report) {
  if (report.signal_exit != 0) return report.signal_exit;
  if (report_ok(report)) return contract::exit_code::kSuccess;
  return report.adb_missing ? contract::exit_code::kNotReady : contract::exit_code::kFailed;
}

}  // namespace clawperator::doctor
