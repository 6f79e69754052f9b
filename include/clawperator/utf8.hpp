// Where text stops being UTF-8. Every text a user hands us (payloads, scenario files) is
// checked before it is parsed, so that a bad byte is refused with its offset rather than
// replaced on its way to a device.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator {

// The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode
// table 3-7, as the JSON reader judges it: no overlong forms, no surrogates, nothing above
// U+10FFFF), or nullopt when all of `text` is UTF-8. A sequence cut short (by another lead
// byte or by the end of the text) is reported at its lead byte. One pass, 64 ASCII bytes at
// a time.
std::optional<std::size_t> find_invalid_utf8(std::string_view text) noexcept;

// "byte 0xFF at offset 123", for the messages that report find_invalid_utf8's answer.
std::string describe_invalid_utf8(std::string_view text, std::size_t offset);

// The first string value in `document` (depth first, in order) that is not UTF-8: its path as
// the payload validator writes it ("actions.0.params.text"), the offset in it, and
// describe_invalid_utf8's words. For documents built from arguments, which no parser checked;
// keys are not looked at (the builders write them).
struct InvalidUtf8String {
  std::string path;
  std::size_t offset = 0;
  std::string description;
};
std::optional<InvalidUtf8String> find_invalid_utf8_string(const Json& document);

}  // namespace clawperator
