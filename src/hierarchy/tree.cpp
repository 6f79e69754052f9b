#include "clawperator/hierarchy/tree.hpp"

#include <expat.h>

#include <climits>
#include <memory>
#include <optional>

#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

namespace clawperator::hierarchy {
namespace {

struct ParserDeleter {
  void operator()(XML_ParserStruct* parser) const { XML_ParserFree(parser); }
};

// Builds the tree from expat's events, refusing what is not a hierarchy at the first sign.
struct TreeBuilder {
  XML_Parser parser = nullptr;
  std::string refusal;  // why the document is not a hierarchy; the parser is stopped
  long refusal_line = 0;
  bool seen_root = false;
  bool root_closed = false;
  Tree tree;
  std::vector<int> open;         // the open <node> elements, innermost last
  std::vector<int> children{0};  // child counters: <hierarchy>'s, then one per open node

  void refuse(std::string message) {
    if (!refusal.empty()) return;
    refusal = std::move(message);
    refusal_line = static_cast<long>(XML_GetCurrentLineNumber(parser));
    XML_StopParser(parser, XML_FALSE);
  }

  static Attributes attributes_of(const char** attributes) {
    Attributes out;
    for (const char** at = attributes; *at != nullptr; at += 2) out.emplace_back(at[0], at[1]);
    return out;
  }

  void start(const char* name, const char** attributes) {
    if (!refusal.empty()) return;
    const std::string_view element(name);
    if (!seen_root) {
      if (element != "hierarchy") {
        return refuse("the root element is <" + std::string(element) + ">, not <hierarchy>");
      }
      seen_root = true;
      tree.root = attributes_of(attributes);
      return;
    }
    if (element != "node") return refuse("unexpected element <" + std::string(element) + ">");
    Node node;
    node.attributes = attributes_of(attributes);
    node.parent = open.empty() ? -1 : open.back();
    node.depth = open.size();
    const int index = children.back()++;
    node.path = (open.empty() ? std::string()
                              : tree.nodes[static_cast<std::size_t>(open.back())].path + ".") +
                std::to_string(index);
    tree.nodes.push_back(std::move(node));
    open.push_back(static_cast<int>(tree.nodes.size()) - 1);
    children.push_back(0);
  }

  void end(const char* name) {
    // Expat may still report the end of the element that stopped the parser.
    if (!refusal.empty()) return;
    if (open.empty()) {
      if (std::string_view(name) == "hierarchy") root_closed = true;
      return;
    }
    tree.nodes[static_cast<std::size_t>(open.back())].subtree_end = tree.nodes.size();
    open.pop_back();
    children.pop_back();
  }

  void text(const char* bytes, int length) {
    for (int i = 0; i < length; ++i) {
      const char c = bytes[i];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        return refuse("stray text in the hierarchy");
    }
  }
};

ParseError error_of(std::string message, long line = 0) {
  ParseError error;
  error.reason = message;
  error.message = std::move(message);
  error.line = line;
  return error;
}

}  // namespace

const std::string* Node::find(std::string_view name) const {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string_view Node::attribute(std::string_view name) const {
  const std::string* value = find(name);
  return value == nullptr ? std::string_view() : std::string_view(*value);
}

Expected<Tree, ParseError> parse(std::string_view raw_xml) {
  // A literal TAB or line break in a text attribute must read back as the Operator wrote it.
  // (A malformed document's error line then counts lines outside attribute values only.)
  const std::optional<std::string> escaped = escape_attribute_whitespace(raw_xml);
  const std::string_view xml = escaped ? std::string_view(*escaped) : raw_xml;
  if (xml.size() > static_cast<std::size_t>(INT_MAX)) {
    return Unexpected{error_of("the hierarchy is too large to parse")};
  }
  std::unique_ptr<XML_ParserStruct, ParserDeleter> parser(XML_ParserCreate("UTF-8"));
  if (!parser) return Unexpected{error_of("out of memory")};
  TreeBuilder builder;
  builder.parser = parser.get();
  XML_SetUserData(parser.get(), &builder);
  XML_SetElementHandler(
      parser.get(),
      [](void* data, const XML_Char* name, const XML_Char** attributes) {
        static_cast<TreeBuilder*>(data)->start(name, attributes);
      },
      [](void* data, const XML_Char* name) { static_cast<TreeBuilder*>(data)->end(name); });
  XML_SetCharacterDataHandler(parser.get(), [](void* data, const XML_Char* bytes, int length) {
    static_cast<TreeBuilder*>(data)->text(bytes, length);
  });
  // No DTD, hence no entity of ours is ever expanded (billion laughs, external entities).
  XML_SetStartDoctypeDeclHandler(
      parser.get(), [](void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
        static_cast<TreeBuilder*>(data)->refuse("a DTD is not accepted");
      });
  XML_SetEntityDeclHandler(
      parser.get(), [](void* data, const XML_Char*, int, const XML_Char*, int, const XML_Char*,
                       const XML_Char*, const XML_Char*, const XML_Char*) {
        static_cast<TreeBuilder*>(data)->refuse("an entity declaration is not accepted");
      });
  const XML_Status status =
      XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE);
  if (!builder.refusal.empty()) {
    return Unexpected{error_of(std::move(builder.refusal), builder.refusal_line)};
  }
  if (status != XML_STATUS_OK) {
    ParseError error;
    error.line = static_cast<long>(XML_GetCurrentLineNumber(parser.get()));
    error.reason = XML_ErrorString(XML_GetErrorCode(parser.get()));
    error.message = "malformed XML at line " + std::to_string(error.line) + ": " + error.reason;
    return Unexpected{std::move(error)};
  }
  if (!builder.seen_root || !builder.root_closed) {
    return Unexpected{error_of("no <hierarchy> element")};
  }
  return std::move(builder.tree);
}

}  // namespace clawperator::hierarchy
