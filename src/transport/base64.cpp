#include "clawperator/transport/base64.hpp"

#include <array>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CLAWPERATOR_BASE64_AVX2 1
#endif

namespace clawperator::transport {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kInvalid = 0x80;  // one bit test catches any bad character in a group

constexpr std::array<std::uint8_t, 256> kDecodeTable = [] {
  std::array<std::uint8_t, 256> table{};
  table.fill(kInvalid);
  for (std::size_t value = 0; value < kAlphabet.size(); ++value) {
    table[static_cast<unsigned char>(kAlphabet[value])] = static_cast<std::uint8_t>(value);
  }
  return table;
}();

std::uint8_t sextet(char c) noexcept {
  return kDecodeTable[static_cast<unsigned char>(c)];
}

std::size_t padding_of(std::string_view text) noexcept {
  if (text.ends_with("==")) return 2;
  if (text.ends_with('=')) return 1;
  return 0;
}

#if defined(CLAWPERATOR_BASE64_AVX2)
// Base64 decoding is half of the chunk transport's cost next to SHA-256; AVX2 does it 32
// characters at a time (Muła and Lemire's method: nibble lookups validate and translate, two
// multiply-adds pack). Chosen at run time: the binary must still run on CPUs without AVX2.
bool cpu_has_avx2() noexcept {
  static const bool has_avx2 = __builtin_cpu_supports("avx2") != 0;
  return has_avx2;
}

// Decodes `blocks` blocks of 32 characters into 24 bytes each, storing 32 bytes per block (the
// caller leaves room). False on any character outside the alphabet ('=' included).
__attribute__((target("avx2"))) bool decode_blocks_avx2(const char*& read, char*& write,
                                                        std::size_t blocks) noexcept {
  // Bit sets by low nibble and by high nibble: a character is invalid when they intersect.
  const __m256i lut_lo =
      _mm256_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B,
                       0x1B, 0x1B, 0x1A, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                       0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);
  const __m256i lut_hi =
      _mm256_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10,
                       0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
  // What to add to a character to get its 6-bit value, by high nibble ('/' apart).
  const __m256i lut_roll =
      _mm256_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4, -65,
                       -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i mask_2f = _mm256_set1_epi8(0x2F);
  const __m256i pack_shuffle =
      _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10,
                       9, 8, 14, 13, 12, -1, -1, -1, -1);
  const __m256i pack_lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, -1, -1);
  for (; blocks > 0; --blocks) {
    __m256i text = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(read));
    const __m256i hi_nibbles = _mm256_and_si256(_mm256_srli_epi32(text, 4), mask_2f);
    const __m256i lo_nibbles = _mm256_and_si256(text, mask_2f);
    const __m256i hi = _mm256_shuffle_epi8(lut_hi, hi_nibbles);
    const __m256i lo = _mm256_shuffle_epi8(lut_lo, lo_nibbles);
    if (_mm256_testz_si256(lo, hi) == 0) return false;
    const __m256i eq_2f = _mm256_cmpeq_epi8(text, mask_2f);
    const __m256i roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(eq_2f, hi_nibbles));
    text = _mm256_add_epi8(text, roll);
    // Four 6-bit values -> 24 bits per 32-bit lane, then 12 bytes per 128-bit lane.
    const __m256i pairs = _mm256_maddubs_epi16(text, _mm256_set1_epi32(0x01400140));
    __m256i bytes = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    bytes = _mm256_shuffle_epi8(bytes, pack_shuffle);
    bytes = _mm256_permutevar8x32_epi32(bytes, pack_lanes);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(write), bytes);
    read += 32;
    write += 24;
  }
  return true;
}
#endif

}  // namespace

std::string encode_base64(std::string_view bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t pos = 0;
  for (; pos + 3 <= bytes.size(); pos += 3) {
    const std::uint32_t group =
        static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos])) << 16 |
        static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos + 1])) << 8 |
        static_cast<unsigned char>(bytes[pos + 2]);
    text += kAlphabet[group >> 18 & 0x3F];
    text += kAlphabet[group >> 12 & 0x3F];
    text += kAlphabet[group >> 6 & 0x3F];
    text += kAlphabet[group & 0x3F];
  }
  const std::size_t rest = bytes.size() - pos;
  if (rest > 0) {
    std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos])) << 16;
    if (rest == 2) {
      group |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[pos + 1])) << 8;
    }
    text += kAlphabet[group >> 18 & 0x3F];
    text += kAlphabet[group >> 12 & 0x3F];
    text += rest == 2 ? kAlphabet[group >> 6 & 0x3F] : '=';
    text += '=';
  }
  return text;
}

std::optional<std::size_t> base64_decoded_size(std::string_view text) noexcept {
  if (text.size() % 4 != 0) return std::nullopt;
  const std::size_t padding = padding_of(text);
  // '=' anywhere but the last one or two places is never canonical.
  if (text.substr(0, text.size() - padding).find('=') != std::string_view::npos) {
    return std::nullopt;
  }
  return text.size() / 4 * 3 - padding;
}

bool append_base64_decoded(std::string_view text, std::string& out) {
  const std::optional<std::size_t> decoded_size = base64_decoded_size(text);
  if (!decoded_size) return false;
  if (text.empty()) return true;

  const std::size_t original_size = out.size();
  out.resize(original_size + *decoded_size);
  char* write = out.data() + original_size;
  std::size_t full_groups = text.size() / 4 - 1;  // the last group may carry padding
  const char* read = text.data();
#if defined(CLAWPERATOR_BASE64_AVX2)
  // Each block stores 32 bytes for its 24: the last store must end within the full groups'
  // output (24 * blocks + 8 <= 3 * full_groups); the scalar loop overwrites the excess.
  const std::size_t blocks = full_groups * 3 >= 32 ? (full_groups * 3 - 8) / 24 : 0;
  if (blocks > 0 && cpu_has_avx2()) {
    if (!decode_blocks_avx2(read, write, blocks)) {
      out.resize(original_size);
      return false;
    }
    full_groups -= blocks * 8;
  }
#endif
  for (std::size_t group = 0; group < full_groups; ++group, read += 4) {
    const std::uint8_t a = sextet(read[0]);
    const std::uint8_t b = sextet(read[1]);
    const std::uint8_t c = sextet(read[2]);
    const std::uint8_t d = sextet(read[3]);
    if ((a | b | c | d) & kInvalid) {
      out.resize(original_size);
      return false;
    }
    const std::uint32_t bits =
        std::uint32_t{a} << 18 | std::uint32_t{b} << 12 | std::uint32_t{c} << 6 | d;
    *write++ = static_cast<char>(bits >> 16);
    *write++ = static_cast<char>(bits >> 8 & 0xFF);
    *write++ = static_cast<char>(bits & 0xFF);
  }

  const std::size_t padding = padding_of(text);
  const std::uint8_t a = sextet(read[0]);
  const std::uint8_t b = sextet(read[1]);
  const std::uint8_t c = padding == 2 ? 0 : sextet(read[2]);
  const std::uint8_t d = padding >= 1 ? 0 : sextet(read[3]);
  // Canonical text leaves the bits below the last decoded byte at zero.
  const bool stray_bits = (padding == 2 && (b & 0x0F) != 0) || (padding == 1 && (c & 0x03) != 0);
  if (((a | b | c | d) & kInvalid) || stray_bits) {
    out.resize(original_size);
    return false;
  }
  const std::uint32_t bits =
      std::uint32_t{a} << 18 | std::uint32_t{b} << 12 | std::uint32_t{c} << 6 | d;
  *write++ = static_cast<char>(bits >> 16);
  if (padding < 2) *write++ = static_cast<char>(bits >> 8 & 0xFF);
  if (padding < 1) *write = static_cast<char>(bits & 0xFF);
  return true;
}

std::optional<std::string> decode_base64(std::string_view text) {
  std::string bytes;
  if (!append_base64_decoded(text, bytes)) return std::nullopt;
  return bytes;
}

}  // namespace clawperator::transport

// Not for the file after this one in a unity batch (cmake/ClawperatorUnity.cmake).
#undef CLAWPERATOR_BASE64_AVX2
