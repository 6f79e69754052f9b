// The on-screen log panel's text rules (docs/payload.md §9): the template grammar, the colour
// form and what counts as readable text. Pure; validation checks a payload with it before
// anything is sent, and the virtual device expands templates with the same parser.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::contract::on_screen_log {

// The closed set of placeholder names, as written between {{ and }}.
std::span<const std::string_view> placeholder_names();

// A template read: literal text (escapes resolved) and placeholders, in order.
struct TemplatePiece {
  bool placeholder = false;
  std::string text;  // the literal text, or the placeholder's name
};

struct TemplateError {
  std::size_t offset = 0;  // of the offending "{{" or "}}", in bytes
  std::string message;
};

// {{{{ and }}}} are a literal {{ and }}; {{name}} must name one of placeholder_names(); a
// stray }} or an unknown or unclosed name is an error. Single braces are literal.
Expected<std::vector<TemplatePiece>, TemplateError> parse_template(std::string_view text);

// "#RRGGBB" or "#AARRGGBB" (hex digits in any case) as "#AARRGGBB" upper case, a 6-digit
// colour opaque (#a1b2c3 -> #FFA1B2C3); nullopt for anything else (nothing is trimmed).
std::optional<std::string> normalize_color(std::string_view text);

// Why `text` cannot be shown as the panel's text, if it cannot: it must hold a character that
// is not Unicode whitespace (U+FEFF counts as whitespace) and no control character other
// than newline and tab. The message continues the caller's sentence ("must not contain …"); no
// path. Precondition: `text` is valid UTF-8.
Expected<void, Problem> check_display_text(std::string_view text);

}  // namespace clawperator::contract::on_screen_log
