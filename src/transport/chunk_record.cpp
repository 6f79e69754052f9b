#include "clawperator/transport/chunk_record.hpp"

#include <cstddef>

#include "clawperator/json.hpp"
#include "clawperator/text.hpp"

namespace clawperator::transport {

namespace {

// More digits than this may not fit std::uint64_t; nlohmann would then make a float.
constexpr std::size_t kMaxPlainDigits = 19;

bool is_json_whitespace(char c) noexcept {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) noexcept
      : p_(text.data()), end_(text.data() + text.size()) {}

  std::optional<ChunkRecordFields> scan() noexcept {
    ChunkRecordFields fields;
    skip_whitespace();
    if (!take('{')) return std::nullopt;
    skip_whitespace();
    if (!take('}')) {
      while (true) {
        std::string_view key;
        if (!take('"') || !plain_string(key)) return std::nullopt;
        ChunkField* field = field_for(fields, key);
        // Unknown and repeated keys are left to nlohmann (a repeat keeps the last value).
        if (field == nullptr || field->kind != ChunkField::Kind::Absent) return std::nullopt;
        skip_whitespace();
        if (!take(':')) return std::nullopt;
        skip_whitespace();
        if (!value(*field)) return std::nullopt;
        skip_whitespace();
        if (take(',')) {
          skip_whitespace();
          continue;
        }
        if (take('}')) break;
        return std::nullopt;
      }
    }
    skip_whitespace();
    if (p_ != end_) return std::nullopt;
    return fields;
  }

 private:
  static ChunkField* field_for(ChunkRecordFields& fields, std::string_view key) noexcept {
    if (key == "commandId") return &fields.commandId;
    if (key == "taskId") return &fields.taskId;
    if (key == "index") return &fields.index;
    if (key == "count") return &fields.count;
    if (key == "byteLength") return &fields.byteLength;
    if (key == "sha256") return &fields.sha256;
    if (key == "data") return &fields.data;
    return nullptr;
  }

  void skip_whitespace() noexcept {
    while (p_ != end_ && is_json_whitespace(*p_)) ++p_;
  }

  bool take(char expected) noexcept {
    if (p_ == end_ || *p_ != expected) return false;
    ++p_;
    return true;
  }

  // After the opening quote: a string whose bytes are all printable ASCII other than '"' and
  // '\\', which therefore means exactly what it spells.
  bool plain_string(std::string_view& out) noexcept {
    const char* start = p_;
    const char* special = clawperator::detail::find_json_string_special(p_, end_);
    if (special == end_ || *special != '"') return false;
    out = std::string_view(start, static_cast<std::size_t>(special - start));
    p_ = special + 1;
    return true;
  }

  bool value(ChunkField& field) noexcept {
    if (take('"')) {
      field.kind = ChunkField::Kind::String;
      return plain_string(field.text);
    }
    const char* start = p_;
    while (p_ != end_ && is_ascii_digit(*p_)) ++p_;
    const auto digits = static_cast<std::size_t>(p_ - start);
    if (digits == 0 || digits > kMaxPlainDigits) return false;
    if (digits > 1 && *start == '0') return false;  // not JSON: nlohmann rejects it
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;  // a float
    std::uint64_t number = 0;
    for (const char* digit = start; digit != p_; ++digit) {
      number = number * 10 + static_cast<std::uint64_t>(*digit - '0');
    }
    field.kind = ChunkField::Kind::Unsigned;
    field.unsigned_value = number;
    return true;
  }

  const char* p_;
  const char* end_;
};

ChunkField field_of(const nlohmann::json& record, const char* key) noexcept {
  ChunkField field;
  const auto it = record.find(key);
  if (it == record.end()) return field;
  if (it->is_string()) {
    field.kind = ChunkField::Kind::String;
    field.text = it->get_ref<const std::string&>();
  } else if (it->is_number_unsigned()) {
    field.kind = ChunkField::Kind::Unsigned;
    field.unsigned_value = it->get<std::uint64_t>();
  } else if (it->is_number_integer()) {
    field.kind = ChunkField::Kind::Signed;
    field.signed_value = it->get<std::int64_t>();
  } else {
    field.kind = ChunkField::Kind::Other;
  }
  return field;
}

}  // namespace

std::optional<ChunkRecordFields> scan_chunk_record(std::string_view json_text) noexcept {
  return Scanner(json_text).scan();
}

ChunkRecordFields chunk_fields_from_json(const nlohmann::json& record) noexcept {
  return ChunkRecordFields{field_of(record, "commandId"),  field_of(record, "taskId"),
                           field_of(record, "index"),      field_of(record, "count"),
                           field_of(record, "byteLength"), field_of(record, "sha256"),
                           field_of(record, "data")};
}

}  // namespace clawperator::transport
