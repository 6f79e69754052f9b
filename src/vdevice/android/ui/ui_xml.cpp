#include "vdevice/android/ui/ui_xml.hpp"

#include <cstdio>

namespace clawperator::vdevice::android {
namespace {

constexpr std::string_view kHeader =
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">";
constexpr std::string_view kFooter = "</hierarchy>";

const char* flag(bool value) {
  return value ? "true" : "false";
}

void append_attributes(std::string& out, const VisibleNode& node) {
  const NodeSpec& spec = *node.spec;
  out += "<node index=\"" + std::to_string(node.index) + "\" text=\"" + escape_xml(node.text()) +
         "\" resource-id=\"" + escape_xml(spec.resource_id) + "\" class=\"" +
         escape_xml(spec.class_name) + "\" package=\"" + escape_xml(node.package) +
         "\" content-desc=\"" + escape_xml(spec.content_desc) + "\" checkable=\"" +
         flag(spec.checkable) + "\" checked=\"" + flag(spec.checked) + "\" clickable=\"" +
         flag(spec.clickable) + "\" enabled=\"" + flag(spec.enabled) + "\" focusable=\"" +
         flag(spec.focusable) + "\" focused=\"" + flag(spec.focused) + "\" scrollable=\"" +
         flag(spec.scrollable) + "\" long-clickable=\"" + flag(spec.long_clickable) +
         "\" password=\"" + flag(spec.password) + "\" selected=\"" + flag(spec.selected) +
         "\" bounds=\"" + to_string(node.bounds) + "\"";
}

struct Padding {
  std::size_t target = 0;
  std::string package;
};

void append_node(std::string& out, const VisibleNode& node, const Padding* padding,
                 const char* separator) {
  append_attributes(out, node);
  const bool pads = padding != nullptr && padding->target > 0;
  if (node.children.empty() && !pads) {
    out += " />";
    out += separator;
    return;
  }
  out += ">";
  out += separator;
  for (const VisibleNode& child : node.children) append_node(out, child, nullptr, separator);
  if (pads) {
    const std::string filler(900, 'x');
    constexpr std::size_t kClosing = 7 + kFooter.size();  // "</node>" + footer
    for (std::size_t i = node.children.size(); out.size() + kClosing < padding->target; ++i) {
      char label[48];
      std::snprintf(label, sizeof label, "vdevice padding %08zu ", i);
      out += "<node index=\"" + std::to_string(i) + "\" text=\"" + label + filler +
             "\" resource-id=\"vdevice:id/padding\" class=\"android.view.View\" package=\"" +
             escape_xml(padding->package) +
             "\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" "
             "enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" "
             "long-clickable=\"false\" password=\"false\" selected=\"false\" "
             "bounds=\"[0,0][0,0]\" />";
      out += separator;
    }
  }
  out += "</node>";
  out += separator;
}

}  // namespace

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
  }
  return out;
}

std::string hierarchy_xml(const VisibleTree& tree, std::size_t pad_to_bytes) {
  std::string out(kHeader);
  const Padding padding{pad_to_bytes, tree.package};
  append_node(out, tree.root, &padding, "");
  out += kFooter;
  return out;
}

std::string hierarchy_xml_lines(const VisibleTree& tree) {
  std::string out(kHeader);
  out += "\n";
  append_node(out, tree.root, nullptr, "\n");
  out += kFooter;
  return out;
}

}  // namespace clawperator::vdevice::android
