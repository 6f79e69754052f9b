// What the report's writers share (private to src/report/): text as XML 1.0 can carry it, and
// times as the reports write them.
#pragma once

#include <string>
#include <string_view>

#include "clawperator/json.hpp"
#include "clawperator/text.hpp"

namespace clawperator::report {

// U+FFFD: in place of a byte that begins no well-formed UTF-8 sequence, and of a character XML
// 1.0 cannot hold.
inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Calls emit(code point, its bytes) for each code point of `text`; a byte that begins no
// well-formed UTF-8 sequence is one U+FFFD.
template <typename Emit>
void for_each_code_point(std::string_view text, Emit&& emit) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if (byte < 0x80) {
      emit(static_cast<char32_t>(byte), text.substr(at, 1));
      ++at;
      continue;
    }
    const std::size_t length = detail::utf8_sequence_length(text.data() + at, text.size() - at);
    if (length == 0) {
      emit(U'\uFFFD', kReplacement);
      ++at;
      continue;
    }
    std::size_t decoded = 0;
    emit(decode_utf8_at(text, at, decoded), text.substr(at, length));
    at += length;
  }
}

// A character XML 1.0 allows (its Char production; surrogates never come out of UTF-8).
constexpr bool xml_char(char32_t c) noexcept {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c != 0xFFFE && c != 0xFFFF);
}

// `text` escaped for XML: & < > always, " in an attribute; in an attribute TAB, LF and CR as
// character references (a parser would read them as spaces), CR also in text (read as LF);
// what XML cannot hold as U+FFFD.
void append_xml(std::string& out, std::string_view text, bool attribute);

// Seconds with three decimals ("0.412"); a negative or non-finite time is 0.
std::string seconds_text(double seconds);

}  // namespace clawperator::report
