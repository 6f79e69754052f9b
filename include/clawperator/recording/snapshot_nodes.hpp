// The nodes of a recorded snapshot (the Operator's UI Automator XML), reduced to what a matcher
// can name: how many nodes a resourceId / text / content-desc picks out, and which node is a
// stable landmark of a screen. Parsed with expat, no DTD accepted (nothing is ever expanded).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"

namespace clawperator::recording {

struct SnapshotNode {
  std::string resource_id;   // resource-id
  std::string text;          // text
  std::string content_desc;  // content-desc
  std::string package;       // package
  bool focused = false;      // focused="true": the field that takes typed text
};

// Every <node> in document order; the error says why the XML is not a hierarchy.
Expected<std::vector<SnapshotNode>, std::string> read_snapshot_nodes(std::string_view xml);

// The values a matcher compares exactly (resourceId, textEquals, contentDescEquals); an empty
// one leaves that attribute open.
struct ExactMatcher {
  std::string resource_id;
  std::string text;
  std::string content_desc;
};

// How many nodes have every non-empty value of `matcher` (0 when it has none).
std::size_t count_matching_nodes(const std::vector<SnapshotNode>& nodes,
                                 const ExactMatcher& matcher);

}  // namespace clawperator::recording
