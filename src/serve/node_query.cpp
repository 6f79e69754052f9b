#include "clawperator/serve/node_query.hpp"

#include "clawperator/hierarchy/match.hpp"
#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::serve {
contract::Outcome<Json> query_nodes(std::string_view xml, const contract::NodeMatcher& matcher) {
  auto tree = hierarchy::parse(xml);
  if (!tree) {
    Json details = Json::object();
    details["line"] = tree.error().line;
    details["reason"] = tree.error().reason;
    return contract::failed(contract::make_error(contract::Phase::PostProcessing,
                                                 "SNAPSHOT_EXTRACTION_FAILED",
                                                 "The snapshot's hierarchy is not XML", details));
  }
  Json found = Json::array();
  for (const std::size_t index : hierarchy::find_nodes(*tree, matcher)) {
    const hierarchy::Node& node = tree->nodes[index];
    Json match = Json::object();
    match["path"] = node.path;
    match["class"] = node.attribute("class");
    match["resourceId"] = node.attribute("resource-id");
    match["text"] = node.attribute("text");
    match["contentDesc"] = node.attribute("content-desc");
    match["bounds"] = node.attribute("bounds");
    found.push_back(std::move(match));
  }
  Json out = Json::object();
  out["count"] = found.size();
  out["matches"] = std::move(found);
  return out;
}

std::string_view snapshot_xml(const Json& document) {
  const auto envelope = document.find("envelope");
  if (envelope == document.end() || !envelope->is_object()) return {};
  const auto steps = envelope->find("stepResults");
  if (steps == envelope->end() || !steps->is_array()) return {};
  for (const Json& step : *steps) {
    const auto data = step.find("data");
    if (data == step.end() || !data->is_object()) continue;
    const auto text = data->find("text");
    if (text != data->end() && text->is_string()) return text->get_ref<const std::string&>();
  }
  return {};
}

}  // namespace clawperator::serve
