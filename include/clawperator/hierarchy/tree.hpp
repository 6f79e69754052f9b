// The one reader of the screen's UI hierarchy (the UI Automator XML the Operator dumps, in a
// snapshot step's text and in a recording's snapshots): the document into a tree of nodes, read
// the same way by the compact snapshot, recordings, serve's /query and the pretty snapshot
// (docs/architecture.md §1). Parsed with expat. What a hierarchy is, once: a <hierarchy> root
// holding only <node> elements and white space between them; a DTD or an entity declaration is
// refused (nothing is ever expanded), as is stray text or any other element. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"

namespace clawperator::hierarchy {

using Attributes = std::vector<std::pair<std::string, std::string>>;

struct Node {
  Attributes attributes;  // as the dump holds them, in its order
  int parent = -1;        // index of the parent node; -1 directly under <hierarchy>
  // Child indices from the root, "0.2.1": the first index counts <hierarchy>'s children. The
  // compact snapshot's nodePath and /query's path.
  std::string path;
  std::size_t depth = 0;        // 0 directly under <hierarchy>
  std::size_t subtree_end = 0;  // one past the node's last descendant: nodes are in preorder

  // The attribute's value; nullptr when the node has none.
  const std::string* find(std::string_view name) const;
  // The attribute's value; empty when the node has none.
  std::string_view attribute(std::string_view name) const;
};

struct Tree {
  std::vector<Node> nodes;  // in document order (preorder)
  Attributes root;          // <hierarchy>'s own (rotation)
};

struct ParseError {
  // The whole sentence: "malformed XML at line 3: mismatched tag", "a DTD is not accepted".
  std::string message;
  long line = 0;       // the line expat stopped at
  std::string reason;  // expat's words ("mismatched tag"), or the message for a refused shape
};

Expected<Tree, ParseError> parse(std::string_view xml);

// The same tree made from the Operator's query_ui node summaries (docs/payload.md §10.1: each
// node's nodePath places it), for the action policy's one screen read: the summary's label
// becomes `text` (the Operator's label is the text, else the content description, so a node
// with only a description matches a text matcher too: more candidates, never fewer), and
// contentDescription, resourceId, className, clickable and bounds their XML attributes. A
// node whose parent is not among the summaries hangs under its nearest ancestor that is;
// summaries without a well-formed nodePath are left out. `query` not an object with a `nodes`
// array: an empty tree.
Tree tree_of_query(const Json& query);

// A node's `bounds` attribute, "[left,top][right,bottom]"; nullopt when it has none or it is
// malformed.
struct Bounds {
  long left = 0, top = 0, right = 0, bottom = 0;
  bool holds(double x, double y) const { return x >= left && x < right && y >= top && y < bottom; }
  double area() const {
    return static_cast<double>(right - left) * static_cast<double>(bottom - top);
  }
  long width() const noexcept { return right - left; }
  long height() const noexcept { return bottom - top; }
  bool operator==(const Bounds&) const = default;
};
// "[left,top][right,bottom]" as the hierarchy writes it (edges may be negative: off screen);
// nullopt when malformed or a number is out of range.
std::optional<Bounds> parse_bounds(std::string_view text);
std::optional<Bounds> bounds_of(const Node& node);

}  // namespace clawperator::hierarchy
