#include "text.hpp"

#include <cmath>
#include <cstdio>

namespace clawperator::report {

void append_xml(std::string& out, std::string_view text, bool attribute) {
  out.reserve(out.size() + text.size());
  for_each_code_point(text, [&](char32_t c, std::string_view bytes) {
    switch (c) {
      case U'&':
        out += "&amp;";
        return;
      case U'<':
        out += "&lt;";
        return;
      case U'>':
        out += "&gt;";
        return;
      case U'"':
        out += attribute ? "&quot;" : "\"";
        return;
      case U'\t':
        out += attribute ? "&#9;" : "\t";
        return;
      case U'\n':
        out += attribute ? "&#10;" : "\n";
        return;
      case U'\r':
        out += "&#13;";
        return;
      default:
        out += xml_char(c) ? bytes : kReplacement;
    }
  });
}

std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  char buffer[512];  // %.3f of the largest double: 309 digits and the decimals
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return buffer;
}

}  // namespace clawperator::report
