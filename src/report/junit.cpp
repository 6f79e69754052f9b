// JUnit XML (the schema Ant's JUnit task wrote and CI systems read): a <testsuites> document,
// and a suite appended to one. The earlier document is read with expat, which is what says
// where its root begins and ends and what its suites count.
#include <expat.h>

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "clawperator/report/report.hpp"
#include "text.hpp"

namespace clawperator::report {
namespace {

void attribute(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_xml(out, value, true);
  out += '"';
}

void counts_attributes(std::string& out, const Counts& counts, double seconds) {
  attribute(out, "tests", std::to_string(counts.tests));
  attribute(out, "failures", std::to_string(counts.failures));
  attribute(out, "errors", std::to_string(counts.errors));
  attribute(out, "skipped", std::to_string(counts.skipped));
  attribute(out, "time", seconds_text(seconds));
}

std::string root_tag(const Counts& counts, double seconds) {
  std::string out = "<testsuites";
  attribute(out, "name", "clawperator");
  counts_attributes(out, counts, seconds);
  out += '>';
  return out;
}

void element_with_text(std::string& out, std::string_view indent, std::string_view name,
                       std::string_view text) {
  out += indent;
  out += '<';
  out += name;
  out += '>';
  append_xml(out, text, false);
  out += "</";
  out += name;
  out += ">\n";
}

void append_case(std::string& out, const Case& one) {
  out += "    <testcase";
  attribute(out, "name", one.name);
  attribute(out, "classname", one.classname);
  if (one.seconds) attribute(out, "time", seconds_text(*one.seconds));
  if (one.verdict == Verdict::Passed) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  if (one.verdict == Verdict::Skipped) {
    out += "      <skipped";
    if (!one.message.empty()) attribute(out, "message", one.message);
    out += "/>\n";
  } else {
    const std::string_view element = one.verdict == Verdict::Failed ? "failure" : "error";
    out += "      <";
    out += element;
    attribute(out, "message", one.message);
    attribute(out, "type", one.type);
    out += '>';
    append_xml(out, one.text, false);
    out += "</";
    out += element;
    out += ">\n";
  }
  out += "    </testcase>\n";
}

// The <testsuite> element, indented under the root, ending with a newline.
std::string suite_element(const Suite& suite) {
  std::string out = "  <testsuite";
  attribute(out, "name", suite.name);
  counts_attributes(out, suite.counts(), suite.seconds);
  if (!suite.timestamp.empty()) attribute(out, "timestamp", suite.timestamp);
  out += ">\n";
  if (!suite.properties.empty()) {
    out += "    <properties>\n";
    for (const auto& [name, value] : suite.properties) {
      out += "      <property";
      attribute(out, "name", name);
      attribute(out, "value", value);
      out += "/>\n";
    }
    out += "    </properties>\n";
  }
  for (const Case& one : suite.cases) append_case(out, one);
  if (!suite.system_out.empty()) element_with_text(out, "    ", "system-out", suite.system_out);
  if (!suite.system_err.empty()) element_with_text(out, "    ", "system-err", suite.system_err);
  out += "  </testsuite>\n";
  return out;
}

constexpr std::string_view kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

// What an earlier document holds: where its root's start tag is, where its end tag starts, and
// the sums of its suites' counts.
struct EarlierDocument {
  XML_Parser parser = nullptr;
  int depth = 0;
  std::string problem;
  XML_Index root_start = -1;
  XML_Index root_start_end = -1;
  XML_Index root_end = -1;
  bool root_empty = false;  // <testsuites/>: no end tag of its own
  Counts counts;
  double seconds = 0;
};

std::size_t count_attribute(const char* text) {
  std::size_t value = 0;
  const std::string_view view(text);
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  return error == std::errc() && end == view.data() + view.size() ? value : 0;
}

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto& earlier = *static_cast<EarlierDocument*>(data);
  const std::string_view element(name);
  if (earlier.depth == 0) {
    if (element != "testsuites") {
      earlier.problem = "its root is <" + std::string(element) + ">, not <testsuites>";
      XML_StopParser(earlier.parser, XML_FALSE);
      return;
    }
    earlier.root_start = XML_GetCurrentByteIndex(earlier.parser);
    earlier.root_start_end = earlier.root_start + XML_GetCurrentByteCount(earlier.parser);
  } else if (earlier.depth == 1 && element == "testsuite") {
    for (int i = 0; attributes[i] != nullptr; i += 2) {
      const std::string_view key(attributes[i]);
      const char* value = attributes[i + 1];
      if (key == "tests") earlier.counts.tests += count_attribute(value);
      if (key == "failures") earlier.counts.failures += count_attribute(value);
      if (key == "errors") earlier.counts.errors += count_attribute(value);
      if (key == "skipped") earlier.counts.skipped += count_attribute(value);
      if (key == "time") {
        char* end = nullptr;
        const double seconds = std::strtod(value, &end);
        if (end != value && *end == '\0' && std::isfinite(seconds) && seconds >= 0) {
          earlier.seconds += seconds;
        }
      }
    }
  }
  ++earlier.depth;
}

void XMLCALL on_end(void* data, const XML_Char*) {
  auto& earlier = *static_cast<EarlierDocument*>(data);
  if (--earlier.depth != 0) return;
  earlier.root_end = XML_GetCurrentByteIndex(earlier.parser);
  // An empty-element tag's end has no bytes of its own.
  earlier.root_empty = XML_GetCurrentByteCount(earlier.parser) == 0;
}

// A DTD may declare entities (and expand them a billion times): a report never has one.
void XMLCALL on_doctype(void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
  auto& earlier = *static_cast<EarlierDocument*>(data);
  earlier.problem = "it has a DOCTYPE";
  XML_StopParser(earlier.parser, XML_FALSE);
}

Expected<EarlierDocument, Problem> read_earlier(std::string_view text) {
  if (text.size() > static_cast<std::size_t>(INT_MAX)) {
    return Unexpected(Problem{"", "it is too large to read"});
  }
  EarlierDocument earlier;
  // UTF-8, whatever its declaration says: the suite appended is UTF-8.
  earlier.parser = XML_ParserCreate("UTF-8");
  if (earlier.parser == nullptr) return Unexpected(Problem{"", "out of memory"});
  XML_SetUserData(earlier.parser, &earlier);
  XML_SetElementHandler(earlier.parser, on_start, on_end);
  XML_SetStartDoctypeDeclHandler(earlier.parser, on_doctype);
  const XML_Status status =
      XML_Parse(earlier.parser, text.data(), static_cast<int>(text.size()), XML_TRUE);
  std::string problem = earlier.problem;
  if (problem.empty() && status != XML_STATUS_OK) {
    problem = "it is not well-formed XML (" +
              std::string(XML_ErrorString(XML_GetErrorCode(earlier.parser))) + " at line " +
              std::to_string(XML_GetCurrentLineNumber(earlier.parser)) + ")";
  }
  XML_ParserFree(earlier.parser);
  earlier.parser = nullptr;
  if (!problem.empty()) return Unexpected(Problem{"", std::move(problem)});
  if (earlier.root_start < 0 || earlier.root_end < 0) {
    return Unexpected(Problem{"", "it has no <testsuites> root"});
  }
  return earlier;
}

Counts operator+(Counts a, const Counts& b) {
  a.tests += b.tests;
  a.failures += b.failures;
  a.errors += b.errors;
  a.skipped += b.skipped;
  return a;
}

}  // namespace

std::string junit_document(const Suite& suite) {
  std::string out(kDeclaration);
  out += root_tag(suite.counts(), suite.seconds);
  out += '\n';
  out += suite_element(suite);
  out += "</testsuites>\n";
  return out;
}

Expected<std::string, Problem> junit_append(std::string_view existing, const Suite& suite) {
  auto earlier = read_earlier(existing);
  if (!earlier)
    return Unexpected(Problem{"", "the file is not a JUnit report: " + earlier.error().message});
  const auto start = static_cast<std::size_t>(earlier->root_start);
  const auto start_end = static_cast<std::size_t>(earlier->root_start_end);
  const auto end = static_cast<std::size_t>(earlier->root_end);
  std::string out(existing.substr(0, start));
  out += root_tag(earlier->counts + suite.counts(), earlier->seconds + suite.seconds);
  if (earlier->root_empty) {
    // <testsuites/>: the end tag is the start tag's own.
    out += '\n';
    out += suite_element(suite);
    out += "</testsuites>";
    out += existing.substr(start_end);
    return out;
  }
  const std::string_view inside = existing.substr(start_end, end - start_end);
  out += inside;
  if (inside.empty() || inside.back() != '\n') out += '\n';
  out += suite_element(suite);
  out += existing.substr(end);
  return out;
}

}  // namespace clawperator::report
