// One JSON type for everything we print: key order is part of readability, so
// objects keep insertion order.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace clawperator {

using Json = nlohmann::ordered_json;

// Serialises without ever throwing: invalid UTF-8 (from binary input echoed in
// a message) is replaced rather than aborting the one JSON document we owe.
// Byte-identical to value.dump(pretty ? 2 : -1, ' ', false, error_handler_t::replace),
// but copies long runs of plain text at once (multi-megabyte snapshots pass through here).
// Like any allocation, it can only fail with std::bad_alloc.
std::string dump_json(const Json& value, bool pretty = false);

// `text` as one JSON string, quoted and escaped as dump_json writes it: how a message names a
// value (a command id, a task id) without its quotes or control bytes breaking the line.
std::string quote_json(std::string_view text);

// An empty object with room for `members` members. nlohmann's ordered_map stores
// pair<const string, json>, which its vector copies (deeply) when it grows: build a
// document that will hold a large value in one of these.
Json object_with_capacity(std::size_t members);

// The same text, handed to `sink` in pieces as it is written, so that a document holding a
// large string is never held a second time as text.
using JsonSink = std::function<void(std::string_view)>;
void dump_json_to(const Json& value, bool pretty, const JsonSink& sink);

// Reads JSON text exactly as Json::parse(text, nullptr, false) does: the same documents are
// accepted (RFC 8259, a leading UTF-8 BOM skipped, strict UTF-8, paired surrogates in \u
// escapes, nothing but whitespace after the value, or a NUL byte, which nlohmann takes for the
// end of the input) and give equal values of the same types
// (unsigned, integer or float as nlohmann picks them; a duplicate key keeps its first place and
// its last value). Anything else gives a discarded value. Strings are scanned many bytes at a
// time, so megabyte strings cost little more than a copy. Throws only std::bad_alloc.
Json parse_json(std::string_view text);

// How deep arrays and objects nest in `text` as JSON reads it (brackets in strings do not count,
// nor bytes after a NUL, where the parser stops); stops counting past `limit` + 1. Text that is
// no JSON gets some number: parse it to know. For a limit of our own on what a caller sends
// (contract kMaxJsonDepth), checked before the document is built.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

namespace detail {

// The first byte in [begin, end) that a JSON string cannot hold as it is written: '"', '\\', a
// control byte (< 0x20) or a non-ASCII byte (>= 0x80, to be checked as UTF-8); end if none.
const char* find_json_string_special(const char* begin, const char* end) noexcept;

// The length (2 to 4) of the well-formed UTF-8 sequence that starts at `bytes`, a non-ASCII
// byte, within `available` bytes; 0 when there is none.
std::size_t utf8_sequence_length(const char* bytes, std::size_t available) noexcept;

}  // namespace detail

}  // namespace clawperator
