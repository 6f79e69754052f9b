// dump_json: nlohmann's output, byte for byte, written in bulk.
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "clawperator/json.hpp"
#include "scan.hpp"

namespace clawperator {
namespace {

using namespace json_scan;

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// Streaming: the text is handed over in pieces of about this size.
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

class Writer {
 public:
  Writer(std::string& out, bool pretty) noexcept : out_(out), pretty_(pretty) {}
  // Hands the text to `sink` as it goes instead of keeping it all in `out`.
  Writer(std::string& out, bool pretty, const JsonSink& sink) noexcept
      : out_(out), pretty_(pretty), sink_(&sink) {}

  // Hands over what is written so far (streaming only).
  void flush() {
    if (sink_ != nullptr && !out_.empty()) {
      (*sink_)(out_);
      out_.clear();
    }
  }

  // False when the value holds something only nlohmann writes (binary): the caller starts over.
  // A streaming writer cannot start over: it writes nlohmann's text for that value instead.
  bool write(const Json& value, std::size_t indent) {
    switch (value.type()) {
      case Json::value_t::object:
        return write_object(value, indent);
      case Json::value_t::array:
        return write_array(value, indent);
      case Json::value_t::string:
        write_string(value.get_ref<const std::string&>());
        return true;
      case Json::value_t::boolean:
        out_ += value.get<bool>() ? "true" : "false";
        return true;
      case Json::value_t::number_integer:
        write_integer(value.get<std::int64_t>());
        return true;
      case Json::value_t::number_unsigned:
        write_integer(value.get<std::uint64_t>());
        return true;
      case Json::value_t::number_float:
        // nlohmann's shortest round-trip formatting ("1.0", "1e+100", non-finite as null).
        out_ += value.dump();
        return true;
      case Json::value_t::null:
        out_ += "null";
        return true;
      case Json::value_t::discarded:
        out_ += "<discarded>";
        return true;
      case Json::value_t::binary:
      default:
        if (sink_ == nullptr) return false;
        out_ += value.dump(-1, ' ', false, Json::error_handler_t::replace);
        return true;
    }
  }

 private:
  template <typename Integer>
  void write_integer(Integer value) {
    std::array<char, 24> digits{};
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), value);
    out_.append(digits.data(), result.ptr);
  }

  void write_indent(std::size_t indent) { out_.append(indent, ' '); }

  bool write_object(const Json& value, std::size_t indent) {
    const auto& members = value.get_ref<const Json::object_t&>();
    if (members.empty()) {
      out_ += "{}";
      return true;
    }
    const std::size_t inner = indent + 2;
    out_ += pretty_ ? "{\n" : "{";
    bool first = true;
    for (const auto& [key, member] : members) {
      if (!first) out_ += pretty_ ? ",\n" : ",";
      first = false;
      if (pretty_) write_indent(inner);
      write_string(key);
      out_ += pretty_ ? ": " : ":";
      if (!write(member, inner)) return false;
      if (sink_ != nullptr && out_.size() >= kFlushBytes) flush();
    }
    if (pretty_) {
      out_ += '\n';
      write_indent(indent);
    }
    out_ += '}';
    return true;
  }

  bool write_array(const Json& value, std::size_t indent) {
    const auto& elements = value.get_ref<const Json::array_t&>();
    if (elements.empty()) {
      out_ += "[]";
      return true;
    }
    const std::size_t inner = indent + 2;
    out_ += pretty_ ? "[\n" : "[";
    bool first = true;
    for (const Json& element : elements) {
      if (!first) out_ += pretty_ ? ",\n" : ",";
      first = false;
      if (pretty_) write_indent(inner);
      if (!write(element, inner)) return false;
      if (sink_ != nullptr && out_.size() >= kFlushBytes) flush();
    }
    if (pretty_) {
      out_ += '\n';
      write_indent(indent);
    }
    out_ += ']';
    return true;
  }

  // nlohmann's dump_escaped with ensure_ascii=false and error_handler_t::replace, run by run.
  void write_string(const std::string& text) {
    out_ += '"';
    if (text.size() >= kLongStringBytes && sink_ == nullptr) {
      // Room for the text and typical escaping, so that the document grows once, not twice.
      out_.reserve(out_.size() + text.size() + text.size() / 8 + kStageBytes);
    }
    const char* p = text.data();
    const char* const end = p + text.size();
    char* const stage = stage_.data();
    char* const stage_limit = stage + kStageBytes - kStageMargin;
    char* dst = stage;
    while (true) {
      if (dst >= stage_limit) {
        out_.append(stage, static_cast<std::size_t>(dst - stage));
        dst = stage;
        if (sink_ != nullptr && out_.size() >= kFlushBytes) flush();
      }
#if defined(__SSE2__)
      if (static_cast<std::size_t>(end - p) >= kWindowReadBytes &&
          static_cast<std::size_t>(stage + kStageBytes - dst) >= kWindowStageRoom) {
        std::uint64_t mask = special_mask64(p);
        std::size_t done = 0;
        bool stopped = false;
        while (mask != 0) {
          const auto at = static_cast<std::size_t>(std::countr_zero(mask));
          copy_run(dst, p + done, at - done);
          dst += at - done;
          done = at;
          const char letter = kEscapeLetter[byte_at(p + at)];
          if (letter == 0) {  // another control byte, or UTF-8 to check
            stopped = true;
            break;
          }
          *dst++ = '\\';
          *dst++ = letter;
          done = at + 1;
          mask &= mask - 1;
        }
        if (!stopped) {
          copy_run(dst, p + done, kWindowBytes - done);
          dst += kWindowBytes - done;
          p += kWindowBytes;
          continue;
        }
        p += done;
      } else if (end - p >= 16) {
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
        const char* const run_end = end - p > 16 ? p + 16 : end;
        while (p != run_end && !is_string_special(byte_at(p))) *dst++ = *p++;
        if (p == end) break;
        if (p == run_end) continue;
      }

      const Byte c = byte_at(p);
      if (c >= 0x80) {
        const Utf8Step step =
            utf8_step(reinterpret_cast<const Byte*>(p), static_cast<std::size_t>(end - p));
        if (step.valid) {
          std::memcpy(dst, p, step.length);
          dst += step.length;
        } else {
          std::memcpy(dst, kReplacementCharacter.data(), kReplacementCharacter.size());
          dst += kReplacementCharacter.size();
        }
        p += step.length;
        continue;
      }
      ++p;
      *dst++ = '\\';
      switch (c) {
        case '"':
          *dst++ = '"';
          break;
        case '\\':
          *dst++ = '\\';
          break;
        case '\b':
          *dst++ = 'b';
          break;
        case '\t':
          *dst++ = 't';
          break;
        case '\n':
          *dst++ = 'n';
          break;
        case '\f':
          *dst++ = 'f';
          break;
        case '\r':
          *dst++ = 'r';
          break;
        default: {
          static constexpr std::string_view kHex = "0123456789abcdef";
          *dst++ = 'u';
          *dst++ = '0';
          *dst++ = '0';
          *dst++ = kHex[c >> 4];
          *dst++ = kHex[c & 0x0F];
          break;
        }
      }
    }
    out_.append(stage, static_cast<std::size_t>(dst - stage));
    out_ += '"';
  }

  std::string& out_;
  bool pretty_;
  const JsonSink* sink_ = nullptr;
  std::array<char, kStageBytes> stage_;
};

}  // namespace

Json object_with_capacity(std::size_t members) {
  Json object = Json::object();
  static_cast<Json::object_t::Container&>(object.get_ref<Json::object_t&>()).reserve(members);
  return object;
}

void dump_json_to(const Json& value, bool pretty, const JsonSink& sink) {
  std::string buffer;
  Writer writer(buffer, pretty, sink);
  writer.write(value, 0);
  writer.flush();
}

std::string dump_json(const Json& value, bool pretty) {
  std::string out;
  if (Writer(out, pretty).write(value, 0)) return out;
  return value.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
}

std::string quote_json(std::string_view text) {
  return dump_json(Json(text));
}

}  // namespace clawperator
