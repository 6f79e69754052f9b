// What the JSON reader and writer share: byte classes, the SIMD scan for the
// bytes a string cannot hold as they are, bulk copies, and UTF-8 as nlohmann
// judges it. Internal to src/json/.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CLAWPERATOR_JSON_AVX2 1
#endif

namespace clawperator::json_scan {

using Byte = unsigned char;

inline Byte byte_at(const char* p) noexcept {
  return static_cast<Byte>(*p);
}

inline bool is_string_special(Byte c) noexcept {
  return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
}

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at p is special (see is_string_special).
inline unsigned special_mask16(const char* p) noexcept {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // A signed compare: bytes >= 0x80 are negative, so one test catches them and the controls.
  const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))),
                                       _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20)));
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}

inline void copy16(char* to, const char* from) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(to),
                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
}

inline std::uint64_t special_mask64(const char* p) noexcept {
  return std::uint64_t{special_mask16(p)} | std::uint64_t{special_mask16(p + 16)} << 16 |
         std::uint64_t{special_mask16(p + 32)} << 32 | std::uint64_t{special_mask16(p + 48)} << 48;
}

// Copies `length` (<= 64) bytes in 16-byte pieces: reads and writes up to 15 bytes past both
// ends, which callers leave room for.
inline void copy_run(char* to, const char* from, std::size_t length) noexcept {
  for (std::size_t i = 0; i < length; i += 16) copy16(to + i, from + i);
}
#endif

#if defined(CLAWPERATOR_JSON_AVX2)
// Long strings (base64 chunk data, snapshot XML) are mostly plain bytes: AVX2 halves the cost of
// finding their end. Chosen at run time: the binary must still run on CPUs without AVX2.
inline bool cpu_has_avx2() noexcept {
  static const bool has_avx2 = __builtin_cpu_supports("avx2") != 0;
  return has_avx2;
}

__attribute__((target("avx2"))) inline std::uint32_t special_mask32(const char* p) noexcept {
  const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  // Signed: bytes >= 0x80 are negative, so "below 0x20" catches them with the controls.
  const __m256i special =
      _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('"')),
                                      _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('\\'))),
                      _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), bytes));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(special));
}

// Advances p to the first special byte and returns true, or returns false with p where fewer
// than 64 bytes are left to look at.
__attribute__((target("avx2"))) inline bool find_special_avx2(const char*& p,
                                                              const char* end) noexcept {
  while (end - p >= 64) {
    const std::uint64_t mask =
        std::uint64_t{special_mask32(p)} | std::uint64_t{special_mask32(p + 32)} << 32;
    if (mask != 0) {
      p += std::countr_zero(mask);
      return true;
    }
    p += 64;
  }
  return false;
}
#endif

// Window loops: 64 bytes are classified at once and the common escapes handled inline, because
// reloading after each escape chains every step's load to the previous step's result.
// The reader's loop (unescaping) and the writer's (escaping) have the same shape and stay two
// loops on purpose: one template for both, with the escape step as a lambda, measured 4-8%
// slower on XML-dense text (g++ 12 -O3, 2026-11-30), the result decoder's hot path.
constexpr std::size_t kWindowBytes = 64;
// A window reads up to 15 bytes past itself (copy_run) and writes at most 2 bytes per input byte.
constexpr std::size_t kWindowReadBytes = kWindowBytes + 16;
constexpr std::size_t kWindowStageRoom = 2 * kWindowBytes + 16;

// What a two-character escape stands for, by its second character; 0 when it is not one (\u,
// or invalid).
constexpr std::array<char, 256> kSimpleUnescape = [] {
  std::array<char, 256> table{};
  table['"'] = '"';
  table['\\'] = '\\';
  table['/'] = '/';
  table['b'] = '\b';
  table['f'] = '\f';
  table['n'] = '\n';
  table['r'] = '\r';
  table['t'] = '\t';
  return table;
}();

// The letter nlohmann escapes a byte with (\" \\ \b \t \n \f \r); 0 for every other byte.
constexpr std::array<char, 256> kEscapeLetter = [] {
  std::array<char, 256> table{};
  table['"'] = '"';
  table['\\'] = '\\';
  table['\b'] = 'b';
  table['\t'] = 't';
  table['\n'] = 'n';
  table['\f'] = 'f';
  table['\r'] = 'r';
  return table;
}();

// ----------------------------------------------------------------------------------------------
// UTF-8, as nlohmann's lexer and serializer judge it (Unicode table 3-7: no overlong forms, no
// surrogates, nothing above U+10FFFF).

struct Utf8Step {
  std::size_t length;  // valid: the sequence; invalid: the bytes one U+FFFD stands for (>= 1)
  bool valid;
};

// `bytes` starts with a byte >= 0x80. An invalid sequence is cut before the first byte that
// cannot continue it (that byte is read again as a new start), or at its lead byte when the
// lead itself is invalid: where nlohmann's serializer resumes after a replacement.
inline Utf8Step utf8_step(const Byte* bytes, std::size_t available) noexcept {
  const Byte lead = bytes[0];
  std::size_t length = 0;
  Byte second_low = 0x80;
  Byte second_high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_low = 0xA0;
    if (lead == 0xED) second_high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_low = 0x90;
    if (lead == 0xF4) second_high = 0x8F;
  } else {
    return {1, false};
  }
  for (std::size_t i = 1; i < length; ++i) {
    if (i >= available) return {i, false};
    const Byte low = i == 1 ? second_low : Byte{0x80};
    const Byte high = i == 1 ? second_high : Byte{0xBF};
    if (bytes[i] < low || bytes[i] > high) return {i, false};
  }
  return {length, true};
}

inline char* write_utf8(char* out, std::uint32_t codepoint) noexcept {
  if (codepoint < 0x80) {
    *out++ = static_cast<char>(codepoint);
  } else if (codepoint < 0x800) {
    *out++ = static_cast<char>(0xC0 | (codepoint >> 6));
    *out++ = static_cast<char>(0x80 | (codepoint & 0x3F));
  } else if (codepoint < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (codepoint >> 12));
    *out++ = static_cast<char>(0x80 | ((codepoint >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (codepoint & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (codepoint >> 18));
    *out++ = static_cast<char>(0x80 | ((codepoint >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((codepoint >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (codepoint & 0x3F));
  }
  return out;
}

// A string longer than this reserves the rest of its room once instead of growing by copies.
constexpr std::size_t kLongStringBytes = std::size_t{64} << 10;
// Strings are staged in blocks of this size before they are appended.
constexpr std::size_t kStageBytes = 4096;
// Each step of the escape loops writes at most 16 + 15 bytes past the staging position.
constexpr std::size_t kStageMargin = 32;

}  // namespace clawperator::json_scan
