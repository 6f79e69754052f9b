#include "clawperator/contract/matcher_text.hpp"

#include <locale.h>

#include <cwctype>
#include <string>

#include "clawperator/text.hpp"

namespace clawperator::contract {
namespace {

// C.UTF-8 carries Unicode's simple case mappings; without it (a libc that lacks the locale)
// only ASCII changes case.
locale_t unicode_locale() {
  static const locale_t unicode = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return unicode;
}

char32_t lower(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
  const locale_t unicode = unicode_locale();
  if (unicode == static_cast<locale_t>(0)) return c;
  return static_cast<char32_t>(towlower_l(static_cast<wint_t>(c), unicode));
}

// The character's case-blind form: upper, then lower, as Kotlin compares with ignoreCase.
char32_t folded(char32_t c) {
  if (c < 0x80) return lower(c);
  const locale_t unicode = unicode_locale();
  if (unicode == static_cast<locale_t>(0)) return c;
  return lower(static_cast<char32_t>(towupper_l(static_cast<wint_t>(c), unicode)));
}

// Every text compared here was checked as UTF-8 on its way in (a payload, a scenario file, an
// XML dump the parser accepted); decode_utf8_at never reads past the end of one that is not.
std::u32string folded_text(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    out.push_back(folded(decode_utf8_at(text, at, length)));
    at += length;
  }
  return out;
}

}  // namespace

std::u32string case_folded(std::string_view text) {
  return folded_text(text);
}

bool contains_ignoring_case(std::string_view text, std::string_view part) {
  return folded_text(text).find(folded_text(part)) != std::u32string::npos;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return folded_text(a) == folded_text(b);
}

std::string lowercase_unicode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    append_utf8(out, lower(decode_utf8_at(text, at, length)));
    at += length;
  }
  return out;
}

}  // namespace clawperator::contract
