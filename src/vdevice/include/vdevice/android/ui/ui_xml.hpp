// The UI hierarchy as `uiautomator dump` writes it: the text the Operator returns for a
// snapshot and the host validates as XML.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "vdevice/android/ui/ui_model.hpp"

namespace clawperator::vdevice::android {

// Attribute-value escaping as Android's XmlSerializer does it; characters XML 1.0 cannot
// carry (other control characters) become '?'.
std::string escape_xml(std::string_view text);

// One line, no trailing newline. With pad_to_bytes, filler nodes are appended under the root
// until the document is at least that long (a stand-in for a huge real hierarchy).
std::string hierarchy_xml(const VisibleTree& tree, std::size_t pad_to_bytes = 0);

// The same document with one node per line, as the legacy Operator logged it.
std::string hierarchy_xml_lines(const VisibleTree& tree);

}  // namespace clawperator::vdevice::android
