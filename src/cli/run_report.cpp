#include "clawperator/cli/run_report.hpp"

#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/report/report_file.hpp"

namespace clawperator::cli {
namespace {

constexpr const char* kWriteFailed = "REPORT_WRITE_FAILED";

Json report_details(const GlobalOptions::Report& report, const report::FileError& problem) {
  Json details = Json::object();
  details["format"] = report.format;
  details["path"] = report.path;
  details["reason"] = problem.reason;
  if (problem.error_number != 0) details["errno"] = problem.error_number;
  return details;
}

// A sequence's suites, one per payload (docs/commands.md, "Reports for CI"): each payload's
// document as a single run's; the failing one is the document itself; a payload after it, never
// reached, has its planned steps skipped; --dry-run and --validate-only, each payload's plan.
std::vector<report::Suite> sequence_suites(const CommandResult& result, const report::Run& run) {
  const Json& document = result.document;
  const Json no_documents = Json::array();
  const auto listed = document.is_object() ? document.find("executions") : document.end();
  const Json& ran = listed != document.end() && listed->is_array() ? *listed : no_documents;
  const bool failed = document.value("ok", false) != true;
  const bool planned_only = document.value("dryRun", false) || document.value("validated", false);
  std::vector<report::Suite> suites;
  for (std::size_t index = 0; index < result.planned_parts.size(); ++index) {
    const CommandResult::PlannedPart& part = result.planned_parts[index];
    report::Run part_run = run;
    part_run.planned = part.steps;
    Json part_document;
    if (planned_only) {
      part_document = document.value("dryRun", false)
                          ? Json{{"ok", true}, {"dryRun", true}, {"plan", document["plans"][index]}}
                          : Json{{"ok", true},
                                 {"validated", true},
                                 {"execution", document["sequence"]["executions"][index]}};
    } else if (index < ran.size()) {
      part_document = ran[index];
      part_run.exit_code = 0;
    } else if (index == ran.size() && failed) {
      part_document = document;
      part_document.erase("executions");
    } else {
      // Never reached: its steps are the planned ones the envelope does not report.
      part_document = {{"ok", true},
                       {"envelope",
                        {{"commandId", part.command_id},
                         {"stepResults", Json::array()},
                         {"error", "executions." + std::to_string(ran.size()) +
                                       " failed before this payload"}}}};
      part_run.exit_code = result.exit_code;
    }
    if (const auto timing = part_document.find("timing");
        !planned_only && timing != part_document.end() && timing->contains("totalMs")) {
      part_run.seconds = timing->value("totalMs", 0.0) / 1000.0;
    } else if (!planned_only) {
      part_run.seconds = 0;
    }
    suites.push_back(report::suite_of(part_document, part_run));
  }
  return suites;
}

}  // namespace

RunReport::RunReport(report::Subject subject, GlobalOptions::Report report)
    : subject_(std::move(subject)),
      report_(std::move(report)),
      started_(std::chrono::steady_clock::now()),
      started_at_(std::chrono::system_clock::now()) {}

contract::Outcome<RunReport> RunReport::prepare(const Command& command,
                                                const std::string& command_name,
                                                const GlobalOptions::Report& report) {
  std::optional<report::Subject> subject =
      command.report_subject ? command.report_subject() : std::nullopt;
  if (!subject) {
    contract::HostError error = contract::usage_error(
        "USAGE",
        "--report writes the report of a run: exec, the device commands (click, "
        "snapshot, ...) and skills run take it; " +
            command_name + " does not");
    error.details["flag"] = "--report";
    return contract::failed(error);
  }
  if (subject->command.empty()) subject->command = command_name;
  if (auto usable = report::check_report_path(report.path); !usable) {
    contract::HostError error =
        contract::usage_error(kWriteFailed, "The report cannot be written to " + report.path +
                                                ": " + usable.error().reason + "; nothing was run");
    error.details["flag"] = "--report";
    Json details = report_details(report, usable.error());
    for (auto& [key, value] : details.items()) error.details[key] = std::move(value);
    return contract::failed(error);
  }
  return RunReport(std::move(*subject), report);
}

void RunReport::write(CommandResult& result) const {
  report::Run run;
  run.subject = subject_;
  run.planned = result.planned_steps;
  // Ant's JUnit timestamp: seconds, no zone (it is UTC).
  run.timestamp = io::utc_timestamp(started_at_).substr(0, 19);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  run.exit_code = result.exit_code;
  const report::Format format = *report::parse_format(report_.format);
  const std::vector<report::Suite> suites =
      result.planned_parts.empty()
          ? std::vector<report::Suite>{report::suite_of(result.document, run)}
          : sequence_suites(result, run);
  const auto written = report::write_report(report_.path, format, suites, report_.append);
  if (written) return;
  io::emit_warning(std::string(kWriteFailed) + ": the report was not written to " + report_.path +
                   ": " + written.error().reason);
  if (!result.document.is_object()) return;
  Json member = Json::object();
  member["format"] = report_.format;
  member["path"] = report_.path;
  member["written"] = false;
  member["code"] = kWriteFailed;
  member["reason"] = written.error().reason;
  if (written.error().error_number != 0) member["errno"] = written.error().error_number;
  result.document["report"] = std::move(member);
}

}  // namespace clawperator::cli
