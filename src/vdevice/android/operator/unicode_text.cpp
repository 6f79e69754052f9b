#include "vdevice/android/operator/unicode_text.hpp"

#include <string>

namespace clawperator::vdevice::android {
namespace {

// One character of `text` at `at`, and where the next one starts. A byte that does not begin
// a well-formed sequence stands for itself (the scenario's text was checked when it was read;
// a payload's by the host), so nothing here can fail.
char32_t next_char(std::string_view text, std::size_t& at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length <= 1 || at + length > text.size()) {
    ++at;
    return lead;
  }
  char32_t value = lead & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) {
      ++at;
      return lead;
    }
    value = (value << 6) | (byte(at + i) & 0x3F);
  }
  at += length;
  return value;
}

}  // namespace

std::size_t utf16_length(std::string_view text) {
  std::size_t units = 0;
  for (std::size_t at = 0; at < text.size();) units += next_char(text, at) > 0xFFFF ? 2 : 1;
  return units;
}

std::string_view utf16_prefix(std::string_view text, std::size_t limit) {
  std::size_t units = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t next = at;
    const std::size_t width = next_char(text, next) > 0xFFFF ? 2 : 1;
    if (units + width > limit) break;
    units += width;
    at = next;
  }
  return text.substr(0, at);
}

}  // namespace clawperator::vdevice::android
