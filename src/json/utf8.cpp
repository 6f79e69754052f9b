#include "clawperator/utf8.hpp"

#include <fmt/core.h>

#include "scan.hpp"

namespace clawperator {
namespace {

using json_scan::Byte;
using json_scan::byte_at;

// The first byte >= 0x80 in [p, end), or end.
const char* skip_ascii(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
  // Payloads are mostly ASCII: one test per 64 bytes until a window holds something else.
  while (end - p >= 64) {
    const auto load = [p](int at) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    };
    const __m128i any =
        _mm_or_si128(_mm_or_si128(load(0), load(16)), _mm_or_si128(load(32), load(48)));
    if (_mm_movemask_epi8(any) != 0) break;
    p += 64;
  }
  while (end - p >= 16) {
    const unsigned high = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
    if (high != 0) return p + std::countr_zero(high);
    p += 16;
  }
#endif
  while (p != end && byte_at(p) < 0x80) ++p;
  return p;
}

std::optional<InvalidUtf8String> find_in(const Json& value, const std::string& path) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    const auto offset = find_invalid_utf8(text);
    if (!offset) return std::nullopt;
    return InvalidUtf8String{path, *offset, describe_invalid_utf8(text, *offset)};
  }
  const auto below = [&path](std::string_view step) {
    return path.empty() ? std::string(step) : path + "." + std::string(step);
  };
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      if (auto found = find_in(member, below(key))) return found;
    }
  } else if (value.is_array()) {
    for (std::size_t index = 0; index < value.size(); ++index) {
      if (auto found = find_in(value[index], below(std::to_string(index)))) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> find_invalid_utf8(std::string_view text) noexcept {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = skip_ascii(begin, end);
  while (p != end) {
    const json_scan::Utf8Step step =
        json_scan::utf8_step(reinterpret_cast<const Byte*>(p), static_cast<std::size_t>(end - p));
    if (!step.valid) return static_cast<std::size_t>(p - begin);
    p += step.length;
    // Text with one non-ASCII character usually has more close by.
    p = p != end && byte_at(p) >= 0x80 ? p : skip_ascii(p, end);
  }
  return std::nullopt;
}

std::string describe_invalid_utf8(std::string_view text, std::size_t offset) {
  return fmt::format("byte 0x{:02X} at offset {}", static_cast<Byte>(text.at(offset)), offset);
}

std::optional<InvalidUtf8String> find_invalid_utf8_string(const Json& document) {
  return find_in(document, "");
}

}  // namespace clawperator
