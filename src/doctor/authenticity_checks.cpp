// readiness.result.authenticity: whether this device lets the host prove that a result is the
// Operator's own (docs/guardrails.md §7): the package manager prints the Operator's uid, and
// logcat prints each line's. Advisory: without them results still come back, unproven, so it
// warns and never stops the checks; --require-authentic-result would refuse on such a device.
#include "checks.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/text.hpp"
#include "clawperator/transport/logcat_line.hpp"

namespace clawperator::doctor {
namespace {

constexpr const char* kGuardrailsDocs = "docs/guardrails.md";
constexpr const char* kProbeTag = "ClawperatorUidCheck";

// The uid logcat printed for the last line of `output` (empty: none shown); nullopt when no log
// line came back.
std::optional<std::string> last_line_uid(std::string_view output) {
  std::optional<std::string> uid;
  while (!output.empty()) {
    const std::size_t newline = output.find('\n');
    const std::string_view line = output.substr(0, newline);
    output = newline == std::string_view::npos ? std::string_view() : output.substr(newline + 1);
    const transport::LogcatLine parsed = transport::parse_logcat_line(line);
    if (parsed.level != 0 && parsed.tag == kProbeTag) uid = std::string(parsed.uid);
  }
  return uid;
}

void unprovable(Check& check, std::string summary, std::string detail) {
  check.status = Status::Warn;
  check.code = "RESULT_AUTHENTICITY_UNAVAILABLE";
  check.summary = std::move(summary);
  check.detail = std::move(detail) +
                 ". Results still come back, with resultAuthenticity.verified false; "
                 "--require-authentic-result refuses on this device.";
  check.fix =
      Fix{"Use a device whose logcat and package manager show uids (Android 8 or later, "
          "not rooted), or accept unproven results",
          {manual_step("See docs/guardrails.md section 7")},
          kGuardrailsDocs};
}

}  // namespace

Check check_result_authenticity(DoctorContext& context) {
  Check check;
  check.id = "readiness.result.authenticity";
  check.evidence["operatorUids"] = context.operator_uids;
  if (context.operator_uids.empty()) {
    unprovable(check, "The Operator's uid is unknown: its results cannot be proven its own",
               "`pm list packages -U` printed no uid for " + context.options.operator_package);
    return check;
  }
  // A line of our own, read back with its uid: one round trip, whatever the log holds. logcat
  // filters after taking the tail, so the tail is long enough for lines written meanwhile.
  const std::string command = std::string("log -t ") + kProbeTag +
                              " 'doctor: does logcat show uids'; logcat -d -v brief -v uid -t 100 "
                              "-s " +
                              kProbeTag;
  const auto read =
      adb::run_device_shell(context.client, *context.serial, {command, "logcat -v uid"});
  const std::optional<std::string> uid = read ? last_line_uid(read->out) : std::nullopt;
  check.evidence["logcatShowsUids"] = uid ? Json(!uid->empty()) : Json(nullptr);
  if (!uid) {
    unprovable(check, "Could not tell whether logcat shows uids",
               read ? "the line written with `log` did not come back from `logcat -d`"
                    : "the device shell failed: " + read.error().message);
    return check;
  }
  if (uid->empty()) {
    unprovable(check, "logcat shows no uid for its lines: results cannot be proven the Operator's",
               "logd on this device does not record who wrote a line");
    return check;
  }
  check.summary = "Results can be proven the Operator's own (uid " + context.operator_uids.front() +
                  "; logcat shows each line's uid)";
  return check;
}

}  // namespace clawperator::doctor
