#include "clawperator/hierarchy/compact_snapshot.hpp"

#include <algorithm>

#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::hierarchy {
namespace {

// The first `limit` code points of UTF-8 `text` (expat hands us valid UTF-8).
std::string cut_code_points(const std::string& text, int limit, bool& cut) {
  int count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (count == limit) {
      cut = true;
      return text.substr(0, i);
    }
    ++count;
  }
  cut = false;
  return text;
}

Json tri_state(const std::string* value) {
  if (value == nullptr) return nullptr;
  if (*value == "true") return true;
  if (*value == "false") return false;
  return nullptr;
}

}  // namespace

Expected<Json, Problem> project_compact_snapshot(std::string_view xml,
                                                 const CompactOptions& options) {
  auto tree = parse(xml);
  if (!tree) return Unexpected(Problem{"", std::move(tree.error().message)});
  bool any_cut = false;
  Json nodes = Json::array();
  const std::size_t returned =
      std::min(tree->nodes.size(), static_cast<std::size_t>(std::max(options.max_nodes, 0)));
  for (std::size_t i = 0; i < returned; ++i) {
    const Node& source = tree->nodes[i];
    const auto text_of = [&](std::string_view key) { return std::string(source.attribute(key)); };
    bool text_cut = false;
    bool desc_cut = false;
    Json node = Json::object();
    node["nodePath"] = source.path;
    node["parentPath"] = source.parent < 0
                             ? Json(nullptr)
                             : Json(tree->nodes[static_cast<std::size_t>(source.parent)].path);
    node["resourceId"] = text_of("resource-id");
    node["className"] = text_of("class");
    node["text"] = cut_code_points(text_of("text"), options.max_text_chars, text_cut);
    node["contentDescription"] =
        cut_code_points(text_of("content-desc"), options.max_text_chars, desc_cut);
    node["bounds"] = text_of("bounds");
    node["textTruncated"] = text_cut;
    node["contentDescriptionTruncated"] = desc_cut;
    for (const char* flag :
         {"checked", "checkable", "selected", "enabled", "clickable", "scrollable"}) {
      node[flag] = tri_state(source.find(flag));
    }
    node["visibleToUser"] = tri_state(source.find("visible-to-user"));
    node["accessibilityDataSensitive"] = tri_state(source.find("accessibility-data-sensitive"));
    any_cut = any_cut || text_cut || desc_cut;
    nodes.push_back(std::move(node));
  }
  const std::size_t total = tree->nodes.size();
  Json out = Json::object();
  out["schemaVersion"] = 1;
  out["totalNodes"] = total;
  out["returnedNodes"] = returned;
  out["omittedNodes"] = total - returned;
  out["truncated"] = any_cut || returned < total;
  out["nodes"] = std::move(nodes);
  return out;
}

}  // namespace clawperator::hierarchy
