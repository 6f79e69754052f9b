#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

namespace clawperator::hierarchy {
namespace {

std::string_view reference_of(char c) {
  return c == '\t' ? "&#9;" : c == '\n' ? "&#10;" : "&#13;";
}

// Where the markup that starts at `at` (a '<' that opens no start tag) ends.
std::size_t end_of_other_markup(std::string_view xml, std::size_t at) {
  const std::string_view rest = xml.substr(at);
  std::string_view close = ">";
  if (rest.starts_with("<!--")) {
    close = "-->";
  } else if (rest.starts_with("<![CDATA[")) {
    close = "]]>";
  } else if (rest.starts_with("<?")) {
    close = "?>";
  }
  const std::size_t found = xml.find(close, at + 1);
  return found == std::string_view::npos ? xml.size() : found + close.size();
}

}  // namespace

std::optional<std::string> escape_attribute_whitespace(std::string_view xml) {
  std::optional<std::string> out;
  std::size_t copied = 0;  // xml[0, copied) is in `out`
  std::size_t at = 0;
  while (at < xml.size()) {
    at = xml.find('<', at);
    if (at == std::string_view::npos) break;
    const char next = at + 1 < xml.size() ? xml[at + 1] : '\0';
    if (next == '!' || next == '?' || next == '/') {
      at = end_of_other_markup(xml, at);
      continue;
    }
    char quote = '\0';
    for (++at; at < xml.size(); ++at) {
      const char c = xml[at];
      if (quote == '\0') {
        if (c == '>') break;
        if (c == '"' || c == '\'') quote = c;
      } else if (c == quote) {
        quote = '\0';
      } else if (c == '\t' || c == '\n' || c == '\r') {
        if (!out) {
          out.emplace();
          out->reserve(xml.size() + 64);
        }
        out->append(xml.substr(copied, at - copied)).append(reference_of(c));
        copied = at + 1;
      }
    }
  }
  if (out) out->append(xml.substr(copied));
  return out;
}

}  // namespace clawperator::hierarchy
