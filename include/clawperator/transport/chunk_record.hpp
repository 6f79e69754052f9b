// One `[Clawperator-Result-Chunk]` record's JSON, reduced to what the reassembler checks.
// A fast scanner reads the flat records the Operator writes; anything it is not certain about
// goes through nlohmann, and both give the same fields, so every decision is the same.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace clawperator::transport {

struct ChunkField {
  enum class Kind : std::uint8_t {
    Absent,
    String,
    Unsigned,  // a JSON integer >= 0 (nlohmann's number_unsigned)
    Signed,    // a JSON integer < 0, or -0 (nlohmann's number_integer)
    Other,     // a float, a boolean, null, an object or an array
  };
  Kind kind = Kind::Absent;
  std::string_view text;  // String: the value, pointing into the record or its parsed form
  std::uint64_t unsigned_value = 0;
  std::int64_t signed_value = 0;

  friend bool operator==(const ChunkField&, const ChunkField&) = default;
};

struct ChunkRecordFields {
  ChunkField commandId;
  ChunkField taskId;
  ChunkField index;
  ChunkField count;
  ChunkField byteLength;
  ChunkField sha256;
  ChunkField data;

  friend bool operator==(const ChunkRecordFields&, const ChunkRecordFields&) = default;
};

// The fields of a record that is exactly one JSON object whose members are the seven chunk
// keys, each at most once, with values that are strings of printable ASCII without escapes or
// integers >= 0 without sign, fraction or exponent (JSON whitespace allowed between tokens).
// nullopt for anything else, valid or not: the caller then asks nlohmann.
std::optional<ChunkRecordFields> scan_chunk_record(std::string_view json_text) noexcept;

// The same fields from a parsed record (an object); the views point into `record`.
ChunkRecordFields chunk_fields_from_json(const nlohmann::json& record) noexcept;

}  // namespace clawperator::transport
