#include "clawperator/contract/redaction.hpp"

#include <algorithm>
#include <string_view>

#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

// A member that names a file of this host or carries a program's raw output. A key ending in
// "path" holds a host file when its value is absolute ("/…", "~/…") or not a string at all;
// a relative one is a place inside something the answer describes (a validation error's
// `details.path` "actions.0.params.text", a node's "0.1.2", a bundle's "hierarchy.xml", a
// skill's "skills/com.x"), which the caller needs.
bool redacted_member(std::string_view key, const Json& value) {
  const std::string lower = lowercase(key);
  constexpr std::string_view kPath = "path";
  if (lower.size() >= kPath.size() &&
      lower.compare(lower.size() - kPath.size(), kPath.size(), kPath) == 0) {
    if (!value.is_string()) return !value.is_null();
    const std::string& text = value.get_ref<const std::string&>();
    return !text.empty() && (text.front() == '/' || text.front() == '~');
  }
  return lower == "command" || lower == "stdout" || lower == "stderr" || lower == "stack";
}

// Where a path mentioned in text starts and ends: after a separator, up to the next one.
bool path_boundary(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == '(' || c == ')' ||
         c == ',' || c == ';' || c == '=' || c == '[' || c == ']' || c == '<' || c == '>';
}

bool under_root(std::string_view text, std::size_t at, const std::string& root) {
  if (text.compare(at, root.size(), root) != 0) return false;
  const std::size_t end = at + root.size();
  return end == text.size() || text[end] == '/' || path_boundary(text[end]) || text[end] == ':';
}

}  // namespace

HostRedaction::HostRedaction(std::vector<std::string> roots) {
  for (std::string& root : roots) {
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (root.size() > 1 && root.front() == '/') roots_.push_back(std::move(root));
  }
  // The longest first: a root inside another is replaced whole.
  std::sort(roots_.begin(), roots_.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  roots_.erase(std::unique(roots_.begin(), roots_.end()), roots_.end());
}

void HostRedaction::scrub(std::string& text) const {
  if (roots_.empty() || text.find('/') == std::string::npos) return;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const bool token_start = at == 0 || path_boundary(text[at - 1]) || text[at - 1] == ':';
    bool replaced = false;
    if (token_start && text[at] == '/') {
      for (const std::string& root : roots_) {
        if (!under_root(text, at, root)) continue;
        std::size_t end = at;
        while (end < text.size() && !path_boundary(text[end])) ++end;
        // A trailing ':' or '.' is the sentence's, not the path's.
        while (end > at + root.size() && (text[end - 1] == ':' || text[end - 1] == '.')) --end;
        out += "<host path>";
        at = end;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += text[at++];
  }
  text = std::move(out);
}

Json HostRedaction::apply(Json value) const {
  if (value.is_string()) {
    scrub(value.get_ref<std::string&>());
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      if (redacted_member(it.key(), it.value())) {
        it = value.erase(it);
      } else {
        it.value() = apply(std::move(it.value()));
        ++it;
      }
    }
  } else if (value.is_array()) {
    for (Json& item : value) item = apply(std::move(item));
  }
  return value;
}

}  // namespace clawperator::contract
