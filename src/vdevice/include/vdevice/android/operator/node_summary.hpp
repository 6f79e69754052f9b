// The Operator's NodeSummary (docs/payload.md §10.1): one node as query_ui reports it, and as
// the candidates of an ambiguous strict selection list it (§10.2).
#pragma once

#include <cstddef>
#include <limits>
#include <string>

#include "clawperator/json.hpp"
#include "vdevice/android/ui/ui_model.hpp"

namespace clawperator::vdevice::android {

// "0" for the root, then the child indices down to the node ("0.2.1"), in the captured tree.
std::string node_path(const VisibleNode& node);

// nodePath, parentPath, resourceId, className, role, label, contentDescription, bounds and the
// states; each string cut to `max_chars` UTF-16 units.
Json node_summary(const VisibleNode& node,
                  std::size_t max_chars = std::numeric_limits<std::size_t>::max());

}  // namespace clawperator::vdevice::android
