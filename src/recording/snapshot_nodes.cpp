#include "clawperator/recording/snapshot_nodes.hpp"

#include <expat.h>

#include <climits>
#include <memory>
#include <optional>

#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

namespace clawperator::recording {
namespace {

struct SnapshotParserDeleter {
  void operator()(XML_ParserStruct* parser) const { XML_ParserFree(parser); }
};

struct SnapshotCollector {
  XML_Parser parser = nullptr;
  std::string error;
  std::vector<SnapshotNode> nodes;

  void fail(std::string message) {
    if (error.empty()) error = std::move(message);
    XML_StopParser(parser, XML_FALSE);
  }

  void start(const char* name, const char** attributes) {
    if (!error.empty() || std::string_view(name) != "node") return;
    SnapshotNode node;
    for (const char** at = attributes; *at != nullptr; at += 2) {
      const std::string_view key(*at);
      if (key == "resource-id") {
        node.resource_id = at[1];
      } else if (key == "text") {
        node.text = at[1];
      } else if (key == "content-desc") {
        node.content_desc = at[1];
      } else if (key == "package") {
        node.package = at[1];
      } else if (key == "focused") {
        node.focused = std::string_view(at[1]) == "true";
      }
    }
    nodes.push_back(std::move(node));
  }
};

}  // namespace

Expected<std::vector<SnapshotNode>, std::string> read_snapshot_nodes(std::string_view raw_xml) {
  // A literal TAB or line break in a text attribute reads back as the Operator wrote it.
  const std::optional<std::string> escaped = hierarchy::escape_attribute_whitespace(raw_xml);
  const std::string_view xml = escaped ? std::string_view(*escaped) : raw_xml;
  if (xml.size() > static_cast<std::size_t>(INT_MAX)) {
    return Unexpected{std::string("the snapshot is too large to parse")};
  }
  std::unique_ptr<XML_ParserStruct, SnapshotParserDeleter> parser(XML_ParserCreate("UTF-8"));
  if (!parser) return Unexpected{std::string("out of memory")};
  SnapshotCollector collector;
  collector.parser = parser.get();
  XML_SetUserData(parser.get(), &collector);
  XML_SetStartElementHandler(parser.get(),
                             [](void* data, const XML_Char* name, const XML_Char** attributes) {
                               static_cast<SnapshotCollector*>(data)->start(name, attributes);
                             });
  XML_SetStartDoctypeDeclHandler(
      parser.get(), [](void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
        static_cast<SnapshotCollector*>(data)->fail("a DTD is not accepted");
      });
  const XML_Status status =
      XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE);
  if (!collector.error.empty()) return Unexpected{collector.error};
  if (status != XML_STATUS_OK) {
    return Unexpected{std::string("malformed XML at line ") +
                      std::to_string(XML_GetCurrentLineNumber(parser.get())) + ": " +
                      XML_ErrorString(XML_GetErrorCode(parser.get()))};
  }
  return std::move(collector.nodes);
}

std::size_t count_matching_nodes(const std::vector<SnapshotNode>& nodes,
                                 const ExactMatcher& matcher) {
  if (matcher.resource_id.empty() && matcher.text.empty() && matcher.content_desc.empty()) return 0;
  std::size_t count = 0;
  for (const SnapshotNode& node : nodes) {
    if (!matcher.resource_id.empty() && node.resource_id != matcher.resource_id) continue;
    if (!matcher.text.empty() && node.text != matcher.text) continue;
    if (!matcher.content_desc.empty() && node.content_desc != matcher.content_desc) continue;
    ++count;
  }
  return count;
}

}  // namespace clawperator::recording
