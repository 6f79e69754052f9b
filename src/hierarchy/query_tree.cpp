// The tree of query_ui's node summaries (tree.hpp): the action policy reads the screen with one
// query_ui (docs/guardrails.md §3) and judges a step's target with the one matcher (match.hpp),
// which walks a Tree.
#include <algorithm>
#include <charconv>

#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::hierarchy {
namespace {

struct Summary {
  std::vector<long> path;
  const Json* node = nullptr;
};

// "0.2.1" into its indices; nullopt when it is not dot-separated whole numbers.
std::optional<std::vector<long>> path_indices(std::string_view text) {
  std::vector<long> indices;
  while (true) {
    const std::size_t dot = text.find('.');
    const std::string_view part = text.substr(0, dot);
    long value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc() || end != part.data() + part.size() || value < 0) {
      return std::nullopt;
    }
    indices.push_back(value);
    if (dot == std::string_view::npos) return indices;
    text.remove_prefix(dot + 1);
  }
}

bool is_prefix(const std::vector<long>& ancestor, const std::vector<long>& path) {
  return ancestor.size() < path.size() &&
         std::equal(ancestor.begin(), ancestor.end(), path.begin());
}

std::string string_member(const Json& node, const char* key) {
  const auto found = node.find(key);
  return found != node.end() && found->is_string() ? found->get<std::string>() : std::string();
}

Attributes attributes_of(const Json& node) {
  Attributes attributes;
  const auto add = [&](const char* name, std::string value) {
    if (!value.empty()) attributes.emplace_back(name, std::move(value));
  };
  add("text", string_member(node, "label"));
  add("resource-id", string_member(node, "resourceId"));
  add("class", string_member(node, "className"));
  add("content-desc", string_member(node, "contentDescription"));
  for (const char* flag : {"clickable", "scrollable", "enabled", "checked", "selected"}) {
    const auto found = node.find(flag);
    if (found != node.end() && found->is_boolean()) {
      attributes.emplace_back(flag, found->get<bool>() ? "true" : "false");
    }
  }
  const auto bounds = node.find("bounds");
  if (bounds != node.end() && bounds->is_object()) {
    long edges[4] = {0, 0, 0, 0};
    bool whole = true;
    const char* names[4] = {"left", "top", "right", "bottom"};
    for (int i = 0; i < 4; ++i) {
      const auto edge = bounds->find(names[i]);
      whole = whole && edge != bounds->end() && edge->is_number_integer();
      if (whole) edges[i] = edge->get<long>();
    }
    if (whole) {
      attributes.emplace_back(
          "bounds", "[" + std::to_string(edges[0]) + "," + std::to_string(edges[1]) + "][" +
                        std::to_string(edges[2]) + "," + std::to_string(edges[3]) + "]");
    }
  }
  return attributes;
}

}  // namespace

Tree tree_of_query(const Json& query) {
  Tree tree;
  if (!query.is_object()) return tree;
  const auto nodes = query.find("nodes");
  if (nodes == query.end() || !nodes->is_array()) return tree;
  std::vector<Summary> summaries;
  for (const Json& node : *nodes) {
    if (!node.is_object()) continue;
    auto path = path_indices(string_member(node, "nodePath"));
    if (path) summaries.push_back({std::move(*path), &node});
  }
  // Sorted by path, a node comes after its ancestors and before its later siblings: preorder.
  std::sort(summaries.begin(), summaries.end(),
            [](const Summary& a, const Summary& b) { return a.path < b.path; });
  summaries.erase(std::unique(summaries.begin(), summaries.end(),
                              [](const Summary& a, const Summary& b) { return a.path == b.path; }),
                  summaries.end());
  std::vector<std::size_t> open;  // the ancestors of the next node, innermost last
  const auto close_until = [&](const std::vector<long>* path) {
    while (!open.empty() && (path == nullptr || !is_prefix(summaries[open.back()].path, *path))) {
      tree.nodes[open.back()].subtree_end = tree.nodes.size();
      open.pop_back();
    }
  };
  for (const Summary& summary : summaries) {
    close_until(&summary.path);
    Node node;
    node.attributes = attributes_of(*summary.node);
    node.parent = open.empty() ? -1 : static_cast<int>(open.back());
    node.depth = open.size();
    node.path = string_member(*summary.node, "nodePath");
    open.push_back(tree.nodes.size());
    tree.nodes.push_back(std::move(node));
  }
  close_until(nullptr);
  return tree;
}

std::optional<Bounds> parse_bounds(std::string_view text) {
  Bounds bounds;
  long* edges[4] = {&bounds.left, &bounds.top, &bounds.right, &bounds.bottom};
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  const char expected[4] = {'[', ',', '[', ','};
  for (int i = 0; i < 4; ++i) {
    if (at == end || *at != expected[i]) return std::nullopt;
    ++at;
    const auto [next, error] = std::from_chars(at, end, *edges[i]);
    if (error != std::errc()) return std::nullopt;
    at = next;
    if (i % 2 == 1) {
      if (at == end || *at != ']') return std::nullopt;
      ++at;
    }
  }
  if (at != end) return std::nullopt;
  return bounds;
}

std::optional<Bounds> bounds_of(const Node& node) {
  const std::string* text = node.find("bounds");
  if (text == nullptr) return std::nullopt;
  return parse_bounds(*text);
}

}  // namespace clawperator::hierarchy
