// Small text helpers shared by every layer.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace clawperator {

constexpr bool is_blank_char(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// Without leading and trailing whitespace.
constexpr std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && is_blank_char(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank_char(text.back())) text.remove_suffix(1);
  return text;
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
