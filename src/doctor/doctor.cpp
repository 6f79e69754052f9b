// The order of the checks, what a failure stops, and --fix.
#include "clawperator/doctor/doctor.hpp"

#include <functional>

#include "checks.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::doctor {
namespace {

// Runs the checks in order. A check that stops the sequence leaves every later
// one in skippedChecks, naming it as the blocker.
class Sequence {
 public:
  Sequence(DoctorContext& context, Report& report) : context_(context), report_(report) {}

  // Runs `id`'s check unless the sequence stopped; false when it stops now.
  bool run(std::string_view id, const std::function<std::vector<Check>()>& check,
           bool stops_on_warning = false) {
    if (stopped_) return false;
    if (const int signal = process::interrupted_signal(); signal != 0) {
      report_.signal_exit = contract::exit_code_for_signal(signal);
      interrupted_at_ = id;
      stopped_ = true;
      return false;
    }
    for (Check& result : check()) {
      // The report already tells the person: the log line is for the file only (Info).
      io::log_event(io::LogLevel::Info, "doctor.check",
                    Json{{"checkId", result.id},
                         {"status", to_string(result.status)},
                         {"code", result.code},
                         {"deviceId", context_.serial ? Json(*context_.serial) : Json(nullptr)}});
      const bool stops = (result.status == Status::Fail && is_critical(result.id)) ||
                         (stops_on_warning && result.status == Status::Warn);
      if (stops) blocker_ = result.id;
      report_.checks.push_back(std::move(result));
    }
    if (!blocker_.empty()) stopped_ = true;
    return !stopped_;
  }

  // Lists the checks after the blocker that never ran.
  void finish(const std::vector<std::string_view>& all) {
    if (!stopped_) return;
    bool after = false;
    for (std::string_view id : all) {
      // An interrupted run skips the check it was about to start, too.
      after = after || (!interrupted_at_.empty() && id.rfind(interrupted_at_, 0) == 0);
      if (after) {
        if (interrupted_at_.empty()) {
          report_.skipped.push_back(
              SkippedCheck{std::string(id), reason_for(blocker_), {blocker_}});
        } else {
          report_.skipped.push_back(SkippedCheck{std::string(id), "interrupted", {}});
        }
      }
      after = after || id == blocker_;
    }
  }

 private:
  static std::string reason_for(const std::string& blocker) {
    if (blocker == "device.discovery") return "no single usable device to check";
    return blocker + " did not pass";
  }

  DoctorContext& context_;
  Report& report_;
  std::string blocker_;
  std::string interrupted_at_;
  bool stopped_ = false;
};

std::vector<std::string_view> check_order(bool full, bool background) {
  std::vector<std::string_view> order = {
      "host.logs.writable",
      "host.video.dependencies",
      "host.adb.presence",
      "host.adb.version",
      "host.adb.server",
      "device.discovery",
      "device.capability",
      "readiness.apk.presence",
      "readiness.result.authenticity",
      "readiness.version.compatibility",
  };
  if (background) {
    order.emplace_back("readiness.background.observation");
    return order;
  }
  for (const std::string_view id :
       {"readiness.settings.dev_options", "readiness.settings.usb_debugging", "readiness.handshake",
        "readiness.device.interactive"}) {
    order.push_back(id);
  }
  if (full) order.emplace_back("readiness.smoke");
  return order;
}

// doctor --capability emulator: the host's side only, every check run (a missing tool does not
// hide the others).
Report run_emulator_checks(DoctorContext& context) {
  Report report;
  report.capability = kEmulatorCapability;
  report.operator_package = context.options.operator_package;
  report.device_id = context.options.device;
  Sequence sequence(context, report);
  const emulator::SdkTools tools = emulator::discover_sdk_tools();
  auto one = [&](Check (*check)(DoctorContext&)) {
    return [&context, check] { return std::vector<Check>{check(context)}; };
  };
  sequence.run("host.logs.writable", one(check_log_directory)) &&
      sequence.run("host.adb.presence", one(check_adb_presence)) &&
      sequence.run("host.adb.version", one(check_adb_version)) &&
      sequence.run("emulator.acceleration.kvm", one(check_kvm)) &&
      sequence.run("emulator.disk",
                   [&] { return std::vector<Check>{check_avd_disk(context, tools)}; }) &&
      sequence.run("emulator.tools", [&] { return check_sdk_tools(context, tools); });
  sequence.finish({"host.logs.writable", "host.adb.presence", "host.adb.version",
                   "emulator.acceleration.kvm", "emulator.disk", "emulator.tools.sdkmanager",
                   "emulator.tools.avdmanager", "emulator.tools.emulator"});
  for (const Check& check : report.checks) {
    if (check.id == "host.adb.presence" && check.status == Status::Fail) report.adb_missing = true;
  }
  return report;
}

Report run_checks(DoctorContext& context) {
  if (context.options.capability == std::optional<std::string>(kEmulatorCapability)) {
    return run_emulator_checks(context);
  }
  Report report;
  const bool background = context.options.capability.has_value();
  if (background) report.capability = *context.options.capability;
  report.operator_package = context.options.operator_package;
  report.device_id = context.options.device;
  Sequence sequence(context, report);
  auto one = [&](Check (*check)(DoctorContext&)) {
    return [&context, check] { return std::vector<Check>{check(context)}; };
  };
  // Each step runs only while the previous ones allow it.
  sequence.run("host.logs.writable", one(check_log_directory)) &&
      sequence.run("host.video.dependencies", one(check_video_dependencies)) &&
      sequence.run("host.adb.presence", one(check_adb_presence)) &&
      sequence.run("host.adb.version", one(check_adb_version)) &&
      sequence.run("host.adb.server", one(check_adb_server)) &&
      sequence.run("device.discovery", one(check_device_discovery), true) &&
      sequence.run("device.capability", one(check_device_capability)) &&
      sequence.run("readiness.apk.presence", one(check_operator_presence)) &&
      sequence.run("readiness.result.authenticity", one(check_result_authenticity)) &&
      sequence.run("readiness.version.compatibility", one(check_operator_version)) &&
      (background
           // Nothing that wakes or unlocks the phone: the checks an observation needs.
           ? sequence.run("readiness.background.observation", one(check_background_observation))
           : sequence.run("readiness.settings",
                          [&context] { return check_device_settings(context); }) &&
                 sequence.run("readiness.handshake", one(check_handshake)) &&
                 sequence.run("readiness.device.interactive", one(check_interactive)) &&
                 context.options.full && sequence.run("readiness.smoke", one(check_smoke)));
  sequence.finish(check_order(context.options.full, background));
  for (const Check& check : report.checks) {
    if (check.id == "host.adb.presence" && check.status == Status::Fail) report.adb_missing = true;
  }
  if (context.serial) report.device_id = context.serial;
  return report;
}

// Every shell step of every check that did not pass, once each.
std::vector<AppliedFix> apply_fixes(const Report& report) {
  std::vector<AppliedFix> applied;
  for (const Check& check : report.checks) {
    if (check.status == Status::Pass || !check.fix) continue;
    for (const FixStep& step : check.fix->steps) {
      if (step.kind != FixStep::Kind::Shell || !step.apply) continue;
      if (process::interrupted_signal() != 0) return applied;
      const FixOutcome outcome = step.apply();
      io::log_event(io::LogLevel::Info, "doctor.fix",
                    Json{{"checkId", check.id}, {"step", step.value}, {"ok", outcome.ok}});
      applied.push_back(AppliedFix{check.id, step.value, outcome});
    }
  }
  return applied;
}

}  // namespace

Report run_doctor(const DoctorOptions& options, process::Runner& runner) {
  DoctorContext context(options, runner);
  Report report = run_checks(context);
  if (options.fix) {
    std::vector<AppliedFix> applied = apply_fixes(report);
    if (!applied.empty() && report.signal_exit == 0) {
      // Fresh results only: the fixes may have changed anything, the device included.
      DoctorContext again(options, runner);
      report = run_checks(again);
    }
    report.fix_requested = true;
    report.fixes_applied = std::move(applied);
  }
  // The fix steps point into the contexts above, which end here.
  for (Check& check : report.checks) {
    if (!check.fix) continue;
    for (FixStep& step : check.fix->steps) step.apply = nullptr;
  }
  return report;
}

}  // namespace clawperator::doctor
