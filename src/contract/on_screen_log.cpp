#include "clawperator/contract/on_screen_log.hpp"

#include <algorithm>
#include <array>

#include "clawperator/text.hpp"

namespace clawperator::contract::on_screen_log {
namespace {

constexpr std::array<std::string_view, 9> kPlaceholders = {
    "foreground_app.icon",         "foreground_app.package_name", "foreground_app.version_code",
    "foreground_app.version_name", "device.manufacturer",         "device.model",
    "system.language_code",        "system.language_tag",         "system.language_name",
};

std::string grammar_message(std::size_t offset, std::string_view what) {
  std::string names;
  for (const std::string_view name : kPlaceholders) {
    names += (names.empty() ? "" : ", ") + std::string("{{") + std::string(name) + "}}";
  }
  return "Invalid template placeholder (" + std::string(what) + " at offset " +
         std::to_string(offset) + "); supported names: " + names +
         ". Escape delimiters as {{{{ and }}}}.";
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

char upper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

bool is_forbidden_control(char32_t c) {
  if (c == '\n' || c == '\t') return false;
  return c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

}  // namespace

std::span<const std::string_view> placeholder_names() {
  return kPlaceholders;
}

Expected<std::vector<TemplatePiece>, TemplateError> parse_template(std::string_view text) {
  std::vector<TemplatePiece> pieces;
  std::string literal;
  auto flush = [&] {
    if (literal.empty()) return;
    pieces.push_back({false, std::move(literal)});
    literal.clear();
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::string_view rest = text.substr(at);
    if (rest.starts_with("{{{{") || rest.starts_with("}}}}")) {
      literal += rest.substr(0, 2);
      at += 4;
    } else if (rest.starts_with("{{")) {
      const std::size_t close = text.find("}}", at + 2);
      if (close == std::string_view::npos) {
        return Unexpected{TemplateError{at, grammar_message(at, "an unclosed {{")}};
      }
      const std::string_view name = text.substr(at + 2, close - at - 2);
      if (std::find(kPlaceholders.begin(), kPlaceholders.end(), name) == kPlaceholders.end()) {
        return Unexpected{TemplateError{at, grammar_message(at, "an unknown name")}};
      }
      flush();
      pieces.push_back({true, std::string(name)});
      at = close + 2;
    } else if (rest.starts_with("}}")) {
      return Unexpected{TemplateError{at, grammar_message(at, "a stray }}")}};
    } else {
      literal += text[at];
      ++at;
    }
  }
  flush();
  return pieces;
}

std::optional<std::string> normalize_color(std::string_view text) {
  if ((text.size() != 7 && text.size() != 9) || text.front() != '#') return std::nullopt;
  if (!std::all_of(text.begin() + 1, text.end(), is_hex)) return std::nullopt;
  std::string out = text.size() == 7 ? "#FF" : "#";
  for (const char c : text.substr(1)) out += upper(c);
  return out;
}

Expected<void, Problem> check_display_text(std::string_view text) {
  bool readable = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    const char32_t c = decode_utf8_at(text, at, length);
    if (is_forbidden_control(c)) {
      return Unexpected(
          Problem{"", "must not contain control characters other than newline and tab"});
    }
    readable = readable || !is_white_space(c);
    at += length;
  }
  if (!readable) return Unexpected(Problem{"", "must contain a non-whitespace character"});
  return {};
}

}  // namespace clawperator::contract::on_screen_log
