#include "clawperator/cli/snapshot_text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

// Deeper trees still print, just no further right: a hostile dump must not
// turn into gigabytes of spaces.
constexpr std::size_t kMaxIndentDepth = 64;

using Attributes = std::vector<std::pair<std::string, std::string>>;

std::optional<std::uint32_t> character_reference(std::string_view digits) {
  int base = 10;
  if (!digits.empty() && (digits.front() == 'x' || digits.front() == 'X')) {
    base = 16;
    digits.remove_prefix(1);
  }
  if (digits.empty() || digits.size() > 8) return std::nullopt;
  std::uint32_t code = 0;
  for (const char c : digits) {
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (base == 16 && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) return std::nullopt;
    code = code * static_cast<std::uint32_t>(base) + static_cast<std::uint32_t>(digit);
  }
  return code;
}

// Attribute text with the five named entities and character references
// decoded; anything else is kept as written.
std::string decode_entities(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, char>, 5> kNamed = {
      {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t end = text[i] == '&' ? text.find(';', i) : std::string_view::npos;
    if (end == std::string_view::npos || end - i > 12) {
      out.push_back(text[i]);
      continue;
    }
    const std::string_view name = text.substr(i + 1, end - i - 1);
    const auto named = std::find_if(kNamed.begin(), kNamed.end(),
                                    [&](const auto& entity) { return entity.first == name; });
    if (named != kNamed.end()) {
      out.push_back(named->second);
    } else if (const auto code = name.empty() || name.front() != '#'
                                     ? std::nullopt
                                     : character_reference(name.substr(1))) {
      append_utf8(out, *code);
    } else {
      out.append(text.substr(i, end - i + 1));
    }
    i = end;
  }
  return out;
}

bool is_name_char(char c) {
  return c != '=' && c != '>' && c != '/' && !is_blank_char(c) && c != '"' && c != '\'';
}

class XmlScanner {
 public:
  explicit XmlScanner(std::string_view xml) : xml_(xml) {}

  // Moves to the next element tag; false at the end of input.
  bool next_tag() {
    while (true) {
      const std::size_t open = xml_.find('<', at_);
      if (open == std::string_view::npos) return false;
      at_ = open + 1;
      if (xml_.substr(at_, 3) == "!--") {
        const std::size_t close = xml_.find("-->", at_);
        at_ = close == std::string_view::npos ? xml_.size() : close + 3;
      } else if (at_ < xml_.size() && (xml_[at_] == '?' || xml_[at_] == '!')) {
        const std::size_t close = xml_.find('>', at_);
        at_ = close == std::string_view::npos ? xml_.size() : close + 1;
      } else {
        read_tag();
        return true;
      }
    }
  }

  bool closing() const { return closing_; }
  bool self_closing() const { return self_closing_; }
  const std::string& name() const { return name_; }
  const Attributes& attributes() const { return attributes_; }

 private:
  void skip_blanks() {
    while (at_ < xml_.size() && is_blank_char(xml_[at_])) ++at_;
  }

  std::string read_name() {
    const std::size_t start = at_;
    while (at_ < xml_.size() && is_name_char(xml_[at_])) ++at_;
    return std::string(xml_.substr(start, at_ - start));
  }

  void read_tag() {
    closing_ = at_ < xml_.size() && xml_[at_] == '/';
    if (closing_) ++at_;
    self_closing_ = false;
    attributes_.clear();
    name_ = read_name();
    while (at_ < xml_.size()) {
      skip_blanks();
      if (at_ >= xml_.size()) return;
      const char c = xml_[at_];
      if (c == '>') {
        ++at_;
        return;
      }
      if (c == '/') {
        self_closing_ = true;
        ++at_;
        continue;
      }
      std::string attribute = read_name();
      if (attribute.empty()) {
        ++at_;  // a stray quote or '=': step over it
        continue;
      }
      skip_blanks();
      if (at_ >= xml_.size() || xml_[at_] != '=') continue;
      ++at_;
      skip_blanks();
      if (at_ >= xml_.size() || (xml_[at_] != '"' && xml_[at_] != '\'')) continue;
      const char quote = xml_[at_++];
      const std::size_t end = std::min(xml_.find(quote, at_), xml_.size());
      attributes_.emplace_back(std::move(attribute), decode_entities(xml_.substr(at_, end - at_)));
      at_ = std::min(end + 1, xml_.size());
    }
  }

  std::string_view xml_;
  std::size_t at_ = 0;
  bool closing_ = false;
  bool self_closing_ = false;
  std::string name_;
  Attributes attributes_;
};

std::string_view attribute(const Attributes& attributes, std::string_view name) {
  for (const auto& [key, value] : attributes) {
    if (key == name) return value;
  }
  return {};
}

std::string node_line(const Attributes& attributes) {
  std::string_view class_name = attribute(attributes, "class");
  if (const auto dot = class_name.rfind('.'); dot != std::string_view::npos) {
    class_name.remove_prefix(dot + 1);
  }
  std::string line(class_name.empty() ? "node" : class_name);
  if (const auto text = attribute(attributes, "text"); !text.empty())
    line += " " + quote_json(text);
  if (const auto id = attribute(attributes, "resource-id"); !id.empty()) {
    line += " id=" + std::string(id);
  }
  if (const auto desc = attribute(attributes, "content-desc"); !desc.empty()) {
    line += " desc=" + quote_json(desc);
  }
  if (const auto bounds = attribute(attributes, "bounds"); !bounds.empty()) {
    line += " " + std::string(bounds);
  }
  constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kTrueFlags = {{
      {"clickable", "clickable"},
      {"long-clickable", "long-clickable"},
      {"scrollable", "scrollable"},
      {"checked", "checked"},
      {"focused", "focused"},
      {"selected", "selected"},
      {"password", "password"},
  }};
  for (const auto& [key, label] : kTrueFlags) {
    if (attribute(attributes, key) == "true") line += " " + std::string(label);
  }
  if (attribute(attributes, "enabled") == "false") line += " disabled";
  return line;
}

const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string string_member(const Json& object, std::string_view key) {
  const Json* value = member(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

namespace {

// A node of the compact snapshot or of a query (docs/contract.md §3.3, docs/payload.md §10.1)
// as the XML's attributes, so that it prints as a node of the full snapshot does.
Attributes attributes_of(const Json& node) {
  Attributes attributes;
  const auto text_of = [&](std::string_view key) { return string_member(node, key); };
  attributes.emplace_back("class", text_of("className"));
  attributes.emplace_back("text", node.contains("label") ? text_of("label") : text_of("text"));
  attributes.emplace_back("resource-id", text_of("resourceId"));
  attributes.emplace_back("content-desc", text_of("contentDescription"));
  if (const Json* bounds = member(node, "bounds"); bounds != nullptr && bounds->is_string()) {
    attributes.emplace_back("bounds", bounds->get<std::string>());
  } else if (bounds != nullptr && bounds->is_object()) {
    const auto edge = [&](const char* key) { return std::to_string(bounds->value(key, 0LL)); };
    attributes.emplace_back("bounds", "[" + edge("left") + "," + edge("top") + "][" +
                                          edge("right") + "," + edge("bottom") + "]");
  }
  for (const char* flag : {"clickable", "scrollable", "checked", "selected", "enabled"}) {
    if (const Json* value = member(node, flag); value != nullptr && value->is_boolean()) {
      attributes.emplace_back(flag, value->get<bool>() ? "true" : "false");
    }
  }
  return attributes;
}

std::size_t path_depth(const std::string& node_path) {
  return static_cast<std::size_t>(std::count(node_path.begin(), node_path.end(), '.'));
}

// "UI hierarchy of DEVICE (COMMAND)": what a pretty document says first.
std::string document_header(std::string what, const Json& document, const Json* envelope) {
  if (const auto device = string_member(document, "deviceId"); !device.empty()) {
    what += " of " + device;
  }
  if (envelope != nullptr) {
    if (const auto command = string_member(*envelope, "commandId"); !command.empty()) {
      what += " (" + command + ")";
    }
  }
  return what;
}

// The `key` object of a successful document holding `nodes`: what the two renderers below read.
const Json* nodes_holder(const Json& document, std::string_view key) {
  const Json* ok = member(document, "ok");
  if (ok == nullptr || *ok != true) return nullptr;
  const Json* holder = member(document, key);
  const Json* nodes = holder != nullptr ? member(*holder, "nodes") : nullptr;
  return nodes != nullptr && nodes->is_array() ? holder : nullptr;
}

std::string count_of(const Json& holder, std::string_view returned, std::string_view total,
                     std::string_view noun) {
  std::string text =
      std::to_string(
          member(holder, returned) != nullptr ? member(holder, returned)->get<long long>() : 0) +
      " of " +
      std::to_string(member(holder, total) != nullptr ? member(holder, total)->get<long long>()
                                                      : 0) +
      " " + std::string(noun);
  if (const Json* truncated = member(holder, "truncated");
      truncated != nullptr && *truncated == true)
    text += ", truncated";
  return text;
}

}  // namespace

std::optional<std::string> render_compact_document(const Json& document) {
  const Json* compact = nodes_holder(document, "compact");
  if (compact == nullptr) return std::nullopt;
  std::string out =
      document_header("Compact UI hierarchy", document, member(document, "envelope")) + ": " +
      count_of(*compact, "returnedNodes", "totalNodes", "nodes") + "\n";
  const Json& nodes = *member(*compact, "nodes");
  std::size_t shallowest = SIZE_MAX;
  for (const Json& node : nodes)
    shallowest = std::min(shallowest, path_depth(string_member(node, "nodePath")));
  for (const Json& node : nodes) {
    const std::size_t depth = path_depth(string_member(node, "nodePath")) - shallowest;
    out.append(2 * std::min(depth, kMaxIndentDepth), ' ');
    out += node_line(attributes_of(node)) + "\n";
  }
  return out;
}

std::optional<std::string> render_query_document(const Json& document) {
  const Json* query = nodes_holder(document, "query");
  if (query == nullptr) return std::nullopt;
  std::string out = document_header("Query", document, member(document, "envelope")) + ": " +
                    count_of(*query, "returnedCount", "totalMatches", "matches") + "\n";
  std::size_t number = 0;
  for (const Json& node : *member(*query, "nodes")) {
    out += std::to_string(++number) + ". " + node_line(attributes_of(node)) + "\n";
  }
  return out;
}

std::optional<std::string> render_hierarchy(std::string_view xml) {
  XmlScanner scanner(xml);
  std::string out;
  std::size_t depth = 0;
  bool any = false;
  while (scanner.next_tag()) {
    if (scanner.name() != "node") continue;
    if (scanner.closing()) {
      if (depth > 0) --depth;
      continue;
    }
    out.append(2 * std::min(depth, kMaxIndentDepth), ' ');
    out += node_line(scanner.attributes());
    out += '\n';
    any = true;
    if (!scanner.self_closing()) ++depth;
  }
  if (!any) return std::nullopt;
  return out;
}

std::optional<std::string> render_snapshot_document(const Json& document) {
  // A failure stays JSON, so that it reads as one.
  const Json* ok = member(document, "ok");
  if (ok == nullptr || *ok != true) return std::nullopt;
  const Json* envelope = member(document, "envelope");
  const Json* steps = envelope != nullptr ? member(*envelope, "stepResults") : nullptr;
  if (steps == nullptr || !steps->is_array()) return std::nullopt;

  std::string body;
  bool any = false;
  for (const Json& step : *steps) {
    const std::string type = string_member(step, "actionType");
    if (type != "snapshot" && type != "snapshot_ui") continue;
    const Json* data = member(step, "data");
    const Json* xml = data != nullptr ? member(*data, "text") : nullptr;
    if (xml == nullptr || !xml->is_string()) {
      body += "(step " + string_member(step, "id") + ": no hierarchy)\n";
      continue;
    }
    any = true;
    body += render_hierarchy(xml->get<std::string>()).value_or("(no nodes)\n");
  }
  if (!any) return std::nullopt;

  std::string header = "UI hierarchy";
  if (const auto device = string_member(document, "deviceId"); !device.empty()) {
    header += " of " + device;
  }
  if (const auto command = string_member(*envelope, "commandId"); !command.empty()) {
    header += " (" + command + ")";
  }
  return header + "\n" + body;
}

}  // namespace clawperator::cli
