// A run's document read into one suite (docs/commands.md, "Reports"): an execution's steps, a
// skill's checkpoints, or the one error that stopped the run.
#include <initializer_list>

#include "clawperator/report/report.hpp"

namespace clawperator::report {
namespace {

// A failure's detail is for reading in a CI page; a step's data or an error's details may be
// large (a reader's events, an envelope kept in details): the rest is cut.
constexpr std::size_t kMaxDetailBytes = 64 * 1024;
constexpr std::size_t kMaxMessageBytes = 4 * 1024;

const Json& member(const Json& object, const char* key) {
  static const Json kAbsent;
  if (!object.is_object()) return kAbsent;
  const auto found = object.find(key);
  return found == object.end() ? kAbsent : *found;
}

// A string as it is; a number or a boolean as JSON writes it; anything else is no text.
std::string text_of(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return dump_json(value);
  return {};
}

std::string text_at(const Json& object, const char* key) {
  return text_of(member(object, key));
}

std::string first_of(std::initializer_list<std::string> texts) {
  for (const std::string& text : texts) {
    if (!text.empty()) return text;
  }
  return {};
}

// At most `limit` bytes, never ending inside a UTF-8 sequence.
std::string cut(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  text += " [cut]";
  return text;
}

bool is_true(const Json& value) {
  return value.is_boolean() && value.get<bool>();
}

class SuiteBuilder {
 public:
  SuiteBuilder(const Json& document, const Run& run)
      : document_(document),
        run_(run),
        details_(member(document, "details")),
        envelope_(member(document, "envelope")),
        ok_(is_true(member(document, "ok"))),
        classname_(classname_of(run.subject.command)) {}

  Suite build() {
    suite_.name = suite_name();
    suite_.timestamp = run_.timestamp;
    suite_.seconds = run_.seconds >= 0 ? run_.seconds : 0;
    add_properties();
    if (envelope_.is_object()) {
      add_steps();
    } else if (document_.is_object() && document_.contains("skillResult")) {
      add_checkpoints();
    } else if (ok_ &&
               (is_true(member(document_, "dryRun")) || is_true(member(document_, "validated")))) {
      add_unrun_plan(is_true(member(document_, "dryRun")) ? "--dry-run" : "--validate-only");
    } else if (ok_) {
      suite_.cases.push_back(new_case(suite_.name));
    } else {
      add_host_error();
    }
    if (suite_.cases.size() == 1) suite_.cases.front().seconds = suite_.seconds;
    return std::move(suite_);
  }

 private:
  static std::string classname_of(const std::string& command) {
    std::string name = "clawperator";
    if (command.empty()) return name;
    name += '.';
    for (const char c : command) name += c == ' ' ? '.' : c;
    return name;
  }

  std::string command_id() const {
    return first_of({text_at(envelope_, "commandId"), text_at(details_, "commandId"),
                     text_at(member(document_, "plan"), "commandId"),
                     text_at(member(document_, "execution"), "commandId")});
  }

  std::string skill_id() const {
    return first_of({text_at(document_, "skillId"), text_at(details_, "skillId")});
  }

  std::string suite_name() const {
    std::string name;
    if (run_.subject.naming == Naming::CommandId) name = command_id();
    if (run_.subject.naming == Naming::SkillId) name = skill_id();
    return first_of({name, run_.subject.command, "clawperator"});
  }

  void property(const char* name, const std::string& value) {
    if (!value.empty()) suite_.properties.emplace_back(name, value);
  }

  void add_properties() {
    property("command", run_.subject.command);
    property("commandId", command_id());
    property("taskId", first_of({text_at(envelope_, "taskId"), text_at(details_, "taskId"),
                                 text_at(member(document_, "execution"), "taskId")}));
    property("skillId", skill_id());
    property("deviceId", first_of({text_at(document_, "deviceId"), text_at(details_, "deviceId")}));
    const Json& disposition = member(document_, "disposition");
    property("disposition.delivery", text_at(disposition, "delivery"));
    property("disposition.retry", text_at(disposition, "retry"));
    if (!ok_) property("code", text_at(document_, "code"));
    property("skillResult.status", text_at(member(document_, "skillResult"), "status"));
    property("exitCode", std::to_string(run_.exit_code));
  }

  Case new_case(std::string name) const {
    Case made;
    made.name = std::move(name);
    made.classname = classname_;
    return made;
  }

  // The failure's detail: its message, the run's hint, then the evidence as JSON.
  std::string detail(const std::string& message, const char* label, const Json& evidence) const {
    std::string text = message;
    if (const std::string hint = text_at(document_, "hint"); !hint.empty()) {
      text += "\nhint: " + hint;
    }
    if (!evidence.is_null() && !(evidence.is_object() && evidence.empty())) {
      text += std::string("\n") + label + ": " + dump_json(evidence);
    }
    return cut(std::move(text), kMaxDetailBytes);
  }

  void fail(Case& failed, Verdict verdict, std::string type, std::string message,
            std::string text) const {
    failed.verdict = verdict;
    failed.type = std::move(type);
    failed.message = cut(std::move(message), kMaxMessageBytes);
    failed.text = std::move(text);
  }

  // exec and the action commands: one case per step the Operator reported, then the planned
  // steps it never reached, skipped.
  void add_steps() {
    const Json& steps = member(envelope_, "stepResults");
    std::size_t reported = 0;
    std::string first_failed;
    if (steps.is_array()) {
      for (const Json& step : steps) {
        ++reported;
        const std::string id = text_at(step, "id");
        const std::string type = text_at(step, "actionType");
        Case made = new_case(step_name(id, type, reported));
        if (!is_true(member(step, "success"))) {
          const Json& data = member(step, "data");
          const std::string message =
              first_of({text_at(data, "message"), text_at(document_, "message"),
                        text_at(envelope_, "error"), "step " + made.name + " failed"});
          fail(made, Verdict::Failed,
               first_of({text_at(data, "error"), ok_ ? "" : text_at(document_, "code"),
                         "ACTION_FAILED"}),
               message, detail(message, "data", data));
          if (first_failed.empty()) first_failed = made.name;
        }
        suite_.cases.push_back(std::move(made));
      }
    }
    for (std::size_t index = reported; index < run_.planned.size(); ++index) {
      const PlannedStep& step = run_.planned[index];
      Case made = new_case(step_name(step.id, step.type, index + 1));
      made.verdict = Verdict::Skipped;
      made.message =
          first_failed.empty()
              ? cut("not run: the execution ended before it" +
                        (text_at(envelope_, "error").empty() ? ""
                                                             : ": " + text_at(envelope_, "error")),
                    kMaxMessageBytes)
              : "not run: step " + first_failed + " failed before it";
      suite_.cases.push_back(std::move(made));
    }
    if (!ok_ && first_failed.empty()) {
      // Failed without a failed step (the Operator's own error): the run's failure, once.
      Case made = new_case("execution");
      const std::string message =
          first_of({text_at(document_, "message"), text_at(envelope_, "error"), "the run failed"});
      fail(made, Verdict::Failed,
           first_of({text_at(document_, "code"), text_at(envelope_, "errorCode"), "ACTION_FAILED"}),
           message, detail(message, "envelope.error", member(envelope_, "error")));
      suite_.cases.push_back(std::move(made));
    }
  }

  static std::string step_name(const std::string& id, const std::string& type, std::size_t number) {
    std::string name = id.empty() ? "step " + std::to_string(number) : id;
    if (!type.empty()) name += " (" + type + ")";
    return name;
  }

  // skills run once its script started: a case per checkpoint of its SkillResult, else one
  // for the run; the run's failure shown once.
  void add_checkpoints() {
    suite_.system_out = first_of({text_at(document_, "output"), text_at(document_, "stdout")});
    suite_.system_err = text_at(document_, "stderr");
    const std::string code = text_at(document_, "code");
    const std::string run_message = text_at(document_, "message");
    bool run_failure_shown = ok_;
    const Json& checkpoints = member(member(document_, "skillResult"), "checkpoints");
    if (checkpoints.is_array()) {
      std::size_t number = 0;
      for (const Json& checkpoint : checkpoints) {
        ++number;
        Case made =
            new_case(first_of({text_at(checkpoint, "id"), "checkpoint " + std::to_string(number)}));
        const std::string status = text_at(checkpoint, "status");
        const std::string note = text_at(checkpoint, "note");
        if (status == "skipped") {
          made.verdict = Verdict::Skipped;
          made.message = cut(first_of({note, "skipped"}), kMaxMessageBytes);
        } else if (status != "ok") {
          const std::string message = first_of(
              {note, "checkpoint " + made.name + " " + first_of({status, "has no status"})});
          fail(made, Verdict::Failed, ok_ ? "failed" : first_of({code, "failed"}), message,
               detail(message, "checkpoint", checkpoint));
          run_failure_shown = true;
        }
        suite_.cases.push_back(std::move(made));
      }
    }
    if (suite_.cases.empty() || !run_failure_shown) {
      Case made = new_case(suite_.name);
      if (!ok_) {
        const std::string message = first_of({run_message, "the skill's run failed"});
        fail(made, Verdict::Failed, first_of({code, "SKILL_EXECUTION_FAILED"}), message,
             detail(message, "details", details_));
      }
      suite_.cases.push_back(std::move(made));
    }
  }

  // --dry-run, --validate-only: nothing ran.
  void add_unrun_plan(const std::string& flag) {
    for (std::size_t index = 0; index < run_.planned.size(); ++index) {
      const PlannedStep& step = run_.planned[index];
      Case made = new_case(step_name(step.id, step.type, index + 1));
      made.verdict = Verdict::Skipped;
      made.message = "not run: " + flag;
      suite_.cases.push_back(std::move(made));
    }
    if (suite_.cases.empty()) {
      Case made = new_case(suite_.name);
      made.verdict = Verdict::Skipped;
      made.message = "not run: " + flag;
      suite_.cases.push_back(std::move(made));
    }
  }

  // An error object: the run stopped before any result came back (or its result could not be
  // read): one case, in error.
  void add_host_error() {
    Case made = new_case(suite_.name);
    const std::string message = first_of({text_at(document_, "message"), "the run failed"});
    fail(made, Verdict::Errored, first_of({text_at(document_, "code"), "ERROR"}), message,
         detail(message, "details", details_));
    suite_.cases.push_back(std::move(made));
  }

  const Json& document_;
  const Run& run_;
  const Json& details_;
  const Json& envelope_;
  const bool ok_;
  const std::string classname_;
  Suite suite_;
};

}  // namespace

std::optional<Format> parse_format(std::string_view word) {
  std::string lowered;
  for (const char c : word) lowered += (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  if (lowered == "junit") return Format::JUnit;
  if (lowered == "tap") return Format::Tap;
  return std::nullopt;
}

std::string_view to_string(Format format) {
  return format == Format::JUnit ? "junit" : "tap";
}

Counts Suite::counts() const {
  Counts counts;
  counts.tests = cases.size();
  for (const Case& one : cases) {
    if (one.verdict == Verdict::Failed) ++counts.failures;
    if (one.verdict == Verdict::Errored) ++counts.errors;
    if (one.verdict == Verdict::Skipped) ++counts.skipped;
  }
  return counts;
}

Suite suite_of(const Json& document, const Run& run) {
  return SuiteBuilder(document, run).build();
}

std::string render(Format format, const Suite& suite) {
  return format == Format::JUnit ? junit_document(suite) : tap_document(suite);
}

Expected<std::string, Problem> append(Format format, std::string_view existing,
                                      const Suite& suite) {
  bool blank = true;
  for (const char c : existing) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      blank = false;
      break;
    }
  }
  // An empty file (made by mktemp or touch) is no earlier run.
  if (blank) return render(format, suite);
  return format == Format::JUnit ? junit_append(existing, suite) : tap_append(existing, suite);
}

}  // namespace clawperator::report
