// A run's report for a CI system (--report junit=FILE | tap=FILE, docs/commands.md, "Reports"):
// the run's JSON document, as printed, read into one suite of test cases (suite_of), then
// written as a JUnit XML <testsuite> or as TAP version 13 lines, alone or appended to a file of
// earlier runs. Pure: no file, no clock; the writing is report_file.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::report {

enum class Format { JUnit, Tap };

// "junit" or "tap", in any case; nullopt for anything else.
std::optional<Format> parse_format(std::string_view word);
std::string_view to_string(Format format);

// One action of the execution that was sent (or would have been: --dry-run), in payload order:
// a step the Operator never reached is still a test case, skipped.
struct PlannedStep {
  std::string id;
  std::string type;
};

// What names the suite: the command ("click": an action command's commandId is random), the
// payload's commandId (exec: its author chose it), or the skill's id (skills run).
enum class Naming { Command, CommandId, SkillId };

// The command a report is of: its words ("exec", "click", "skills run"; the cases' classname
// is clawperator.<words, dotted>) and what names its suite.
struct Subject {
  std::string command;
  Naming naming = Naming::Command;
};

// What the command line says about the run, beside its document.
struct Run {
  Subject subject;
  std::vector<PlannedStep> planned;
  std::string timestamp;  // when the command started, UTC: 2026-11-30T12:00:00
  double seconds = 0;     // the command's wall-clock time
  int exit_code = 0;      // the exit code of the command
};

enum class Verdict { Passed, Failed, Errored, Skipped };

struct Case {
  std::string name;
  std::string classname;
  Verdict verdict = Verdict::Passed;
  std::string type;     // Failed, Errored: the code
  std::string message;  // Failed, Errored, Skipped: one line for people
  std::string text;     // Failed, Errored: the detail (message, hint, the step's data)
  // Only a suite of one case has a time per case (the suite's): the Operator reports no time
  // per step, nor a skill per checkpoint.
  std::optional<double> seconds;
};

struct Counts {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
};

struct Suite {
  std::string name;
  std::string timestamp;
  double seconds = 0;
  std::vector<std::pair<std::string, std::string>> properties;
  std::vector<Case> cases;
  std::string system_out, system_err;  // a skill's script's output

  Counts counts() const;
};

// The suite of one run (docs/commands.md, "Reports", has the mapping): any JSON at all gives a
// suite (a document this CLI does not print gives one case, passed when its ok is true).
Suite suite_of(const Json& document, const Run& run);

// JUnit XML: a whole document (<testsuites> around the one suite), or `existing` (a
// <testsuites> document, UTF-8) with the suite appended and the root's counts summed again. The
// earlier suites are kept byte for byte. Text XML 1.0 cannot hold (invalid UTF-8, control
// characters but TAB, LF and CR, U+FFFE, U+FFFF) is written as U+FFFD.
std::string junit_document(const Suite& suite);
Expected<std::string, Problem> junit_append(std::string_view existing, const Suite& suite);

// TAP version 13: "ok N - name" per case, the plan last, a failure's code and message in a YAML
// block; appended: numbered on from the existing file's plan, the plan written again.
std::string tap_document(const Suite& suite);
Expected<std::string, Problem> tap_append(std::string_view existing, const Suite& suite);

// The document of `format`, new or appended to `existing`; the error says why `existing`
// cannot take it (nothing there may be lost).
std::string render(Format format, const Suite& suite);
Expected<std::string, Problem> append(Format format, std::string_view existing, const Suite& suite);

}  // namespace clawperator::report
