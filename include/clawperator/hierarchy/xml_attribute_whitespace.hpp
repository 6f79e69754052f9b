// An XML parser normalises attribute values (XML 1.0 §3.3.3): a literal TAB, CR or LF inside
// one reads back as a space, while a character reference (&#9;, &#13;, &#10;) survives. The
// Operator writes the user's text into the hierarchy as it is, so a text or content-desc may
// hold such literal characters; replaced by their references before parsing, they read back
// as the raw XML holds them (docs/contract.md §3.3). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::hierarchy {

// `xml` with every literal TAB, CR and LF inside a start tag's quoted attribute value written
// as its character reference; nullopt when there is none (the usual case: nothing is copied).
// Comments, CDATA sections, processing instructions, declarations and text are left alone.
std::optional<std::string> escape_attribute_whitespace(std::string_view xml);

}  // namespace clawperator::hierarchy
