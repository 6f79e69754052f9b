// The report of any document at all (--report, src/report/): the JUnit document, and the suite
// appended to it, are always well-formed XML (read back with expat); TAP is written and appended
// without fault. A document that is no JSON is taken as one string, so that bytes that are no
// UTF-8 reach every attribute and text the writers escape.
#include <expat.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/json.hpp"
#include "clawperator/report/report.hpp"

namespace {

void require_well_formed(const std::string& text) {
  XML_Parser parser = XML_ParserCreate(nullptr);
  const bool parsed =
      XML_Parse(parser, text.data(), static_cast<int>(text.size()), XML_TRUE) == XML_STATUS_OK;
  XML_ParserFree(parser);
  if (!parsed) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clawperator;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Json document = parse_json(text);
  if (document.is_discarded()) document = Json{{"ok", false}, {"code", text}, {"message", text}};
  report::Run run;
  run.subject = {std::string(text.substr(0, 16)), report::Naming::CommandId};
  run.planned = {{std::string(text.substr(0, 8)), "click"}, {"", ""}, {"s", "snapshot"}};
  run.timestamp = std::string(text.substr(0, 19));
  run.seconds = static_cast<double>(size) / 7;
  const report::Suite suite = report::suite_of(document, run);
  const std::string junit = report::junit_document(suite);
  require_well_formed(junit);
  const auto appended = report::junit_append(junit, suite);
  if (!appended) std::abort();
  require_well_formed(*appended);
  const std::string tap = report::tap_document(suite);
  if (!report::tap_append(tap, suite)) std::abort();
  return 0;
}
