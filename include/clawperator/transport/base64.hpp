// Standard-alphabet base64 (RFC 4648 §4, padded). Decoding accepts only canonical text,
// the one spelling that encode_base64() produces, so a chunk cannot be smuggled in two forms.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::transport {

std::string encode_base64(std::string_view bytes);

// The size decode would produce, from the length and padding alone (characters are not
// checked): nullopt when the length is not a multiple of 4 or the padding is misplaced.
std::optional<std::size_t> base64_decoded_size(std::string_view text) noexcept;

// Appends the decoded bytes to out in one pass. On non-canonical input (a character outside
// the alphabet, wrong padding, non-zero pad bits) returns false and leaves out as it was.
bool append_base64_decoded(std::string_view text, std::string& out);

std::optional<std::string> decode_base64(std::string_view text);

}  // namespace clawperator::transport
