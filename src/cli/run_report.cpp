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
  const auto written = report::write_report(report_.path, format,
                                            report::suite_of(result.document, run), report_.append);
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
