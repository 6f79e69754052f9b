// parse_json: a recursive reader that builds nlohmann values directly, with
// nlohmann's own parser as the fallback for documents nested too deeply.
#include <algorithm>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <utility>
#include <vector>

#include "clawperator/json.hpp"
#include "scan.hpp"

// The parser appends members to an object's underlying vector directly; with diagnostics
// nlohmann would also need each child's parent pointer set.
static_assert(JSON_DIAGNOSTICS == 0, "parse_json does not maintain JSON_DIAGNOSTICS parents");

namespace clawperator {
namespace {

using namespace json_scan;

// Past this depth the recursive parser hands the document to nlohmann's, which keeps its own
// stack on the heap: a hostile document must not overflow ours, and must still get the same
// answer.
constexpr std::size_t kMaxRecursionDepth = 512;

// Objects with more members than this find duplicate keys through a hash index, so that a
// hostile object with a million keys does not cost a million squared comparisons.
constexpr std::size_t kLinearKeySearchLimit = 16;

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at p (which has at least 4 bytes), or -1.
int read_hex4(const char* p) noexcept {
  int value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = hex_value(p[i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

class Parser {
 public:
  explicit Parser(std::string_view text) noexcept
      : p_(text.data()), end_(text.data() + text.size()) {}

  enum class Outcome { Parsed, Invalid, TooDeep };

  Outcome parse(Json& result) {
    if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
    if (!read_value(result, 0)) return too_deep_ ? Outcome::TooDeep : Outcome::Invalid;
    skip_whitespace();
    // nlohmann's lexer reads a NUL byte outside strings as the end of the input (it also parses
    // C strings), so whatever follows one is never looked at.
    return p_ == end_ || *p_ == '\0' ? Outcome::Parsed : Outcome::Invalid;
  }

 private:
  void skip_whitespace() noexcept {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool consume(char expected) noexcept {
    skip_whitespace();
    if (p_ == end_ || *p_ != expected) return false;
    ++p_;
    return true;
  }

  bool read_literal(std::string_view literal) noexcept {
    if (static_cast<std::size_t>(end_ - p_) < literal.size() ||
        std::memcmp(p_, literal.data(), literal.size()) != 0) {
      return false;
    }
    p_ += literal.size();
    return true;
  }

  bool read_value(Json& out, std::size_t depth) {
    skip_whitespace();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
      case '[':
        if (depth >= kMaxRecursionDepth) {
          too_deep_ = true;
          return false;
        }
        return *p_ == '{' ? read_object(out, depth) : read_array(out, depth);
      case '"': {
        ++p_;
        std::string text;
        if (!read_string(text)) return false;
        out = std::move(text);
        return true;
      }
      case 't':
        out = true;
        return read_literal("true");
      case 'f':
        out = false;
        return read_literal("false");
      case 'n':
        out = nullptr;
        return read_literal("null");
      default:
        return read_number(out);
    }
  }

  bool read_array(Json& out, std::size_t depth) {
    ++p_;
    out = Json::array();
    auto& elements = out.get_ref<Json::array_t&>();
    skip_whitespace();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    while (true) {
      elements.emplace_back();
      if (!read_value(elements.back(), depth + 1)) return false;
      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return true;
    }
  }

  bool read_object(Json& out, std::size_t depth) {
    ++p_;
    out = Json::object();
    // Members are gathered with mutable keys first: the object's own storage holds
    // pair<const string, json>, which a growing vector copies (deeply) instead of moving.
    std::vector<std::pair<std::string, Json>> members;
    std::unordered_map<std::string, std::size_t> index;  // past kLinearKeySearchLimit
    skip_whitespace();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    while (true) {
      if (!consume('"')) return false;
      std::string key;
      if (!read_string(key)) return false;
      if (!consume(':')) return false;
      Json value;
      if (!read_value(value, depth + 1)) return false;

      // nlohmann's operator[] semantics: a repeated key keeps its place, takes the new value.
      std::size_t existing = members.size();
      if (members.size() <= kLinearKeySearchLimit) {
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (members[i].first == key) {
            existing = i;
            break;
          }
        }
      } else {
        if (index.empty()) {
          for (std::size_t i = 0; i < members.size(); ++i) index.emplace(members[i].first, i);
        }
        if (const auto it = index.find(key); it != index.end()) existing = it->second;
      }
      if (existing < members.size()) {
        members[existing].second = std::move(value);
      } else {
        if (!index.empty()) index.emplace(key, members.size());
        members.emplace_back(std::move(key), std::move(value));
      }

      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      auto& storage = static_cast<Json::object_t::Container&>(out.get_ref<Json::object_t&>());
      storage.reserve(members.size());
      for (auto& [name, member] : members) storage.emplace_back(std::move(name), std::move(member));
      return true;
    }
  }

  // After the opening quote. The common string has no escapes: one scan, then one copy of
  // exactly its size.
  bool read_string(std::string& out) {
    const char* start = p_;
    const char* p = p_;
    while (true) {
      p = detail::find_json_string_special(p, end_);
      if (p == end_) return false;
      const Byte c = byte_at(p);
      if (c == '"') {
        out.assign(start, p);
        p_ = p + 1;
        return true;
      }
      if (c == '\\') break;
      if (c < 0x20) return false;
      do {
        const std::size_t length =
            detail::utf8_sequence_length(p, static_cast<std::size_t>(end_ - p));
        if (length == 0) return false;
        p += length;
      } while (p != end_ && byte_at(p) >= 0x80);
    }
    out.assign(start, p);
    p_ = p;
    return read_escaped_rest(out);
  }

  // A string that reserved the rest of the input but ended long before it gives the rest back.
  static void release_slack(std::string& out) {
    if (out.capacity() - out.size() > out.size() / 4 + kStageBytes) out.shrink_to_fit();
  }

  // Decodes through a small staging buffer that takes whole 16-byte blocks unconditionally,
  // so that text dense with escapes (XML's \" every few bytes) costs no call per run.
  bool read_escaped_rest(std::string& out) {
    const char* p = p_;
    bool reserved = false;
    char* const stage = stage_.data();
    char* const stage_limit = stage + kStageBytes - kStageMargin;
    char* dst = stage;
    while (true) {
      if (dst >= stage_limit) {
        const auto staged = static_cast<std::size_t>(dst - stage);
        if (!reserved && out.size() + staged > kLongStringBytes) {
          // The rest of the input bounds the rest of the string: one allocation, no regrowth.
          reserved = true;
          out.reserve(out.size() + staged + static_cast<std::size_t>(end_ - p));
        }
        out.append(stage, staged);
        dst = stage;
      }
#if defined(__SSE2__)
      if (static_cast<std::size_t>(end_ - p) >= kWindowReadBytes &&
          static_cast<std::size_t>(stage + kStageBytes - dst) >= kWindowStageRoom) {
        std::uint64_t mask = special_mask64(p);
        std::size_t done = 0;  // window bytes consumed
        bool stopped = false;  // at a special the general step below must handle
        while (mask != 0) {
          const auto at = static_cast<std::size_t>(std::countr_zero(mask));
          copy_run(dst, p + done, at - done);
          dst += at - done;
          done = at;
          // The escaped character must lie in this window: at + 1 < 64.
          const char unescaped =
              p[at] == '\\' && at + 1 < kWindowBytes ? kSimpleUnescape[byte_at(p + at + 1)] : 0;
          if (unescaped == 0) {
            stopped = true;
            break;
          }
          *dst++ = unescaped;
          done = at + 2;
          // The escaped character is text, not a special of its own.
          mask &= ~(std::uint64_t{3} << at);
        }
        if (!stopped) {
          copy_run(dst, p + done, kWindowBytes - done);
          dst += kWindowBytes - done;
          p += kWindowBytes;
          continue;
        }
        p += done;
      } else if (end_ - p >= 16) {
        copy16(dst, p);
        const unsigned mask = special_mask16(p);
        if (mask == 0) {
          p += 16;
          dst += 16;
          continue;
        }
        const int run = std::countr_zero(mask);
        p += run;
        dst += run;
      } else
#endif
      {
        // At most 16 bytes per step, so that the staging margin holds.
        const char* const run_end = end_ - p > 16 ? p + 16 : end_;
        while (p != run_end && !is_string_special(byte_at(p))) *dst++ = *p++;
        if (p == end_) return false;
        if (p == run_end) continue;
      }

      const Byte c = byte_at(p);
      if (c == '"') {
        out.append(stage, static_cast<std::size_t>(dst - stage));
        if (reserved) release_slack(out);
        p_ = p + 1;
        return true;
      }
      if (c == '\\') {
        if (end_ - p < 2) return false;
        const char escaped = p[1];
        p += 2;
        switch (escaped) {
          case '"':
          case '\\':
          case '/':
            *dst++ = escaped;
            break;
          case 'b':
            *dst++ = '\b';
            break;
          case 'f':
            *dst++ = '\f';
            break;
          case 'n':
            *dst++ = '\n';
            break;
          case 'r':
            *dst++ = '\r';
            break;
          case 't':
            *dst++ = '\t';
            break;
          case 'u': {
            if (end_ - p < 4) return false;
            const int first = read_hex4(p);
            if (first < 0) return false;
            p += 4;
            auto codepoint = static_cast<std::uint32_t>(first);
            if (codepoint >= 0xD800 && codepoint <= 0xDBFF) {
              if (end_ - p < 6 || p[0] != '\\' || p[1] != 'u') return false;
              const int second = read_hex4(p + 2);
              if (second < 0xDC00 || second > 0xDFFF) return false;
              p += 6;
              codepoint = 0x10000 + ((codepoint - 0xD800) << 10) +
                          (static_cast<std::uint32_t>(second) - 0xDC00);
            } else if (codepoint >= 0xDC00 && codepoint <= 0xDFFF) {
              return false;
            }
            dst = write_utf8(dst, codepoint);
            break;
          }
          default:
            return false;
        }
        continue;
      }
      if (c < 0x20) return false;
      const std::size_t length =
          detail::utf8_sequence_length(p, static_cast<std::size_t>(end_ - p));
      if (length == 0) return false;
      std::memcpy(dst, p, length);
      dst += length;
      p += length;
    }
  }

  bool read_number(Json& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    const auto is_digit = [this] { return p_ != end_ && *p_ >= '0' && *p_ <= '9'; };
    if (!is_digit()) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (is_digit()) ++p_;
    }
    bool integral = true;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      integral = false;
      if (!is_digit()) return false;
      while (is_digit()) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      integral = false;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!is_digit()) return false;
      while (is_digit()) ++p_;
    }
    // nlohmann: an integer that overflows its type becomes a float.
    if (integral) {
      if (negative) {
        std::int64_t value = 0;
        if (std::from_chars(start, p_, value).ec == std::errc{}) {
          out = value;
          return true;
        }
      } else {
        std::uint64_t value = 0;
        if (std::from_chars(start, p_, value).ec == std::errc{}) {
          out = value;
          return true;
        }
      }
    }
    // As nlohmann does: strtod on the token, with '.' spelled as the locale writes it, so that
    // the same (correctly rounded) double comes out whatever the locale.
    std::string token(start, p_);
    const std::lconv* locale = std::localeconv();
    const char decimal_point =
        locale == nullptr || locale->decimal_point == nullptr ? '.' : *locale->decimal_point;
    for (char& c : token) {
      if (c == '.') c = decimal_point;
    }
    const double value = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(value)) return false;
    out = value;
    return true;
  }

  const char* p_;
  const char* end_;
  bool too_deep_ = false;
  std::array<char, kStageBytes> stage_;
};

}  // namespace

namespace detail {

const char* find_json_string_special(const char* begin, const char* end) noexcept {
  const char* p = begin;
#if defined(CLAWPERATOR_JSON_AVX2)
  if (end - p >= 64 && cpu_has_avx2() && find_special_avx2(p, end)) return p;
#endif
#if defined(__SSE2__)
  while (end - p >= 32) {
    const unsigned low = special_mask16(p);
    const unsigned high = special_mask16(p + 16);
    if ((low | high) != 0) return p + std::countr_zero(low | (high << 16));
    p += 32;
  }
  if (end - p >= 16) {
    if (const unsigned mask = special_mask16(p); mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  while (p != end && !is_string_special(byte_at(p))) ++p;
  return p;
}

std::size_t utf8_sequence_length(const char* bytes, std::size_t available) noexcept {
  const Utf8Step step = utf8_step(reinterpret_cast<const Byte*>(bytes), available);
  return step.valid ? step.length : 0;
}

}  // namespace detail

Json parse_json(std::string_view text) {
  Json result;
  switch (Parser(text).parse(result)) {
    case Parser::Outcome::Parsed:
      return result;
    case Parser::Outcome::Invalid:
      return Json(Json::value_t::discarded);
    case Parser::Outcome::TooDeep:
      break;
  }
  result = Json();  // release the partial document before nlohmann builds its own
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '\0') break;  // where parse_json stops reading, as nlohmann does
    if (in_string) {
      if (c == '\\') {
        ++at;  // the escaped byte, a quote included
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace clawperator
