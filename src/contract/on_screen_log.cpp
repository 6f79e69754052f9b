#include "clawperator/contract/on_screen_log.hpp"

#include <algorithm>
#include <array>

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

// The code point of the UTF-8 sequence at `at`, and its length.
char32_t decode(std::string_view text, std::size_t at, std::size_t& length) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x80) {
    length = 1;
    return byte;
  }
  const std::size_t size = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2;
  char32_t code = byte & (size == 2 ? 0x1F : size == 3 ? 0x0F : 0x07);
  length = 1;
  for (; length < size && at + length < text.size(); ++length) {
    code = (code << 6) | (static_cast<unsigned char>(text[at + length]) & 0x3F);
  }
  return code;
}

// JavaScript's \s: what the original's "at least one non-whitespace character" tests.
bool is_whitespace(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x20 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
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

std::optional<std::string> display_text_problem(std::string_view text) {
  bool readable = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    const char32_t c = decode(text, at, length);
    if (is_forbidden_control(c)) {
      return "must not contain control characters other than newline and tab";
    }
    readable = readable || !is_whitespace(c);
    at += length;
  }
  if (!readable) return "must contain a non-whitespace character";
  return std::nullopt;
}

}  // namespace clawperator::contract::on_screen_log
