// Small text helpers shared by every layer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clawperator {

constexpr bool is_ascii_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

constexpr bool is_blank_char(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// Without leading and trailing whitespace.
constexpr std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && is_blank_char(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank_char(text.back())) text.remove_suffix(1);
  return text;
}

// The code point of the UTF-8 sequence at `at` of `text` (valid UTF-8: callers judge text
// that was checked, or judge it only for white space), and its length in bytes.
constexpr char32_t decode_utf8_at(std::string_view text, std::size_t at,
                                  std::size_t& length) noexcept {
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

// White space as JavaScript's \s and String.prototype.trim() know it, which is what the
// original's non-blank checks tested: the ASCII blanks, NBSP, U+1680, U+2000..U+200A, the line
// and paragraph separators, U+202F, U+205F, U+3000 and U+FEFF (a BOM shows nothing either).
// U+0085 is not: JavaScript counts it as a control character, as we do (docs/payload.md §3).
constexpr bool is_white_space(char32_t c) noexcept {
  return c == 0x09 || c == 0x0A || c == 0x0B || c == 0x0C || c == 0x0D || c == 0x20 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// Empty or white space only (is_white_space): what every non-blank check refuses.
constexpr bool is_blank(std::string_view text) noexcept {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 1;
    if (!is_white_space(decode_utf8_at(text, at, length))) return false;
    at += length;
  }
  return true;
}

// `code` appended as UTF-8; a surrogate or a value past U+10FFFF as U+FFFD.
inline void append_utf8(std::string& out, std::uint32_t code) {
  if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) code = 0xFFFD;
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

// Without leading and trailing white space as is_white_space knows it: JavaScript's trim().
constexpr std::string_view trim_white_space(std::string_view text) noexcept {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t length = 1;
    if (!is_white_space(decode_utf8_at(text, begin, length))) break;
    begin += length;
  }
  std::size_t end = begin;
  for (std::size_t at = begin; at < text.size();) {
    std::size_t length = 1;
    const bool white = is_white_space(decode_utf8_at(text, at, length));
    at += length;
    if (!white) end = at;
  }
  return text.substr(begin, end - begin);
}

// ASCII lower case; other bytes (UTF-8) unchanged.
inline std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

}  // namespace clawperator
