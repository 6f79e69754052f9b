// A report read back with expat (a parser of its own, not the writer's code): the tree of
// elements, or why the text is no well-formed XML.
#pragma once

#include <expat.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"

namespace clawperator::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  std::vector<XmlElement> children;

  // The children named `child`, in order.
  std::vector<const XmlElement*> all(std::string_view child) const {
    std::vector<const XmlElement*> found;
    for (const XmlElement& element : children) {
      if (element.name == child) found.push_back(&element);
    }
    return found;
  }
  std::string attribute(const std::string& key) const {
    const auto found = attributes.find(key);
    return found == attributes.end() ? std::string("<absent>") : found->second;
  }
};

inline Expected<XmlElement, std::string> parse_xml(std::string_view text) {
  struct State {
    XmlElement root{"#document", {}, {}, {}};
    std::vector<XmlElement*> open{&root};
  } state;
  XML_Parser parser = XML_ParserCreate(nullptr);
  XML_SetUserData(parser, &state);
  XML_SetElementHandler(
      parser,
      [](void* data, const XML_Char* name, const XML_Char** attributes) {
        auto& s = *static_cast<State*>(data);
        XmlElement element;
        element.name = name;
        for (int i = 0; attributes[i] != nullptr; i += 2) {
          element.attributes[attributes[i]] = attributes[i + 1];
        }
        s.open.back()->children.push_back(std::move(element));
        s.open.push_back(&s.open.back()->children.back());
      },
      [](void* data, const XML_Char*) { static_cast<State*>(data)->open.pop_back(); });
  XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* chars, int length) {
    static_cast<State*>(data)->open.back()->text.append(chars, static_cast<std::size_t>(length));
  });
  const bool parsed =
      XML_Parse(parser, text.data(), static_cast<int>(text.size()), XML_TRUE) == XML_STATUS_OK;
  std::string error = parsed ? std::string()
                             : std::string(XML_ErrorString(XML_GetErrorCode(parser))) +
                                   " at line " + std::to_string(XML_GetCurrentLineNumber(parser));
  XML_ParserFree(parser);
  if (!parsed) return Unexpected<std::string>(std::move(error));
  return std::move(state.root.children.front());
}

}  // namespace clawperator::testing
