// TAP version 13 (testanything.org): a line per case, the plan written last so that a later
// run can be appended by numbering on and writing the plan again.
#include <charconv>
#include <cstdio>

#include "clawperator/report/report.hpp"
#include "text.hpp"

namespace clawperator::report {
namespace {

constexpr std::string_view kVersionLine = "TAP version 13\n";

// One line of text: line breaks and other control characters as spaces, what is no UTF-8 as
// U+FFFD; in a test's description '#' (a directive would follow) and '\' escaped.
std::string one_line(std::string_view text, bool description) {
  std::string out;
  for_each_code_point(text, [&](char32_t c, std::string_view bytes) {
    if (c < 0x20 || c == 0x7F) {
      out += ' ';
    } else if (description && (c == U'#' || c == U'\\')) {
      out += '\\';
      out += bytes;
    } else {
      out += xml_char(c) ? bytes : kReplacement;
    }
  });
  return out;
}

// A YAML double-quoted scalar: printable characters as they are, the others escaped.
std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for_each_code_point(text, [&](char32_t c, std::string_view bytes) {
    if (c == U'"' || c == U'\\') {
      out += '\\';
      out += bytes;
    } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xFFFE || c == 0xFFFF) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += bytes;
    }
  });
  out += '"';
  return out;
}

// The lines of `suite`, numbered from `first`.
std::string suite_lines(const Suite& suite, std::size_t first) {
  const Counts counts = suite.counts();
  std::string out = "# " + one_line(suite.name, false) + ": tests " + std::to_string(counts.tests) +
                    ", failures " + std::to_string(counts.failures) + ", errors " +
                    std::to_string(counts.errors) + ", skipped " + std::to_string(counts.skipped) +
                    ", time " + seconds_text(suite.seconds) + " s";
  if (!suite.timestamp.empty()) out += ", started " + one_line(suite.timestamp, false) + " UTC";
  out += '\n';
  for (const auto& [name, value] : suite.properties) {
    out += "# " + one_line(name, false) + ": " + one_line(value, false) + '\n';
  }
  std::size_t number = first;
  for (const Case& one : suite.cases) {
    const bool ok = one.verdict == Verdict::Passed || one.verdict == Verdict::Skipped;
    out += ok ? "ok " : "not ok ";
    out += std::to_string(number++) + " - " + one_line(one.name, true);
    if (one.verdict == Verdict::Skipped) out += " # SKIP " + one_line(one.message, false);
    out += '\n';
    if (!ok) {
      out += "  ---\n";
      out += "  severity: ";
      out += one.verdict == Verdict::Failed ? "fail" : "error";
      out += "\n  type: " + yaml_quoted(one.type) + "\n  message: " + yaml_quoted(one.message) +
             "\n  ...\n";
    }
  }
  return out;
}

std::string plan(std::size_t tests) {
  return "1.." + std::to_string(tests) + '\n';
}

}  // namespace

std::string tap_document(const Suite& suite) {
  std::string out(kVersionLine);
  out += suite_lines(suite, 1);
  out += plan(suite.cases.size());
  return out;
}

Expected<std::string, Problem> tap_append(std::string_view existing, const Suite& suite) {
  const auto refuse = [](const char* why) {
    return Unexpected(Problem{"", std::string("the file is not a TAP report of this CLI: ") + why});
  };
  if (existing.substr(0, kVersionLine.size()) != kVersionLine) {
    return refuse("it does not start with \"TAP version 13\"");
  }
  // The last line is the plan, 1..N.
  std::string_view body = existing;
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.remove_suffix(1);
  const std::size_t line_start = body.rfind('\n') + 1;
  const std::string_view last = body.substr(line_start);
  std::size_t tests = 0;
  const auto [end, error] = last.size() > 3 && last.substr(0, 3) == "1.."
                                ? std::from_chars(last.data() + 3, last.data() + last.size(), tests)
                                : std::from_chars_result{last.data(), std::errc::invalid_argument};
  if (error != std::errc() || end != last.data() + last.size()) {
    return refuse("its last line is not its plan (1..N)");
  }
  std::string out(existing.substr(0, line_start));
  out += suite_lines(suite, tests + 1);
  out += plan(tests + suite.cases.size());
  return out;
}

}  // namespace clawperator::report
