// --report FORMAT=FILE [--report-append] (docs/commands.md, "Reports"): the report of a run for a
// CI system, prepared before the command runs and written after it, beside the JSON on stdout.
#pragma once

#include <chrono>
#include <string>

#include "clawperator/cli/command.hpp"

namespace clawperator::cli {

class RunReport {
 public:
  // Before the command runs, nothing contacted yet: USAGE when `command` takes no report (or not
  // with these words: `skills list`), REPORT_WRITE_FAILED when the file cannot take one
  // (report::check_report_path). The clock of the report starts here.
  static contract::Outcome<RunReport> prepare(const Command& command,
                                              const std::string& command_name,
                                              const GlobalOptions::Report& report);

  // Writes the report of `result`. One that cannot be written changes neither the run's exit
  // code nor its outcome: the document gains `report: {format, path, written: false, code:
  // REPORT_WRITE_FAILED, reason, errno?}` and stderr a warning. Nothing changes when it is.
  void write(CommandResult& result) const;

 private:
  RunReport(report::Subject subject, GlobalOptions::Report report);

  report::Subject subject_;
  GlobalOptions::Report report_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::system_clock::time_point started_at_;
};

}  // namespace clawperator::cli
