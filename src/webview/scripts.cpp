#include "clawperator/webview/scripts.hpp"

#include "clawperator/json.hpp"

namespace clawperator::webview {
namespace {

// Shared by every script: the selector's matches, or the selector's own SyntaxError, and a
// bounded description of one element. `innerText` is what a person reads (hidden text left
// out); an element without layout (innerText undefined in SVG) falls back to textContent.
std::string prelude(std::string_view css) {
  const std::string limit = std::to_string(kMaxTextLength);
  return "const css = " + dump_json(Json(std::string(css))) +
         ";\n"
         "let all;\n"
         "try { all = document.querySelectorAll(css); }\n"
         "catch (e) { return {invalidSelector: String(e && e.message || e)}; }\n"
         "const cut = (s) => s.length > " +
         limit + " ? s.slice(0, " + limit +
         ") : s;\n"
         "const describe = (e) => {\n"
         "  const r = e.getBoundingClientRect();\n"
         "  const attributes = {};\n"
         "  for (const a of e.attributes) attributes[a.name] = cut(a.value);\n"
         "  const text = String(e.innerText ?? e.textContent ?? '').trim();\n"
         "  return {tag: e.tagName.toLowerCase(), text: cut(text),\n"
         "          textTruncated: text.length > " +
         limit +
         ", attributes,\n"
         "          bounds: {x: r.x, y: r.y, width: r.width, height: r.height}};\n"
         "};\n"
         "const several = () => ({count: all.length, innerWidth: window.innerWidth,\n"
         "  matches: Array.from(all).slice(0, " +
         std::to_string(kMaxDescribedMatches) + ").map(describe)});\n";
}

std::string wrapped(std::string body) {
  return "(() => {\n" + body + "})()";
}

}  // namespace

std::string query_script(std::string_view css) {
  return wrapped(prelude(css) + "return several();\n");
}

std::string click_target_script(std::string_view css) {
  return wrapped(prelude(css) +
                 "if (all.length !== 1) return several();\n"
                 "const e = all[0];\n"
                 "e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});\n"
                 "const match = describe(e);\n"
                 "return {count: 1, innerWidth: window.innerWidth, match,\n"
                 "        x: match.bounds.x + match.bounds.width / 2,\n"
                 "        y: match.bounds.y + match.bounds.height / 2};\n");
}

std::string focus_script(std::string_view css, bool clear) {
  std::string body = prelude(css) +
                     "if (all.length !== 1) return several();\n"
                     "const e = all[0];\n"
                     "e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});\n"
                     "e.focus();\n";
  if (clear) {
    body +=
        "if ('value' in e) { e.value = ''; }\n"
        "else if (e.isContentEditable) { e.textContent = ''; }\n"
        "e.dispatchEvent(new Event('input', {bubbles: true}));\n";
  }
  body +=
      "return {count: 1, innerWidth: window.innerWidth, match: describe(e),\n"
      "        focused: document.activeElement === e};\n";
  return wrapped(std::move(body));
}

std::string count_script(std::string_view css) {
  return wrapped(prelude(css) + "return {count: all.length};\n");
}

std::string labels_script(std::string_view css) {
  return wrapped(
      prelude(css) +
      "const words = (e) => {\n"
      "  const out = [];\n"
      "  const add = (s) => { s = String(s ?? '').trim(); if (s) out.push(cut(s)); };\n"
      "  const own = (x) => {\n"
      "    add(x.innerText ?? x.textContent);\n"
      "    for (const n of ['id', 'name', 'aria-label', 'title', 'alt', 'placeholder'])\n"
      "      add(x.getAttribute(n));\n"
      "    if (x instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(x.type))\n"
      "      add(x.value);\n"
      "    if (x.labels) for (const l of x.labels) add(l.innerText ?? l.textContent);\n"
      "  };\n"
      "  own(e);\n"
      "  const active = e.parentElement &&\n"
      "    e.parentElement.closest('a, button, label, [role=button], [role=link]');\n"
      "  if (active) own(active);\n"
      "  return out;\n"
      "};\n"
      "return {count: all.length, labels: Array.from(all).slice(0, " +
      std::to_string(kMaxDescribedMatches) + ").map(words)};\n");
}

}  // namespace clawperator::webview
