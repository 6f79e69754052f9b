#include "clawperator/hierarchy/compact_snapshot.hpp"

#include <expat.h>

#include <climits>
#include <memory>
#include <optional>
#include <vector>

#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

namespace clawperator::hierarchy {
namespace {

struct ParserDeleter {
  void operator()(XML_ParserStruct* parser) const { XML_ParserFree(parser); }
};

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

Json tri_state(const char* value) {
  if (value == nullptr) return nullptr;
  const std::string_view text(value);
  if (text == "true") return true;
  if (text == "false") return false;
  return nullptr;
}

struct Projection {
  explicit Projection(const CompactOptions& chosen) : options(chosen) {}

  const CompactOptions& options;
  XML_Parser parser = nullptr;
  std::string error;
  bool seen_root = false;
  bool root_closed = false;
  // The path of each open <node>, and how many children it has had so far.
  std::vector<std::string> paths;
  std::vector<int> child_counts{0};  // [0]: children of <hierarchy>
  int total = 0;
  bool any_cut = false;
  Json nodes = Json::array();

  void fail(std::string message) {
    if (error.empty()) error = std::move(message);
    XML_StopParser(parser, XML_FALSE);
  }

  void start(const char* name, const char** attributes) {
    if (!error.empty()) return;
    const std::string_view element(name);
    if (!seen_root) {
      if (element != "hierarchy")
        return fail("the root element is <" + std::string(element) + ">, not <hierarchy>");
      seen_root = true;
      return;
    }
    if (element != "node") return fail("unexpected element <" + std::string(element) + ">");
    const int index = child_counts.back()++;
    const std::string path =
        paths.empty() ? std::to_string(index) : paths.back() + "." + std::to_string(index);
    const std::string* parent = paths.empty() ? nullptr : &paths.back();
    ++total;
    if (static_cast<int>(nodes.size()) < options.max_nodes) {
      auto attribute = [&](const char* key) -> const char* {
        for (const char** at = attributes; *at != nullptr; at += 2) {
          if (std::string_view(*at) == key) return at[1];
        }
        return nullptr;
      };
      auto text_of = [&](const char* key) {
        const char* value = attribute(key);
        return value == nullptr ? std::string() : std::string(value);
      };
      bool text_cut = false;
      bool desc_cut = false;
      Json node = Json::object();
      node["nodePath"] = path;
      node["parentPath"] = parent != nullptr ? Json(*parent) : Json(nullptr);
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
        node[flag] = tri_state(attribute(flag));
      }
      node["visibleToUser"] = tri_state(attribute("visible-to-user"));
      node["accessibilityDataSensitive"] = tri_state(attribute("accessibility-data-sensitive"));
      any_cut = any_cut || text_cut || desc_cut;
      nodes.push_back(std::move(node));
    }
    paths.push_back(path);
    child_counts.push_back(0);
  }

  void end(const char* name) {
    // Expat may still report the end of the element that stopped the parser.
    if (!error.empty() || paths.empty()) {
      if (std::string_view(name) == "hierarchy") root_closed = true;
      return;
    }
    if (std::string_view(name) == "hierarchy") {
      root_closed = true;
      return;
    }
    paths.pop_back();
    child_counts.pop_back();
  }

  void text(const char* bytes, int length) {
    for (int i = 0; i < length; ++i) {
      const char c = bytes[i];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        return fail("stray text in the hierarchy");
    }
  }
};

}  // namespace

Expected<Json, std::string> project_compact_snapshot(std::string_view raw_xml,
                                                     const CompactOptions& options) {
  // A literal TAB or line break in a text attribute must read back as the Operator wrote it.
  // (A malformed document's error line then counts lines outside attribute values only.)
  const std::optional<std::string> escaped = hierarchy::escape_attribute_whitespace(raw_xml);
  const std::string_view xml = escaped ? std::string_view(*escaped) : raw_xml;
  if (xml.size() > static_cast<std::size_t>(INT_MAX)) {
    return Unexpected{std::string("the hierarchy is too large to parse")};
  }
  std::unique_ptr<XML_ParserStruct, ParserDeleter> parser(XML_ParserCreate("UTF-8"));
  if (!parser) return Unexpected{std::string("out of memory")};
  Projection projection(options);
  projection.parser = parser.get();
  XML_SetUserData(parser.get(), &projection);
  XML_SetElementHandler(
      parser.get(),
      [](void* data, const XML_Char* name, const XML_Char** attributes) {
        static_cast<Projection*>(data)->start(name, attributes);
      },
      [](void* data, const XML_Char* name) { static_cast<Projection*>(data)->end(name); });
  XML_SetCharacterDataHandler(parser.get(), [](void* data, const XML_Char* bytes, int length) {
    static_cast<Projection*>(data)->text(bytes, length);
  });
  // No DTD, hence no entity of ours is ever expanded (billion laughs, external entities).
  XML_SetStartDoctypeDeclHandler(
      parser.get(), [](void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
        static_cast<Projection*>(data)->fail("a DTD is not accepted");
      });
  XML_SetEntityDeclHandler(
      parser.get(), [](void* data, const XML_Char*, int, const XML_Char*, int, const XML_Char*,
                       const XML_Char*, const XML_Char*, const XML_Char*) {
        static_cast<Projection*>(data)->fail("an entity declaration is not accepted");
      });
  const XML_Status status =
      XML_Parse(parser.get(), xml.data(), static_cast<int>(xml.size()), XML_TRUE);
  if (!projection.error.empty()) return Unexpected{projection.error};
  if (status != XML_STATUS_OK) {
    return Unexpected{std::string("malformed XML at line ") +
                      std::to_string(XML_GetCurrentLineNumber(parser.get())) + ": " +
                      XML_ErrorString(XML_GetErrorCode(parser.get()))};
  }
  if (!projection.seen_root || !projection.root_closed) {
    return Unexpected{std::string("no <hierarchy> element")};
  }
  const int returned = static_cast<int>(projection.nodes.size());
  Json out = Json::object();
  out["schemaVersion"] = 1;
  out["totalNodes"] = projection.total;
  out["returnedNodes"] = returned;
  out["omittedNodes"] = projection.total - returned;
  out["truncated"] = projection.any_cut || returned < projection.total;
  out["nodes"] = std::move(projection.nodes);
  return out;
}

}  // namespace clawperator::hierarchy
