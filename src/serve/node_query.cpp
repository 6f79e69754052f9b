#include "clawperator/serve/node_query.hpp"

#include <expat.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

namespace clawperator::serve {
namespace {

struct Node {
  std::map<std::string, std::string, std::less<>> attributes;
  int parent = -1;
  std::string path;
};

struct Parse {
  std::vector<Node> nodes;
  std::vector<int> open;         // the open <node> elements, innermost last
  std::vector<int> children{0};  // child counters: the root level, then per open node
};

void on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto& parse = *static_cast<Parse*>(data);
  if (std::string_view(name) != "node") {
    return;
  }
  Node node;
  for (int i = 0; attributes[i] != nullptr; i += 2)
    node.attributes[attributes[i]] = attributes[i + 1];
  node.parent = parse.open.empty() ? -1 : parse.open.back();
  const int index = parse.children.back()++;
  node.path = (node.parent < 0 ? std::string() : parse.nodes[node.parent].path + ".") +
              std::to_string(index);
  parse.nodes.push_back(std::move(node));
  parse.open.push_back(static_cast<int>(parse.nodes.size()) - 1);
  parse.children.push_back(0);
}

void on_end(void* data, const XML_Char* name) {
  auto& parse = *static_cast<Parse*>(data);
  if (std::string_view(name) != "node") {
    return;
  }
  parse.open.pop_back();
  parse.children.pop_back();
}

std::string_view attribute(const Node& node, std::string_view name) {
  const auto found = node.attributes.find(name);
  return found == node.attributes.end() ? std::string_view() : std::string_view(found->second);
}

bool field_matches(const Node& node, std::string_view key, std::string_view wanted) {
  if (key == "resourceId") return attribute(node, "resource-id") == wanted;
  if (key == "textEquals") return attribute(node, "text") == wanted;
  // The …Contains fields ignore case per character, as the Operator's own matching does.
  if (key == "textContains")
    return contract::contains_ignoring_case(attribute(node, "text"), wanted);
  if (key == "contentDescEquals") return attribute(node, "content-desc") == wanted;
  if (key == "contentDescContains") {
    return contract::contains_ignoring_case(attribute(node, "content-desc"), wanted);
  }
  return false;
}

bool matches(const std::vector<Node>& nodes, int index, const Json& matcher) {
  const Node& node = nodes[static_cast<std::size_t>(index)];
  for (const auto& [key, value] : matcher.items()) {
    if (key == "ancestor") {
      bool found = false;
      for (int up = node.parent; up >= 0 && !found;
           up = nodes[static_cast<std::size_t>(up)].parent) {
        found = matches(nodes, up, value);
      }
      if (!found) return false;
    } else if (!field_matches(node, key, value.get_ref<const std::string&>())) {
      return false;
    }
  }
  return true;
}

}  // namespace

contract::Outcome<Json> query_nodes(std::string_view xml, const Json& matcher) {
  Parse parse;
  const std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(
      XML_ParserCreate("UTF-8"), &XML_ParserFree);
  if (!parser) throw std::bad_alloc();
  XML_SetUserData(parser.get(), &parse);
  XML_SetElementHandler(parser.get(), on_start, on_end);
  // A literal TAB, CR or LF in a text must read back as the dump holds it, not as the space
  // the parser's attribute normalisation makes of it (docs/contract.md §3.3).
  const std::optional<std::string> escaped = hierarchy::escape_attribute_whitespace(xml);
  const std::string_view document = escaped ? std::string_view(*escaped) : xml;
  if (XML_Parse(parser.get(), document.data(), static_cast<int>(document.size()), 1) ==
      XML_STATUS_ERROR) {
    Json details = Json::object();
    details["line"] = XML_GetCurrentLineNumber(parser.get());
    details["reason"] = XML_ErrorString(XML_GetErrorCode(parser.get()));
    return contract::failed(contract::make_error(contract::Phase::PostProcessing,
                                                 "SNAPSHOT_EXTRACTION_FAILED",
                                                 "The snapshot's hierarchy is not XML", details));
  }
  Json found = Json::array();
  for (std::size_t i = 0; i < parse.nodes.size(); ++i) {
    if (!matches(parse.nodes, static_cast<int>(i), matcher)) continue;
    const Node& node = parse.nodes[i];
    Json match = Json::object();
    match["path"] = node.path;
    match["class"] = attribute(node, "class");
    match["resourceId"] = attribute(node, "resource-id");
    match["text"] = attribute(node, "text");
    match["contentDesc"] = attribute(node, "content-desc");
    match["bounds"] = attribute(node, "bounds");
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
