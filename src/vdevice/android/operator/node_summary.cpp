#include "vdevice/android/operator/node_summary.hpp"

#include "vdevice/android/operator/unicode_text.hpp"

namespace clawperator::vdevice::android {
namespace {

Json bounds_json(const Bounds& bounds) {
  Json out = Json::object();
  out["left"] = bounds.left;
  out["top"] = bounds.top;
  out["right"] = bounds.right;
  out["bottom"] = bounds.bottom;
  return out;
}

}  // namespace

std::string node_path(const VisibleNode& node) {
  if (node.parent == nullptr) return "0";
  // The position among the parent's children: the index a path keeps (scrolled-away and
  // overlay children included), whatever `index` the XML shows.
  const auto position = static_cast<std::size_t>(&node - node.parent->children.data());
  return node_path(*node.parent) + "." + std::to_string(position);
}

Json node_summary(const VisibleNode& node, std::size_t max_chars) {
  const NodeSpec& spec = *node.spec;
  const auto cut = [max_chars](const std::string& text) {
    return std::string(utf16_prefix(text, max_chars));
  };
  const std::string text = node.text();
  Json out = Json::object();
  out["nodePath"] = cut(node_path(node));
  out["parentPath"] = node.parent != nullptr ? Json(cut(node_path(*node.parent))) : Json(nullptr);
  out["resourceId"] = cut(spec.resource_id);
  out["className"] = cut(spec.class_name);
  out["role"] = cut(node_role(spec));
  out["label"] = cut(!text.empty() ? text : spec.content_desc);
  out["contentDescription"] = cut(spec.content_desc);
  out["bounds"] = bounds_json(node.bounds);
  out["visibleToUser"] = node.on_screen;
  out["onScreen"] = node.on_screen && node.bounds.width() > 0 && node.bounds.height() > 0;
  out["enabled"] = spec.enabled;
  out["clickable"] = spec.clickable;
  out["checkable"] = spec.checkable;
  out["checked"] = spec.checked;
  out["selected"] = spec.selected;
  out["scrollable"] = spec.scrollable;
  out["accessibilityDataSensitive"] = spec.password;
  return out;
}

}  // namespace clawperator::vdevice::android
